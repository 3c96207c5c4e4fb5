// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/boot_vm.c: campaigns whose boots are VMs. The host drives them: a
 * boot is one child `schedlab vm run KERNEL JOB --uuid U` (vm/run.c),
 * which stores the run as the campaign's run of that boot, so the boot
 * protocol of boot.c holds unchanged - the run's uuid is written before
 * it starts and looked up after, a process killed anywhere resumes
 * without losing or doubling a run - and there is no hook to call: the
 * "hook" of a VM boot is choosing its kernel image and command line.
 * A bisect's commit is booted from the image its build command left at
 * $SCHEDLAB_IMAGE (IMAGES/CAMPAIGN/COMMIT.bzImage in the VM cache), with
 * what the build wrote to $SCHEDLAB_IMAGE.append, if anything, added to
 * its command line (a commit that changes a boot parameter).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "model/run.h"
#include "store/store.h"
#include "util.h"
#include "vm/vm.h"

int campaign_vm_from_json(const json_t *o, struct campaign *c)
{
	struct vm_machine m;

	if (!o)
		return 0;
	if (vm_machine_from_json(o, &m))
		return -1;
	c->vm = xmalloc(sizeof(*c->vm));
	*c->vm = m;
	return 0;
}

void campaign_vm_free(struct campaign *c)
{
	if (!c->vm)
		return;
	vm_machine_free(c->vm);
	free(c->vm);
	c->vm = NULL;
}

char *campaign_vm_kernel(const struct campaign *c, unsigned s)
{
	const char *cache;

	if (c->states[s].kernel)
		return xstrdup(c->states[s].kernel);
	if (!c->states[s].commit || !(cache = vm_cache_dir()))
		return NULL;
	return xasprintf("%s/images/%s/%s.bzImage", cache, c->name,
			 c->states[s].commit);
}

int campaign_vm_image_env(const struct campaign *c, unsigned s)
{
	char *img = campaign_vm_kernel(c, s), *slash, *bad;

	if (!img)
		return 2;
	slash = strrchr(img, '/');
	*slash = '\0';
	bad = mkdir_p(img, 0700);
	*slash = '/';
	if (bad) {
		error_errno("campaign %s: cannot make %s", c->name, bad);
		free(bad);
		free(img);
		return 2;
	}
	unlink(img);
	{
		char *app = xasprintf("%s.append", img);

		unlink(app);
		free(app);
	}
	setenv("SCHEDLAB_IMAGE", img, 1);
	free(img);
	return 0;
}

int campaign_vm_image_check(const struct campaign *c, unsigned s)
{
	char *img = campaign_vm_kernel(c, s);
	int rc = !img || vm_kernel_check("campaign bisect", img);

	if (rc)
		printf("campaign %s: the build of %s left no bootable image at $SCHEDLAB_IMAGE (%s)\n",
		       c->name, c->states[s].commit, img ? img : "?");
	free(img);
	return rc;
}

void campaign_vm_settle(struct campaign *c, struct store *st, size_t k)
{
	json_t *vm;
	const char *had;
	struct run r;
	int64_t id;

	if (!c->vm || (c->vm->accel != VM_ACCEL_AUTO && c->vm->root != VM_ROOT_AUTO) ||
	    store_find_uuid(st, c->boots[k].uuid, &id) != 1 || store_load(st, id, &r))
		return;
	vm = json_object_get(json_object_get(json_object_get(r.environment, "machine"),
					     "vm"), "value");
	had = json_string_value(json_object_get(vm, "accel"));
	if (c->vm->accel == VM_ACCEL_AUTO && !vm_accel_of(had, &c->vm->accel) &&
	    c->vm->accel != VM_ACCEL_AUTO)
		printf("campaign %s: boot %zu had accel %s: every boot of this campaign will (no comparison mixes them)\n",
		       c->name, k + 1, had);
	had = json_string_value(json_object_get(vm, "root"));
	if (c->vm->root == VM_ROOT_AUTO && !vm_root_of(had, &c->vm->root) &&
	    c->vm->root != VM_ROOT_AUTO)
		printf("campaign %s: boot %zu had root %s: every boot of this campaign will (no comparison mixes them)\n",
		       c->name, k + 1, had);
	run_free(&r);
}

