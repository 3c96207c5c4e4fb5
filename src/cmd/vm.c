// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab vm run KERNEL JOBFILE|SUITE: a job on a kernel image, in qemu
 * (src/vm/); schedlab vm root: the guest root it would boot, for qemu
 * command lines of one's own; schedlab vm build TREE [COMMIT]: a kernel
 * image for it from a commit of a kernel tree (vm/build.c); vm config
 * and check-config: the configuration the guest needs. This file
 * parses and calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "harness/plan.h"
#include "store/load.h"
#include "options.h"
#include "util.h"
#include "vm/vm.h"

struct vm_cmd_opts {
	struct vm_machine m;
	const char *db, *label, *uuid, *iterations;
	struct opt_list with, sets;
	bool quiet, help;
};

/* --help: its text before the options, and after them */
static const struct cmd_help vm_help = {
	.head = "usage: schedlab vm run KERNEL JOBFILE|SUITE [OPTIONS]\n"
		"       schedlab vm root [JOBFILE|SUITE] [--with PATH]...\n"
		"       schedlab vm build TREE [COMMIT] [--config FILE] [--configitem CONFIG_X=V]...\n"
		"       schedlab vm config\n"
		"       schedlab vm check-config KCONFIG\n\n"
		"run: boots the kernel image (a bzImage) in qemu, runs the job there and\n"
		"stores the run here, as if run here, with the guest's kernel, command line\n"
		"and CPUs as its machine and 'vm' (kvm or tcg, the root, the shape) beside\n"
		"them. The guest sees this host's own system (--root host, as root: / shared\n"
		"read-only by virtiofsd under an overlay it writes to, a tmpfs or a disk\n"
		"sized from the job; the kernel needs virtiofs, fuse and overlay, built in or\n"
		"in modules/ beside the image), else a minimal root made from this host's\n"
		"files (busybox, schedlab, the job's programs and their libraries; cached by\n"
		"content). Its host is this host's name with -kvm or -tcg. The console is\n"
		"kept in the cache (console/UUID.log); a guest that panics, hangs or runs\n"
		"past --timeout is an error with the console's last lines, and nothing is\n"
		"left running.\n"
		"root: builds the guest root and prints its path (a newc cpio archive; its\n"
		"init reads /run.env, which 'vm run' adds).\n"
		"build: see 'schedlab vm build --help'.\n"
		"config: prints the kernel configuration the guest needs, a fragment for\n"
		"scripts/kconfig/merge_config.sh over tinyconfig and kvm_guest.config.\n"
		"check-config: says which of it a kernel's .config lacks and what each\n"
		"missing option costs (exit 0 none, 1 some, 2 not a configuration).\n\n"
		"Options:\n",
	.tail = "\nThe cache: $SCHEDLAB_VM_CACHE, else $XDG_CACHE_HOME/schedlab/vm, else\n"
		"~/.cache/schedlab/vm.\n"
		"Exit status: 0 stored complete, 1 the run failed or did not come back,\n"
		"2 bad input, 130 interrupted.\n",
};

#define O(f) offsetof(struct vm_cmd_opts, f)
static const struct opt_def vm_options[] = {
	OPT_VM_MACHINE(struct vm_cmd_opts, m),
	{ .name = "with", .type = OPT_LIST, .offset = O(with), .arg = "PATH",
	  .help = "a host program or file the guest needs too, at the same path (its libraries come with it); repeatable" },
	{ .name = "label", .type = OPT_STRING, .offset = O(label), .arg = "LABEL",
	  .help = "the run's label (default: the kernel image's file name)" },
	{ .name = "uuid", .type = OPT_STRING, .offset = O(uuid), .arg = "UUID",
	  .help = "the run's uuid (default: a new one); campaigns give theirs" },
	OPT_ITERATIONS(struct vm_cmd_opts, iterations),
	OPT_SET(struct vm_cmd_opts, sets),
	OPT_DB(struct vm_cmd_opts, db),
	{ .name = "quiet", .type = OPT_BOOL, .offset = O(quiet), .short_flag = 'q',
	  .help = "no lines but errors (and the warning that a guest runs under TCG)" },
	OPT_HELP(struct vm_cmd_opts, help),
	{ .name = NULL },
};
#undef O

