// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/machine.c: the codec of a VM's machine (struct vm_machine, vm/vm.h)
 * - to and from the JSON a campaign keeps in its document, and to the
 * options of `vm run`, which its table (cmd/setup.h's OPT_VM_MACHINE)
 * reads back into the same struct in the child. A field added to the
 * machine is added here, in both directions, and to that table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "vm/vm.h"

static int name_index(const char *const *names, const char *name)
{
	for (int i = 0; name && names[i]; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

int vm_accel_of(const char *name, enum vm_accel *a)
{
	int i = name_index(vm_accel_names, name);

	if (i < 0)
		return -1;
	*a = (enum vm_accel)i;
	return 0;
}

int vm_root_of(const char *name, enum vm_root_kind *r)
{
	int i = name_index(vm_root_names, name);

	if (i < 0)
		return -1;
	*r = (enum vm_root_kind)i;
	return 0;
}

json_t *vm_machine_json(const struct vm_machine *m)
{
	const struct vm_shape *s = &m->shape;

	return json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:s*}",
			 "cpus", (json_int_t)s->cpus, "sockets", (json_int_t)s->sockets,
			 "cores", (json_int_t)s->cores, "threads", (json_int_t)s->threads,
			 "numa_nodes", (json_int_t)s->nodes,
			 "memory_mb", (json_int_t)s->memory_mb,
			 "timeout_s", (json_int_t)m->timeout_s,
			 "accel", vm_accel_names[m->accel],
			 "root", vm_root_names[m->root], "append", m->append);
}

int vm_machine_from_json(const json_t *o, struct vm_machine *m)
{
	json_int_t n[7];
	const char *accel, *append = NULL, *root = "minimal";

	memset(m, 0, sizeof(*m));
	if (json_unpack((json_t *)o, "{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:s, s?s, s?s}",
			"cpus", &n[0], "sockets", &n[1], "cores", &n[2],
			"threads", &n[3], "numa_nodes", &n[4], "memory_mb", &n[5],
			"timeout_s", &n[6], "accel", &accel, "root", &root,
			"append", &append))
		return -1;
	for (int i = 0; i < 7; i++)
		if (n[i] < 0 || n[i] > 10000000)
			return -1;
	if (vm_accel_of(accel, &m->accel) || vm_root_of(root, &m->root))
		return -1;
	m->shape = (struct vm_shape){
		.cpus = (unsigned)n[0], .sockets = (unsigned)n[1],
		.cores = (unsigned)n[2], .threads = (unsigned)n[3],
		.nodes = (unsigned)n[4], .memory_mb = (unsigned)n[5],
	};
	m->timeout_s = (unsigned)n[6];
	m->append = append ? xstrdup(append) : NULL;
	return 0;
}

void vm_argv_push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

void vm_machine_argv(const struct vm_machine *m, const char *more,
		     char ***argv, size_t *n)
{
	const struct vm_shape *s = &m->shape;

	vm_argv_push(argv, n, xasprintf("--cpus=%u", s->cpus));
	vm_argv_push(argv, n, xasprintf("--sockets=%u", s->sockets));
	vm_argv_push(argv, n, xasprintf("--cores=%u", s->cores));
	vm_argv_push(argv, n, xasprintf("--threads=%u", s->threads));
	if (s->nodes)
		vm_argv_push(argv, n, xasprintf("--numa=%u", s->nodes));
	vm_argv_push(argv, n, xasprintf("--memory=%u", s->memory_mb));
	vm_argv_push(argv, n, xasprintf("--timeout=%u", m->timeout_s));
	vm_argv_push(argv, n, xasprintf("--accel=%s", vm_accel_names[m->accel]));
	vm_argv_push(argv, n, xasprintf("--root=%s", vm_root_names[m->root]));
	if (m->append || (more && *more))
		vm_argv_push(argv, n, xasprintf("--append=%s %s", m->append ? m->append : "",
					more ? more : ""));
}

struct vm_machine vm_machine_dup(const struct vm_machine *m)
{
	struct vm_machine d = *m;

	d.append = m->append ? xstrdup(m->append) : NULL;
	return d;
}

void vm_machine_free(struct vm_machine *m)
{
	free((char *)m->append);
	m->append = NULL;
}
