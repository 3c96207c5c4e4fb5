/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare/session.h: a command's comparison from RUN operands to a
 * struct comparison - the database resolved and opened once
 * (store/load.h's struct run_source), the runs loaded through it, the
 * RUNs of one side merged, the comparison built (compare_build()) with
 * the store for the baseline's run-to-run noise. compare, report and ab
 * drive it; the renderers get the comparison and the runs.
 *
 *	struct compare_session s;
 *
 *	compare_session_init(&s, o.db);
 *	if (compare_session_load(&s, specs, n, NULL, n) ||
 *	    compare_session_build(&s, names, &co, match_job, true, &c))
 *		goto out;
 *	... render c and s.rp ...
 *	compare_free(&c);
 *   out:
 *	compare_session_close(&s);
 */
#ifndef SCHEDLAB_COMPARE_SESSION_H
#define SCHEDLAB_COMPARE_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/cmp_opts.h"
#include "compare/compare.h"
#include "store/load.h"

struct compare_session {
	struct run_source src;	/* the database, opened once */
	struct run *runs;	/* [nruns]: every RUN loaded */
	size_t nruns;
	const struct run **rp;	/* [nsides]: each side's run (merged) */
	size_t nsides;
};

/* A session on --db dbopt (NULL: the default); nothing is opened yet. */
void compare_session_init(struct compare_session *s, const char *dbopt);

/* The database, opened on first need: NULL when none or failed (said). */
struct store *compare_session_store(struct compare_session *s);

/*
 * Loads specs[0..n) and makes nsides sides of them: side i is specs
 * [side_end[i - 1], side_end[i]) merged into its first (run_merge());
 * side_end NULL: one RUN a side. -1 after error().
 */
int compare_session_load(struct compare_session *s, const char *const *specs,
			 size_t n, const size_t *side_end, size_t nsides);

/*
 * compare_build() of the sides, names[] naming them; with history the
 * store (when there is one) gives the baseline's run-to-run noise and
 * the host's noise models.
 */
int compare_session_build(struct compare_session *s, const char *const *names,
			  const struct cmp_opts *co, bool match_job,
			  bool history, struct comparison *c);
/*
 * compare_session_build() with history, then --test (test: the option's
 * index in cmp_test_choices) checked against what decided: a comparison
 * of separate runs that a named test cannot decide is refused, said as
 * who's error. -1 after error(), c then freed.
 */
int compare_session_decide(struct compare_session *s, const char *who, int test,
			   const char *const *names, const struct cmp_opts *co,
			   bool match_job, struct comparison *c);

/* Frees the runs and closes the database. */
void compare_session_close(struct compare_session *s);

#endif