char **campaign_vm_argv(const struct campaign *c, const char *db, size_t k,
			const char *label)
{
	const struct camp_boot *b = &c->boots[k];
	const struct camp_state *s = &c->states[b->state];
	char *kernel = campaign_vm_kernel(c, b->state), **argv = NULL;
	char *commit_append = NULL, *more = NULL;
	size_t n = 0;

	if (!kernel)
		return NULL;
	/* a bisect commit's command line: what its build left beside the image */
	if (!s->kernel && s->commit) {
		char *p = xasprintf("%s.append", kernel);
		FILE *f = fopen(p, "re");
		char line[1024];

		if (f && fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			if (*line)
				commit_append = xstrdup(line);
		}
		if (f)
			fclose(f);
		free(p);
	}
	vm_argv_push(&argv, &n, xstrdup("schedlab"));
	vm_argv_push(&argv, &n, xstrdup("vm"));
	vm_argv_push(&argv, &n, xstrdup("run"));
	vm_argv_push(&argv, &n, kernel);
	vm_argv_push(&argv, &n, xstrdup(c->job));
	vm_argv_push(&argv, &n, xstrdup("--db"));
	vm_argv_push(&argv, &n, xstrdup(db));
	vm_argv_push(&argv, &n, xstrdup("--uuid"));
	vm_argv_push(&argv, &n, xstrdup(b->uuid));
	vm_argv_push(&argv, &n, xstrdup("--label"));
	vm_argv_push(&argv, &n, xstrdup(label));
	/* the campaign's, then the state's and the commit's additions */
	if (s->append || commit_append)
		more = xasprintf("%s %s", s->append ? s->append : "",
				 commit_append ? commit_append : "");
	vm_machine_argv(c->vm, more, &argv, &n);
	free(more);
	free(commit_append);
	return argv;
}

void campaign_vm_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* c->kbuild's texts as vm_build() takes them: arrays of b's (free()). */
static void kbuild_of(const struct campaign *c, struct vm_build *b)
{
	json_t *items = json_object_get(c->kbuild, "items");
	json_t *vars = json_object_get(c->kbuild, "vars");
	const char **v;

	b->config = json_string_value(json_object_get(c->kbuild, "config"));
	v = xcalloc(json_array_size(items) + 1, sizeof(*v));
	for (size_t i = 0; i < json_array_size(items); i++)
		if (json_string_value(json_array_get(items, i)))
			v[b->nitems++] = json_string_value(json_array_get(items, i));
	b->items = v;
	v = xcalloc(json_array_size(vars) + 1, sizeof(*v));
	for (size_t i = 0; i < json_array_size(vars); i++)
		if (json_string_value(json_array_get(vars, i)))
			v[b->nvars++] = json_string_value(json_array_get(vars, i));
	b->vars = v;
}

int campaign_vm_build(struct campaign *c, unsigned s, const char *tree,
		      const char *rev)
{
	struct camp_state *x = &c->states[s];
	struct vm_build b = { .tree = tree, .rev = x->commit ? x->commit : rev };
	struct vm_built out;
	char who[128];
	int rc;

	kbuild_of(c, &b);
	snprintf(who, sizeof(who), "campaign %s: state %s", c->name, x->name);
	rc = vm_build(who, &b, &out);
	free((void *)b.items);
	free((void *)b.vars);
	if (rc)
		return rc;
	free(x->kernel);
	x->kernel = out.image;
	out.image = NULL;
	if (!x->commit)
		x->commit = xstrdup(out.commit);
	x->build_s = out.build_s;
	printf("campaign %s: state %s is %.12s (%s), %s in %.0f s: %s\n", c->name, x->name,
	       out.commit, out.subject, out.cached ? "built before" : "built", out.build_s,
	       x->kernel);
	vm_built_free(&out);
	return 0;
}