static int vm_opts_from(const char *who, const struct vm_cmd_opts *c,
			struct vm_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->m = c->m;
	if (vm_shape_check(who, &o->m.shape))
		return -1;
	o->with = c->with.v;
	o->nwith = c->with.n;
	o->quiet = c->quiet;
	return 0;
}

static int vm_cmd_run(const struct vm_cmd_opts *c, const char *db, int nops,
		      char **ops)
{
	struct vm_opts o;
	struct vm_job j = { 0 };
	unsigned it;

	if (nops != 2) {
		error("vm run: expected a KERNEL image and a JOBFILE or SUITE (usage: schedlab vm run KERNEL JOBFILE [OPTIONS])");
		return EXIT_USAGE;
	}
	if (vm_opts_from("vm run", c, &o))
		return EXIT_USAGE;
	if (c->iterations && strcmp(c->iterations, "auto") &&
	    (plan_parse_iterations(c->iterations, &it) || !it)) {
		error("vm run: option --iterations: expected a whole number in 1..10000 or auto, got '%s'",
		      c->iterations);
		return EXIT_USAGE;
	}
	if (c->uuid && !uuid_valid(c->uuid)) {
		error("vm run: option --uuid: '%s' is not a uuid (8-4-4-4-12 lowercase hex digits)",
		      c->uuid);
		return EXIT_USAGE;
	}
	if (c->label && !*c->label) {
		error("vm run: option --label: expected a non-empty label");
		return EXIT_USAGE;
	}
	o.kernel = ops[0];
	j.spec = ops[1];
	j.sets = c->sets.v;
	j.nsets = c->sets.n;
	j.iterations = c->iterations;
	j.uuid = c->uuid;
	j.label = c->label;
	return vm_run(&j, &o, db);
}

static int vm_cmd_root(const struct vm_cmd_opts *c, int nops, char **ops)
{
	struct vm_opts o;
	struct plan p;
	char *root;

	if (nops > 1) {
		error("vm root: expected at most one JOBFILE or SUITE, whose programs the root holds");
		return EXIT_USAGE;
	}
	if (vm_opts_from("vm root", c, &o))
		return EXIT_USAGE;
	if (nops && plan_load_spec(ops[0], NULL, 0, &p))
		return EXIT_USAGE;
	root = vm_root(nops ? &p : NULL, &o);
	if (nops)
		plan_free(&p);
	if (!root)
		return EXIT_RUN_FAILED;
	printf("%s\n", root);
	free(root);
	return EXIT_OK;
}

struct vm_build_cmd_opts {
	struct vm_cmd_kbuild k;
	bool quiet, help;
};

static const struct cmd_help vm_build_help = {
	.head = "usage: schedlab vm build TREE [COMMIT] [OPTIONS]\n\n"
		"Builds a kernel image (bzImage) for 'vm run' and campaigns in VMs from COMMIT\n"
		"(default HEAD) of the git repository TREE, and prints its path. TREE's\n"
		"checkout, index and branches are never touched: the cache holds a clone of\n"
		"its own for each tree (git clone --shared) and one build folder (make O=)\n"
		"reused from commit to commit, so that a commit after the last rebuilds only\n"
		"what it changed (ccache, where installed, keeps the rest). The configuration:\n"
		"tinyconfig (or --config), kvm_guest.config, the options the guest needs\n"
		"('schedlab vm config', for the tree's version), --configitem; asked-for\n"
		"options the result dropped are said. The image is cached by commit,\n"
		"configuration, compiler version and make variables: nothing is built twice.\n"
		"Its release names the commit (LOCALVERSION=-gCOMMIT12), so every run says\n"
		"which commit booted. Uncommitted changes are not built; a commit of them\n"
		"that leaves the checkout as it is: schedlab vm build TREE $(git -C TREE stash create).\n"
		"The kernel's own lines go to a log (a failed build prints its last lines and\n"
		"its path); a terminal sees a line of what is built and for how long. Here\n"
		"(2 CPUs) a first build of 6.1 took 4.5 to 7.5 minutes, a one-file change about 20 s.\n\n"
		"Options:\n",
	.tail = "\nExit status: 0 built (or found built), 1 the build failed, 2 bad input (not\n"
		"a kernel tree, no such commit, a tool missing: its Debian package named),\n"
		"130 interrupted (make and its compilers stopped, nothing cached).\n",
};

