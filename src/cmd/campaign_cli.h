/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/campaign_cli.h: schedlab campaign's options, shared by its A/B
 * (campaign.c) and bisect (campaign_bisect.c) subcommands.
 */
#ifndef SCHEDLAB_CMD_CAMPAIGN_CLI_H
#define SCHEDLAB_CMD_CAMPAIGN_CLI_H

#include <stdbool.h>

#include "cmd/setup.h"
#include "options.h"

struct campaign;

struct campaign_opts {
	const char *db, *hook, *threshold;
	struct opt_list states;
	unsigned max_boots, block, deadline, seed;
	int design, format;
	/* bisect */
	const char *repo, *good, *bad, *build, *check;
	unsigned max_step, max_refs;
	/* --vm: boots in qemu, the machine's shape */
	bool vm;
	struct vm_cmd_shape vmo;
	bool help;
};

/* With --vm: c->vm from o's shape options (checked). -1 after error(). */
int campaign_vm_opts(const struct campaign_opts *o, const char *who,
		     struct campaign *c);
/*
 * A campaign over VMs goes on in this process: each boot's step until
 * it ends (rc is campaign_step()'s or first_hook's last return).
 */
int campaign_vm_drive(struct campaign *c, struct store *st, const char *db,
		      int rc);

struct store;

/*
 * A new campaign c stored in db and begun (begin: its first hook or git
 * bisect start); who names the command in errors. Its exit status: 2
 * when the store cannot be opened or the campaign exists.
 */
int campaign_create(struct campaign *c, const char *db, const char *who,
		    int (*begin)(struct campaign *, struct store *, const char *));

/* The job as resume will find it from any directory; NULL after error(). */
char *campaign_job_spec(const char *spec);

/* campaign bisect NAME JOBFILE ...: its exit status. */
int campaign_bisect_start(const struct campaign_opts *o, const char *db, int n,
			  char **ops);
/* A bisect campaign's steps, runs and time, in text. */
void campaign_bisect_status(const struct campaign *c);

#endif
