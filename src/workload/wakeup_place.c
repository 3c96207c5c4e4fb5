// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakeup_place: schbench's -M and -W, where the wakeup workload's
 * message threads and workers may run. A cpulist, "auto" or "none"; the
 * CPUs named must be ones this process may use, checked before the run
 * so that a typo is a usage error, not a failed run.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "workload/wakeup.h"
#include "util.h"

static int allowed_cpus(struct cpumask *m)
{
	memset(m, 0, sizeof(*m));
	if (sched_getaffinity(0, sizeof(*m), (cpu_set_t *)m))
		return error_errno("wakeup: sched_getaffinity");
	return 0;
}

/* The message threads on the first allowed CPUs, the workers on the rest. */
static int place_auto(const struct wakeup_cfg *cfg, struct wakeup_place *p,
		      const struct cpumask *ok)
{
	unsigned n = 0;
	int c;

	for_each_cpu(c, ok) {
		if (n++ < cfg->message_threads)
			cpumask_set(&p->msg, c);
		else
			cpumask_set(&p->wk, c);
	}
	if (!cpumask_weight(&p->wk))
		return error("wakeup: -M/-W auto: %u message threads leave none of the %u allowed CPUs to the workers",
			     cfg->message_threads, n);
	p->nmsg = cpumask_weight(&p->msg);
	p->pin_msg = p->pin_wk = true;
	return 0;
}

static int place_list(const char *opt, const char *s, struct cpumask *m,
		      const struct cpumask *ok)
{
	char buf[256];
	int c;

	if (cpulist_parse(s, m) <= 0)
		return error("wakeup: %s '%s' is not a cpulist (such as 0-3,8), auto or none",
			     opt, s);
	for_each_cpu(c, m)
		if (!cpumask_test(ok, c)) {
			cpulist_format(ok, buf, sizeof(buf));
			return error("wakeup: %s '%s': CPU %d is not one this process may use (%s)",
				     opt, s, c, buf);
		}
	return 0;
}

int wakeup_place(const struct wakeup_cfg *cfg, struct wakeup_place *p)
{
	struct cpumask ok;

	memset(p, 0, sizeof(*p));
	if (allowed_cpus(&ok))
		return -1;
	if (!strcmp(cfg->message_cpus, "auto") || !strcmp(cfg->worker_cpus, "auto"))
		return place_auto(cfg, p, &ok);
	if (strcmp(cfg->message_cpus, "none")) {
		if (place_list("-M/--message_cpus", cfg->message_cpus, &p->msg, &ok))
			return -1;
		p->pin_msg = true;
		p->nmsg = cpumask_weight(&p->msg);
	}
	if (strcmp(cfg->worker_cpus, "none")) {
		if (place_list("-W/--worker_cpus", cfg->worker_cpus, &p->wk, &ok))
			return -1;
		p->pin_wk = true;
	}
	return 0;
}

int wakeup_pin_message(const struct wakeup_place *p, unsigned index)
{
	struct cpumask one;
	int c = cpumask_next(&p->msg, 0);

	if (!p->pin_msg)
		return 0;
	for (unsigned i = 0; i < index % (unsigned)p->nmsg; i++)
		c = cpumask_next(&p->msg, c + 1);
	memset(&one, 0, sizeof(one));
	cpumask_set(&one, c);
	return sched_setaffinity(0, sizeof(one), (cpu_set_t *)&one);
}

int wakeup_pin_worker(const struct wakeup_place *p)
{
	if (!p->pin_wk)
		return 0;
	return sched_setaffinity(0, sizeof(p->wk), (const cpu_set_t *)&p->wk);
}
