/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * noise_model: a host's noise model of each case of a job, derived on
 * demand from the runs stored (store_series(), one query), so that it
 * travels with the runs themselves through export/import and push/pull:
 * nothing else is stored. The arithmetic is stats/noise.h's; compare,
 * judge, noise, plan and run read it from here.
 *
 * A case is one host, workload version, parameter string and sweep
 * value of the job; its runs are grouped by label (one label, one
 * state: only neighbours within a label are differenced).
 */
#ifndef SCHEDLAB_COMPARE_NOISE_MODEL_H
#define SCHEDLAB_COMPARE_NOISE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/noise.h"

struct store;

struct noise_case {
	char *job, *host, *params, *sweep;	/* host NULL: runs without one */
	unsigned version;
	char *metric, *unit;	/* the metric read */
	enum better better;
	struct noise_model m;	/* between NAN: not enough runs */
	bool known;		/* m.between measured (NOISE_MIN_PAIRS) */
	double iter_s;		/* median wall time of one iteration; NAN */
	char *first_label;	/* the label with the most runs (for messages) */
	/* the runs the model was made of, in store order (noise_at_gap()) */
	struct noise_obs *obs;
	size_t nobs;
};

struct noise_set {
	struct noise_case *cases;
	size_t n;
};

struct noise_query {
	const char *job;		/* required */
	const char *metric;		/* NULL: the job's headline */
	const char *host;		/* glob; NULL: any */
	/* a case: only this version, params and sweep (NULL: every case) */
	const char *params, *sweep;
	unsigned version;
	/* runs left out (the runs being compared), by uuid */
	const char *const *exclude;
	size_t nexclude;
};

/*
 * The cases of q->job matching q into *out, sorted by host then store
 * order (noise_set_free() releases it, also after an error). 0 also
 * when there is none; -1 after error().
 */
int noise_models(struct store *st, const struct noise_query *q,
		 struct noise_set *out);
void noise_set_free(struct noise_set *s);

/*
 * The model of one case (q with params and sweep set, host exact): 1
 * with *m filled, 0 when not enough runs are stored, -1 after error().
 */
int noise_model_case(struct store *st, const struct noise_query *q,
		     struct noise_model *m);

/* A host name as a glob that matches only it. */
void noise_glob_exact(const char *s, char *buf, size_t len);

#endif
