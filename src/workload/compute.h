/* SPDX-License-Identifier: GPL-2.0-only */
/* compute: an AIM7-style multiuser compute load with a job timing index. */
#ifndef SCHEDLAB_COMPUTE_H
#define SCHEDLAB_COMPUTE_H

struct compute_cfg {
	unsigned tasks;
	unsigned jobs;		/* per task */
	int mix;		/* index into compute_mix_names */
	const char *pin_one;	/* "none", or the CPU task 1 runs on alone */
};

enum {
	CMP_JOBS_PER_MIN,
	CMP_JTI,
	CMP_REAL,
	CMP_CPU,
	CMP_JOBS_PER_SEC_TASK,
	CMP_FIRST,
	CMP_NMETRICS,
};

extern const char *const compute_mix_names[];

#endif
