// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/campaign_vm.c: a campaign's VM from its options (--vm, the shape,
 * and how a kernel tree's commits are built), for campaign start
 * (campaign_cli.c) and bisect (campaign_bisect.c) alike.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "cmd/campaign_cli.h"
#include "cmd/cmd.h"
#include "util.h"
#include "vm/vm.h"

int campaign_vm_opts(const struct campaign_opts *o, const char *who,
		     struct campaign *c)
{
	struct vm_machine m = o->vmo;

	if (!o->vm) {
		const struct vm_shape *s = &o->vmo.shape;

		if (s->cpus || s->sockets || s->cores || s->threads || s->nodes ||
		    o->vmo.append)
			return error("%s: --cpus, --sockets, --cores, --threads, --numa and --append shape a VM: add --vm",
				     who);
		return 0;
	}
	if (o->hook || o->check)
		return error("%s: --hook and --check are for boots of the machine itself; with --vm the states are kernel images booted from here",
			     who);
	if (vm_shape_check(who, &m.shape) || !vm_qemu())
		return -1;
	c->vm = xmalloc(sizeof(*c->vm));
	*c->vm = vm_machine_dup(&m);
	return 0;
}

int campaign_kbuild_opts(const struct campaign_opts *o, const char *who,
			 struct campaign *c)
{
	struct vm_build b = { 0 };
	char real[PATH_MAX];
	json_t *items, *vars;

	vm_build_from(&o->kb, &b);
	if (!o->kb.config && !b.nitems && !b.nvars)
		return 0;
	if (!o->vm || (o->build && *o->build))
		return error("%s: --config, --configitem and --make are how schedlab builds a kernel tree's commits: with --vm%s",
			     who, o->build ? ", and without --build" : "");
	if (vm_build_check_args(who, &b))
		return -1;
	if (o->kb.config && !realpath(o->kb.config, real))
		return error_errno("%s: option --config: '%s'", who, o->kb.config);
	items = json_array();
	vars = json_array();
	for (size_t i = 0; i < b.nitems; i++)
		json_array_append_new(items, json_string(b.items[i]));
	for (size_t i = 0; i < b.nvars; i++)
		json_array_append_new(vars, json_string(b.vars[i]));
	c->kbuild = json_pack("{s:s*, s:o, s:o}", "config", o->kb.config ? real : NULL,
			      "items", items, "vars", vars);
	return 0;
}
