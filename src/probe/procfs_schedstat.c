// SPDX-License-Identifier: GPL-2.0-only
/*
 * procfs_schedstat.c: the parser of /proc/schedstat, versions 15 to 17
 * (procfs.h), on the span helpers of procfs_span.h.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "probe/procfs.h"
#include "probe/procfs_span.h"

/* --------------------------------------------------- /proc/schedstat */

/*
 * The layouts, from kernel/sched/stats.c show_schedstat() and
 * Documentation/scheduler/sched-stats.rst of each version:
 *
 *	version N
 *	timestamp <jiffies>
 *	cpuN yld_count 0 sched_count sched_goidle ttwu_count ttwu_local
 *	     rq_cpu_time run_delay pcount			(all versions)
 *	domainN [name] <cpumask> <per idle type>x3 <12 more>
 *
 * <cpumask> is "%*pb": 32-bit hex chunks, most significant first, joined
 * by ','. Per idle type, in enum cpu_idle_type order:
 *	v15, v16: lb_count lb_balanced lb_failed lb_imbalance lb_gained
 *		  lb_hot_gained lb_nobusyq lb_nobusyg			(8)
 *	v17:	  lb_count lb_balanced lb_failed lb_imbalance_load
 *		  lb_imbalance_util lb_imbalance_task lb_imbalance_misfit
 *		  lb_gained lb_hot_gained lb_nobusyq lb_nobusyg		(11)
 * then alb_count alb_failed alb_pushed, sbe_count sbe_balanced
 * sbe_pushed, sbf_count sbf_balanced sbf_pushed (unused, not kept),
 * ttwu_wake_remote ttwu_move_affine ttwu_move_balance.
 *
 * v15 (until 6.9): enum cpu_idle_type { CPU_IDLE, CPU_NOT_IDLE,
 *	CPU_NEWLY_IDLE }: idle, busy, newly idle; 36 domain fields.
 * v16 (6.10, commits 38d707c54df4 "sched/balancing: Change 'enum
 *	cpu_idle_type' to have more natural definitions" and 11b0bfa5d463
 *	"sched/debug: Increase SCHEDSTAT_VERSION to 16"): { __CPU_NOT_IDLE
 *	= 0, CPU_IDLE, CPU_NEWLY_IDLE }: busy, idle, newly idle; still 36.
 *	(The v16 sched-stats.rst kept listing idle first until Adam Li's
 *	fix; the code is what counts.)
 * v17 (6.14, commits 3b2a793ea70f "sched: Report the different kinds
 *	of imbalances in /proc/schedstat", 1c055a0f5d3b "sched: Move sched
 *	domain name out of CONFIG_SCHED_DEBUG", 011b3a14dc66 "sched/stats:
 *	Print domain name in /proc/schedstat", 7c8cd569ff66 "docs: Update
 *	Schedstat version to 17"): "domain%d %s %*pb", the name always
 *	there; busy, idle, newly idle; 45 domain fields.
 *
 * Out-of-tree patches (Mel Gorman's sis_* counters, 2021) reused
 * versions 16-18 with more cpu fields: the exact counts refuse them.
 */
static const struct ss_layout {
	int version;
	bool names;
	bool split;			/* lb_imbalance_{load,util,task,misfit} */
	enum lb_idle order[LB_NR_IDLE];	/* idle types as printed */
} ss_layouts[] = {
	{ 15, false, false, { LB_IDLE, LB_BUSY, LB_NEWLY_IDLE } },
	{ 16, false, false, { LB_BUSY, LB_IDLE, LB_NEWLY_IDLE } },
	{ 17, true, true, { LB_BUSY, LB_IDLE, LB_NEWLY_IDLE } },
};

#define SS_CPU_FIELDS 9
#define SS_MAX_DOMAIN_FIELDS (3 * 11 + 12)

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "%*pb": "3", "0f", "00000000,00000003" (lib/vsprintf.c bitmap_string()) */
static int parse_span(struct span w, struct cpumask *m)
{
	size_t chunks = 1;

	memset(m, 0, sizeof(*m));
	for (const char *c = w.p; c < w.end; c++)
		chunks += *c == ',';
	if (chunks > CPUMASK_MAX_CPUS / 32)
		return -1;
	while (chunks--) {
		uint32_t x = 0;
		int n = 0, h;

		while (w.p < w.end && (h = hex_value(*w.p)) >= 0) {
			if (++n > 8)
				return -1;
			x = x << 4 | h;
			w.p++;
		}
		if (!n || (chunks ? !eat(&w, ",") : w.p != w.end))
			return -1;
		for (int b = 0; b < 32; b++)
			if (x >> b & 1)
				cpumask_set(m, chunks * 32 + b);
	}
	return 0;
}

int procfs_schedstat_version(const char *buf, size_t len)
{
	struct span in = span_of(buf, len), line;
	uint64_t v;

	if (next_line(&in, &line) != 1 || !eat(&line, "version") ||
	    !at_boundary(&line) || word_u64(&line, &v) || !at_end(&line) ||
	    v > INT_MAX)
		return -1;
	return v;
}

/* The rest of line: n words, unsigned decimals, into v; 0, or -1. */
static int last_words_u64(struct span *line, uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		if (word_u64(line, &v[i]))
			return -1;
	return at_end(line) ? 0 : -1;
}

