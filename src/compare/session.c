// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare/session.c: RUN operands to a comparison for a command
 * (compare/session.h): one database opened once, the runs loaded through
 * it, each side merged, the comparison built.
 */
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_opts.h"
#include "compare/session.h"
#include "model/run.h"
#include "util.h"

void compare_session_init(struct compare_session *s, const char *dbopt)
{
	memset(s, 0, sizeof(*s));
	run_source_init(&s->src, dbopt);
}

struct store *compare_session_store(struct compare_session *s)
{
	return run_source_store(&s->src);
}

int compare_session_load(struct compare_session *s, const char *const *specs,
			 size_t n, const size_t *side_end, size_t nsides)
{
	s->runs = xcalloc(n + 1, sizeof(*s->runs));
	s->rp = xcalloc(nsides + 1, sizeof(*s->rp));
	if (run_source_load_many(&s->src, specs, n, s->runs))
		return -1;
	s->nruns = n;
	s->nsides = nsides;
	/* a side of several runs: the later ones' iterations into its first */
	for (size_t i = 0; i < nsides; i++) {
		size_t lo = side_end ? (i ? side_end[i - 1] : 0) : i;
		size_t hi = side_end ? side_end[i] : i + 1;

		for (size_t k = lo + 1; k < hi; k++)
			run_merge(&s->runs[lo], &s->runs[k]);
		s->rp[i] = &s->runs[lo];
	}
	return 0;
}

int compare_session_build(struct compare_session *s, const char *const *names,
			  const struct cmp_opts *co, bool match_job,
			  bool history, struct comparison *c)
{
	struct store *st = history ? compare_session_store(s) : NULL;

	return compare_build(s->rp, names, s->nsides, co, match_job, st, c);
}

int compare_session_decide(struct compare_session *s, const char *who, int test,
			   const char *const *names, const struct cmp_opts *co,
			   bool match_job, struct comparison *c)
{
	if (compare_session_build(s, names, co, match_job, true, c))
		return -1;
	if (compare_test_decided(who, test, c)) {
		compare_free(c);
		return -1;
	}
	return 0;
}

void compare_session_close(struct compare_session *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		run_free(&s->runs[i]);
	free(s->runs);
	free(s->rp);
	run_source_close(&s->src);
	memset(s, 0, sizeof(*s));
}
