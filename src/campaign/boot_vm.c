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

json_t *campaign_vm_json(const struct camp_vm *v)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:s*}",
			 "cpus", (json_int_t)v->cpus, "sockets", (json_int_t)v->sockets,
			 "cores", (json_int_t)v->cores, "threads", (json_int_t)v->threads,
			 "numa_nodes", (json_int_t)v->nodes,
			 "memory_mb", (json_int_t)v->memory_mb,
			 "timeout_s", (json_int_t)v->timeout_s, "accel", v->accel,
			 "root", v->root, "append", v->append);
}

int campaign_vm_from_json(const json_t *o, struct campaign *c)
{
	json_int_t n[7];
	const char *accel, *append = NULL, *root = "minimal";
	struct camp_vm *v;

	if (!o)
		return 0;
	if (json_unpack((json_t *)o, "{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:s, s?s, s?s}",
			"cpus", &n[0], "sockets", &n[1], "cores", &n[2],
			"threads", &n[3], "numa_nodes", &n[4], "memory_mb", &n[5],
			"timeout_s", &n[6], "accel", &accel, "root", &root,
			"append", &append))
		return -1;
	for (int i = 0; i < 7; i++)
		if (n[i] < 0 || n[i] > 10000000)
			return -1;
	v = c->vm = xcalloc(1, sizeof(*v));
	v->cpus = (unsigned)n[0];
	v->sockets = (unsigned)n[1];
	v->cores = (unsigned)n[2];
	v->threads = (unsigned)n[3];
	v->nodes = (unsigned)n[4];
	v->memory_mb = (unsigned)n[5];
	v->timeout_s = (unsigned)n[6];
	v->accel = xstrdup(accel);
	v->root = xstrdup(root);
	v->append = append ? xstrdup(append) : NULL;
	return 0;
}

void campaign_vm_free(struct campaign *c)
{
	if (!c->vm)
		return;
	free(c->vm->accel);
	free(c->vm->root);
	free(c->vm->append);
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
	const char *keys[2] = { "accel", "root" };
	char **field[2];
	json_t *vm;
	struct run r;
	int64_t id;

	if (!c->vm || (strcmp(c->vm->accel, "auto") && strcmp(c->vm->root, "auto")) ||
	    store_find_uuid(st, c->boots[k].uuid, &id) != 1 || store_load(st, id, &r))
		return;
	field[0] = &c->vm->accel;
	field[1] = &c->vm->root;
	vm = json_object_get(json_object_get(json_object_get(r.environment, "machine"),
					     "vm"), "value");
	for (int i = 0; i < 2; i++) {
		json_t *had = json_object_get(vm, keys[i]);

		if (strcmp(*field[i], "auto") || !json_is_string(had))
			continue;
		free(*field[i]);
		*field[i] = xstrdup(json_string_value(had));
		printf("campaign %s: boot %zu had %s %s: every boot of this campaign will (no comparison mixes them)\n",
		       c->name, k + 1, keys[i], *field[i]);
	}
	run_free(&r);
}

void campaign_vm_kernel_said(const struct campaign *c, struct store *st,
			     unsigned s)
{
	json_t *seen = json_array();

	for (size_t k = 0; c->vm && k < c->nboots; k++) {
		json_t *said;
		struct run r;
		int64_t id;

		if (c->boots[k].state != s || !*c->boots[k].uuid ||
		    store_find_uuid(st, c->boots[k].uuid, &id) != 1 || store_load(st, id, &r))
			continue;
		said = json_object_get(json_object_get(json_object_get(json_object_get(
			r.environment, "machine"), "vm"), "value"), "kernel_said");
		for (size_t i = 0; i < json_array_size(said); i++) {
			json_t *line = json_array_get(said, i);
			bool dup = false;

			for (size_t j = 0; j < json_array_size(seen) && !dup; j++)
				dup = json_equal(json_array_get(seen, j), line);
			if (!dup) {
				json_array_append(seen, line);
				printf("    its kernel said of its command line: %s\n",
				       json_string_value(line));
			}
		}
		run_free(&r);
	}
	json_decref(seen);
}

static void push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

char **campaign_vm_argv(const struct campaign *c, const char *db, size_t k,
			const char *label)
{
	const struct camp_vm *v = c->vm;
	const struct camp_boot *b = &c->boots[k];
	const struct camp_state *s = &c->states[b->state];
	char *kernel = campaign_vm_kernel(c, b->state), **argv = NULL;
	char *commit_append = NULL;
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
	push(&argv, &n, xstrdup("schedlab"));
	push(&argv, &n, xstrdup("vm"));
	push(&argv, &n, xstrdup("run"));
	push(&argv, &n, kernel);
	push(&argv, &n, xstrdup(c->job));
	push(&argv, &n, xstrdup("--db"));
	push(&argv, &n, xstrdup(db));
	push(&argv, &n, xstrdup("--uuid"));
	push(&argv, &n, xstrdup(b->uuid));
	push(&argv, &n, xstrdup("--label"));
	push(&argv, &n, xstrdup(label));
	push(&argv, &n, xasprintf("--cpus=%u", v->cpus));
	push(&argv, &n, xasprintf("--sockets=%u", v->sockets));
	push(&argv, &n, xasprintf("--cores=%u", v->cores));
	push(&argv, &n, xasprintf("--threads=%u", v->threads));
	if (v->nodes)
		push(&argv, &n, xasprintf("--numa=%u", v->nodes));
	push(&argv, &n, xasprintf("--memory=%u", v->memory_mb));
	push(&argv, &n, xasprintf("--timeout=%u", v->timeout_s));
	push(&argv, &n, xasprintf("--accel=%s", v->accel));
	push(&argv, &n, xasprintf("--root=%s", v->root));
	if (v->append || s->append || commit_append)
		push(&argv, &n, xasprintf("--append=%s %s %s", v->append ? v->append : "",
					  s->append ? s->append : "",
					  commit_append ? commit_append : ""));
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

void campaign_vm_state_build(const struct camp_state *s)
{
	if (!s->build_s && !s->tree)
		return;
	printf("    ");
	if (s->tree)
		printf("tree %s@%s: ", s->tree, s->rev);
	printf("commit %.12s, its kernel built in %.0f s\n", s->commit ? s->commit : "?",
	       s->build_s);
}