static int ss_cpu(struct span line, int prev, struct schedstat_cpu *c)
{
	uint64_t cpu, v[SS_CPU_FIELDS];

	if (digits(&line, &cpu, NULL) || !at_boundary(&line) ||
	    cpu >= CPUMASK_MAX_CPUS || (int)cpu <= prev)
		return -1;
	if (last_words_u64(&line, v, SS_CPU_FIELDS))
		return -1;
	/* v[1] is the O(1) scheduler's expired count, always 0 */
	*c = (struct schedstat_cpu){
		.cpu = cpu,
		.yld_count = v[0],
		.sched_count = v[2],
		.sched_goidle = v[3],
		.ttwu_count = v[4],
		.ttwu_local = v[5],
		.rq_cpu_time_ns = v[6],
		.run_delay_ns = v[7],
		.pcount = v[8],
	};
	return 0;
}

static int ss_domain(struct span line, const struct ss_layout *lay,
		     int level, struct schedstat_domain *d)
{
	int per = lay->split ? 11 : 8, nr = 3 * per + 12;
	uint64_t v[SS_MAX_DOMAIN_FIELDS], n;
	struct span w;
	const uint64_t *f;

	memset(d, 0, sizeof(*d));
	if (digits(&line, &n, NULL) || !at_boundary(&line) || n != (uint64_t)level)
		return -1;
	d->level = level;
	if (lay->names) {
		if (word(&line, &w) || (size_t)(w.end - w.p) >= sizeof(d->name) ||
		    memchr(w.p, '\0', w.end - w.p))
			return -1;
		memcpy(d->name, w.p, w.end - w.p);
	}
	if (word(&line, &w) || parse_span(w, &d->span))
		return -1;
	if (last_words_u64(&line, v, nr))
		return -1;
	f = v;
	for (int i = 0; i < LB_NR_IDLE; i++, f += per) {
		enum lb_idle t = lay->order[i];

		d->lb_count[t] = f[0];
		d->lb_balanced[t] = f[1];
		d->lb_failed[t] = f[2];
		if (lay->split) {
			d->lb_imbalance_load[t] = f[3];
			d->lb_imbalance_util[t] = f[4];
			d->lb_imbalance_task[t] = f[5];
			d->lb_imbalance_misfit[t] = f[6];
			d->lb_imbalance[t] = f[3];
			for (int k = 4; k <= 6; k++) {
				if (d->lb_imbalance[t] > UINT64_MAX - f[k])
					return -1;
				d->lb_imbalance[t] += f[k];
			}
		} else {
			d->lb_imbalance[t] = f[3];
		}
		/* the last four of a block, in every version */
		d->lb_gained[t] = f[per - 4];
		d->lb_hot_gained[t] = f[per - 3];
		d->lb_nobusyq[t] = f[per - 2];
		d->lb_nobusyg[t] = f[per - 1];
	}
	d->alb_count = f[0];
	d->alb_failed = f[1];
	d->alb_pushed = f[2];
	/* f[3..8]: sbe_* and sbf_*, "not used" */
	d->ttwu_wake_remote = f[9];
	d->ttwu_move_affine = f[10];
	d->ttwu_move_balance = f[11];
	return 0;
}

void schedstat_free(struct schedstat *s)
{
	free(s->cpus);
	free(s->domains);
	memset(s, 0, sizeof(*s));
}

int procfs_parse_schedstat(const char *buf, size_t len, struct schedstat *out)
{
	struct span in = span_of(buf, len), line;
	const struct ss_layout *lay = NULL;
	struct schedstat s = { 0 };
	size_t cpu_cap = 0, dom_cap = 0, k = 0;
	int version, r;

	memset(out, 0, sizeof(*out));
	version = procfs_schedstat_version(buf, len);
	for (size_t i = 0; i < sizeof(ss_layouts) / sizeof(ss_layouts[0]); i++)
		if (ss_layouts[i].version == version)
			lay = &ss_layouts[i];
	if (!lay)
		return -1;
	s.version = version;
	s.has_names = lay->names;
	s.imbalance_split = lay->split;
	next_line(&in, &line);		/* "version N", read above */
	if (next_line(&in, &line) != 1 || !eat(&line, "timestamp") ||
	    !at_boundary(&line) || word_u64(&line, &s.timestamp) ||
	    !at_end(&line))
		return -1;

	while ((r = next_line(&in, &line)) == 1) {
		if (eat(&line, "cpu")) {
			struct schedstat_cpu *c;
			int prev = s.nr_cpus ? s.cpus[s.nr_cpus - 1].cpu : -1;

			c = grow(s.cpus, &cpu_cap, s.nr_cpus, sizeof(*c));
			if (!c)
				goto fail;
			s.cpus = c;
			if (ss_cpu(line, prev, &s.cpus[s.nr_cpus]))
				goto fail;
			s.nr_cpus++;
		} else if (eat(&line, "domain") && s.nr_cpus) {
			struct schedstat_cpu *c = &s.cpus[s.nr_cpus - 1];
			struct schedstat_domain *d;

			d = grow(s.domains, &dom_cap, s.nr_domains, sizeof(*d));
			if (!d)
				goto fail;
			s.domains = d;
			if (ss_domain(line, lay, c->nr_domains,
				      &s.domains[s.nr_domains]))
				goto fail;
			s.nr_domains++;
			c->nr_domains++;
		} else {
			goto fail;
		}
	}
	if (r < 0 || !s.nr_cpus)
		goto fail;
	/* the domains moved while growing: point the CPUs at theirs now */
	for (int i = 0; i < s.nr_cpus; i++) {
		s.cpus[i].domains = s.cpus[i].nr_domains ? s.domains + k : NULL;
		k += s.cpus[i].nr_domains;
	}
	*out = s;
	return 0;
fail:
	schedstat_free(&s);
	return -1;
}
