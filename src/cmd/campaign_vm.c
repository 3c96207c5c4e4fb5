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
	struct vm_opts v;
	struct camp_vm *cv;

	if (!o->vm) {
		const struct vm_cmd_shape *m = &o->vmo;

		if (m->cpus || m->sockets || m->cores || m->threads || m->numa || m->append)
			return error("%s: --cpus, --sockets, --cores, --threads, --numa and --append shape a VM: add --vm",
				     who);
		return 0;
	}
	if (o->hook || o->check)
		return error("%s: --hook and --check are for boots of the machine itself; with --vm the states are kernel images booted from here",
			     who);
	if (vm_shape_from(who, &o->vmo, &v) || !vm_qemu())
		return -1;
	cv = c->vm = xcalloc(1, sizeof(*cv));
	cv->cpus = v.shape.cpus;
	cv->sockets = v.shape.sockets;
	cv->cores = v.shape.cores;
	cv->threads = v.shape.threads;
	cv->nodes = v.shape.nodes;
	cv->memory_mb = v.shape.memory_mb;
	cv->timeout_s = v.timeout_s;
	cv->accel = xstrdup(vm_accel_names[v.accel]);
	cv->root = xstrdup(vm_root_names[v.root]);
	cv->append = o->vmo.append ? xstrdup(o->vmo.append) : NULL;
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
