/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exec/judge.h: judge's decision rules (judge_rules.c) - the threshold
 * and bisect rules at each look of the engine (struct run_adapt's
 * hooks), the stored candidate classified, the exit code - and what
 * cmd/judge.c (its options, the run, the output) hands them.
 */
#ifndef SCHEDLAB_EXEC_JUDGE_H
#define SCHEDLAB_EXEC_JUDGE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "compare/compare.h"
#include "harness/plan.h"
#include "harness/runner.h"
#include "stats/sequential.h"

/*
 * The bisect mode's design (doc/statistics.md): each wrong call at most
 * CLASSIFY_ALPHA, in up to CLASSIFY_MAX rounds unless --max-iterations.
 */
#define CLASSIFY_ALPHA 0.02
#define CLASSIFY_MAX 100

enum mode { M_THRESHOLD, M_CLASSIFY };

/* What judge learnt about each case of its plan, by seq. */
struct case_note {
	unsigned n;		/* iterations (rounds) */
	bool decided, looked;
	char why[384];
	struct seq_class cls;	/* M_CLASSIFY */
	bool have_cls;
};

struct judge {
	enum mode mode;
	bool live;		/* references run beside the build */
	const struct run *base, *bad;	/* stored references */
	struct store *st;	/* history: run-to-run noise of base */
	struct cmp_opts co;
	struct case_note *notes;
	size_t nnotes;
	double look_alpha;	/* of the threshold mode's looks; 0: none */
	bool match_job;		/* --match job */
};

/* exec's hooks (struct run_adapt) at each look, arg the struct judge. */
bool judge_enough(void *arg, const struct plan_case *c,
		  const struct case_result *const *r, size_t nr,
		  char *why, size_t len);
void judge_done(void *arg, const struct plan_case *c, unsigned n,
		bool decided, const char *why);

/*
 * Classifies a stored candidate as a whole (--run, or fixed iterations):
 * one look at alpha.
 */
void judge_classify_stored(struct judge *j, const struct run *cand,
			   const struct run *const *refs, bool paired);
/*
 * Whether the good and the bad reference differ in a case they share
 * (Mann-Whitney at CLASSIFY_ALPHA); why says what they share when not.
 */
bool judge_refs_differ(const struct run *g, const struct run *b,
		       bool match_job, char *why, size_t len);
/* The bisect mode's exit code for cand, and why. */
int judge_classify_code(const struct judge *j, const struct run *cand,
			char *why, size_t len);
/* The threshold mode's exit code from the comparison. */
int judge_threshold_code(const struct comparison *c);
/* Whether every headline case is no change by equivalence; *most: the most ruled out. */
bool judge_all_equivalent(const struct comparison *c, double *most);

#endif
