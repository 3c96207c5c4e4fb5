// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_power: the warning, before a plan runs, that its iteration
 * counts cannot decide a comparison by the test it will be judged with
 * - 3 iterations a side can never make Mann-Whitney significant
 * (stats/tests.h: stats_min_samples()), so a run of them measures
 * nothing that compare could call a change. One warning per distinct
 * count; the plan still runs.
 */
#include <stdio.h>
#include <string.h>

#include "harness/plan.h"
#include "util.h"

/* At most this many jobs are named in one warning. */
#define NAMED_JOBS 4

/* "in msg, pp": the jobs whose cases have count iterations, each once. */
static void jobs_with(const struct plan *p, unsigned count, char *buf,
		      size_t len)
{
	size_t named = 0, more = 0, used;

	*buf = 0;
	for (size_t i = 0; i < p->ncases; i++) {
		const struct plan_case *c = &p->cases[i];
		bool seen = false;

		if (c->iterations != count)
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = p->cases[k].iterations == count &&
			       !strcmp(p->cases[k].job, c->job);
		if (seen)
			continue;
		used = strlen(buf);
		if (named++ < NAMED_JOBS)
			snprintf(buf + used, len - used, "%s%s",
				 used ? ", " : " in ", c->job);
		else
			more++;
	}
	used = strlen(buf);
	if (more)
		snprintf(buf + used, len - used, " and %zu more", more);
}

int plan_warn_power(const struct plan *p, enum stat_test t, double alpha)
{
	size_t need = stats_min_samples(t, alpha);
	size_t advise = stats_advised_samples(t, alpha);
	const char *name = stat_test_names[t];
	int warned = 0;

	if (!need)
		return 0;
	for (size_t i = 0; i < p->ncases; i++) {
		const struct plan_case *c = &p->cases[i];
		bool all = true, seen = false;
		char jobs[512], why[160];

		if (c->auto_iter || c->iterations >= need)
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !p->cases[k].auto_iter &&
			       p->cases[k].iterations == c->iterations;
		if (seen)
			continue;
		for (size_t k = 0; k < p->ncases && all; k++)
			all = p->cases[k].iterations == c->iterations;
		if (all)
			*jobs = 0;
		else
			jobs_with(p, c->iterations, jobs, sizeof(jobs));
		if (stats_can_reach(t, c->iterations, c->iterations, alpha))
			snprintf(why, sizeof(why), "compare needs %d a side",
				 CMP_MIN_SAMPLES);
		else if (t == TEST_MWU || t == TEST_WELCH)
			snprintf(why, sizeof(why),
				 "%s cannot reach p < %g below %zu a side", name,
				 alpha, need);
		else
			snprintf(why, sizeof(why),
				 "%s cannot mark a change below %zu a side",
				 name, need);
		warning("%u iteration%s%s: %s; use %zu or more, or --iterations auto",
			c->iterations, c->iterations == 1 ? "" : "s", jobs, why,
			advise);
		warned++;
	}
	return warned;
}
