/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/campaign_cli.h: schedlab campaign's options, shared by its A/B
 * (campaign_cli.c) and bisect (campaign_bisect.c) subcommands.
 */
#ifndef SCHEDLAB_CMD_CAMPAIGN_CLI_H
#define SCHEDLAB_CMD_CAMPAIGN_CLI_H

#include <stdbool.h>

#include "cmd/setup.h"
#include "vm/vm.h"
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
	struct vm_machine vmo;
	struct vm_cmd_kbuild kb;	/* how a tree's commits are built */
	bool help;
};

/* With --vm: c->vm from o's shape options (checked). -1 after error(). */
int campaign_vm_opts(const struct campaign_opts *o, const char *who,
		     struct campaign *c);
/* With --vm: c->kbuild from o's build options (checked; their --config
 * made absolute, for a resume from anywhere). -1 after error(). */
int campaign_kbuild_opts(const struct campaign_opts *o, const char *who,
			 struct campaign *c);

/* campaign bisect NAME JOBFILE ...: its exit status. */
int campaign_bisect_start(const struct campaign_opts *o, const char *db, int n,
			  char **ops);

#endif
