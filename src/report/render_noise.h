/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report/render_noise.h: the writers of `schedlab noise` (the noise
 * model of each case, compare/noise_model.h) and `schedlab plan` (its
 * rows, compare/noise_plan.h): text and json.
 */
#ifndef SCHEDLAB_REPORT_RENDER_NOISE_H
#define SCHEDLAB_REPORT_RENDER_NOISE_H

#include <stddef.h>
#include <stdio.h>

#include "compare/noise_plan.h"

/* Each job's cases, a table a host (jobs[j] names sets[j]). */
void render_noise_text(FILE *f, const struct noise_set *sets,
		       const char *const *jobs, size_t njobs);
/* Every case as schedlab-noise/1. */
void render_noise_json(FILE *f, const struct noise_set *sets, size_t njobs);
/* The plans of a job's cases to detect effect (percent): a table and
 * what to run then, or schedlab-plan/1. */
void render_plan_text(FILE *f, const char *job, const struct noise_plan_row *rows,
		      size_t n, double effect);
void render_plan_json(FILE *f, const struct noise_plan_row *rows, size_t n,
		      double effect);

#endif