#define O(f) offsetof(struct vm_build_cmd_opts, f)
static const struct opt_def vm_build_options[] = {
	OPT_KBUILD(struct vm_build_cmd_opts, k),
	{ .name = "quiet", .type = OPT_BOOL, .offset = O(quiet), .short_flag = 'q',
	  .help = "no lines but errors and the image's path" },
	OPT_HELP(struct vm_build_cmd_opts, help),
	{ .name = NULL },
};
#undef O

void vm_build_from(const struct vm_cmd_kbuild *k, struct vm_build *b)
{
	b->config = k->config;
	b->items = k->items.v;
	b->nitems = k->items.n;
	b->vars = k->vars.v;
	b->nvars = k->vars.n;
}

static int vm_cmd_build(int argc, char **argv)
{
	struct vm_build_cmd_opts c;
	struct cmd_args a = { CMD_ARGS(vm_build_options, c), .help = &vm_build_help,
			      .who = "vm build" };
	struct vm_build b = { 0 };
	struct vm_built out;
	int first, rc, n;

	first = cmd_parse(argc, argv, &a, &rc);
	if (first < 0)
		return rc;
	n = argc - first;
	if (n < 1 || n > 2) {
		error("vm build: expected a kernel TREE and at most one COMMIT (usage: schedlab vm build TREE [COMMIT])");
		return EXIT_USAGE;
	}
	vm_build_from(&c.k, &b);
	b.tree = argv[first];
	b.rev = n == 2 ? argv[first + 1] : NULL;
	b.quiet = c.quiet;
	rc = vm_build("vm build", &b, &out);
	if (rc)
		return rc;
	if (out.cached && !c.quiet)
		fprintf(stderr, "vm build: %.12s (%s) was built before (in %.0f s)\n",
			out.commit, out.subject, out.build_s);
	printf("%s\n", out.image);
	vm_built_free(&out);
	return EXIT_OK;
}

int cmd_vm(int argc, char **argv)
{
	struct vm_cmd_opts c;
	struct cmd_args a = { CMD_ARGS(vm_options, c), .help = &vm_help };
	int first, rc;

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		cmd_usage(stdout, &a);
		return EXIT_OK;
	}
	if (argc >= 2 && !strcmp(argv[1], "config")) {
		if (argc > 2) {
			error("vm config: expected no operand, got '%s'", argv[2]);
			return EXIT_USAGE;
		}
		vm_config_fragment(stdout, 0);
		return EXIT_OK;
	}
	if (argc >= 2 && !strcmp(argv[1], "build"))
		return vm_cmd_build(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "check-config")) {
		if (argc != 3) {
			error("vm check-config: expected one kernel configuration file (usage: schedlab vm check-config .config)");
			return EXIT_USAGE;
		}
		return vm_config_check(argv[2]);
	}
	if (argc < 2 || (strcmp(argv[1], "run") && strcmp(argv[1], "root"))) {
		error("vm: expected 'run', 'root', 'build', 'config' or 'check-config'%s%s%s (see 'schedlab vm --help')",
		      argc >= 2 ? ", got '" : "", argc >= 2 ? argv[1] : "",
		      argc >= 2 ? "'" : "");
		return EXIT_USAGE;
	}
	a.who = !strcmp(argv[1], "run") ? "vm run" : "vm root";
	first = cmd_parse(argc - 1, argv + 1, &a, &rc);
	if (first < 0)
		return rc;
	first++;
	if (!strcmp(argv[1], "run"))
		return vm_cmd_run(&c, a.db, argc - first, argv + first);
	return vm_cmd_root(&c, argc - first, argv + first);
}
