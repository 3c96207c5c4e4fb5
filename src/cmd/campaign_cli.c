// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab campaign: A/B of states that need a reboot, one state a boot
 * (campaign/campaign.h owns the engine; this file its options).
 *
 *   campaign start NAME JOBFILE --state A[:CHECK] --state B[:CHECK]
 *            --hook CMD [--max-boots N] [--design pairs|blocks] ...
 *   campaign bisect NAME JOBFILE --repo DIR --good C --bad C --build CMD
 *            --hook CMD [--check CMD] ...   a kernel bisect (campaign_bisect.c)
 *   campaign resume [NAME]      at boot (tools/schedlab-campaign.service)
 *   campaign status [NAME]      where each campaign stands, its verdict
 *   campaign abort NAME         stop it; resume then does nothing
 */
#include <limits.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "cmd/campaign_cli.h"
#include "cmd/cmd.h"
#include "cmd/setup.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"
#include "vm/vm.h"


#define O(f) offsetof(struct campaign_opts, f)
static const struct opt_def campaign_options[] = {
	{ .name = "state", .type = OPT_LIST, .offset = O(states), .arg = "NAME[:CHECK]",
	  .help = "start: a state of the A/B, 2 to 16 of them, the first the baseline; CHECK, a shell command that exits 0 when the machine is in it (e.g. test \"$(uname -r)\" = 6.9.0-a); with --vm, NAME:KERNEL [ARGS] - a kernel image, or TREE@COMMIT, a commit of a kernel tree schedlab builds (vm build) - and what its command line adds" },
	{ .name = "vm", .type = OPT_BOOL, .offset = O(vm),
	  .help = "start, bisect: each boot a VM (qemu) of the state's kernel, driven from here; no hook (bisect: each commit built by schedlab as vm build does, or by --build, which leaves the image at $SCHEDLAB_IMAGE)" },
	OPT_VM_MACHINE(struct campaign_opts, vmo),
	OPT_KBUILD(struct campaign_opts, kb),
	{ .name = "hook", .type = OPT_STRING, .offset = O(hook), .arg = "CMD",
	  .help = "start, bisect: the shell command that moves the machine to $SCHEDLAB_STATE (e.g. grub-reboot \"$SCHEDLAB_STATE\" && reboot; bisect: to the kernel of $SCHEDLAB_COMMIT)" },
	{ .name = "max-boots", .type = OPT_UINT, .offset = O(max_boots),
	  .min = 2, .max = 1000, .arg = "N",
	  .help = "start: the most boots, the verdict given then, inconclusive or not (default: the planner's count from this host's noise model of the job, the boots that detect --threshold or rule it out; 20 without a model); bisect: default the most its plan allows, each step at its most rounds, planned again as the noise is measured (500 until then), then it stops" },
	{ .name = "repo", .type = OPT_STRING, .offset = O(repo), .arg = "DIR",
	  .help = "bisect: the git repository to bisect (the kernel's tree)" },
	{ .name = "good", .type = OPT_STRING, .offset = O(good), .arg = "COMMIT",
	  .help = "bisect: a commit without the regression, an ancestor of --bad" },
	{ .name = "bad", .type = OPT_STRING, .offset = O(bad), .arg = "COMMIT",
	  .help = "bisect: a commit with it" },
	{ .name = "build", .type = OPT_STRING, .offset = O(build), .arg = "CMD",
	  .help = "bisect: the shell command that builds and installs $SCHEDLAB_COMMIT, run in --repo with it checked out, once a commit (e.g. make -j8 && make modules_install install); a failure skips the commit" },
	{ .name = "check", .type = OPT_STRING, .offset = O(check), .arg = "CMD",
	  .help = "bisect: a shell command that exits 0 when the machine runs $SCHEDLAB_COMMIT's kernel (e.g. grep -q \"${SCHEDLAB_COMMIT:0:12}\" /proc/version)" },
	{ .name = "max-step-boots", .type = OPT_UINT, .offset = O(max_step),
	  .min = 2, .max = 200, .arg = "N",
	  .help = "bisect: a step's most rounds of 3 boots before the commit is skipped (default: 6 times the rounds the planner expects from the noise measured, 12 at least, never lowered while the step runs; the first step's counted from the gate)" },
	{ .name = "max-ref-boots", .type = OPT_UINT, .offset = O(max_refs),
	  .min = 5, .max = 100, .arg = "N",
	  .help = "bisect: rounds, at most, for good and bad to differ (default: twice the rounds a --threshold distance takes at the noise measured, 12 at least)" },
	{ .name = "design", .type = OPT_ENUM, .offset = O(design), .def = "pairs",
	  .choices = camp_design_names, .arg = "DESIGN",
	  .help = "start: pairs, each round every state once in a shuffled order; blocks, each state --block times in a row" },
	{ .name = "block", .type = OPT_UINT, .offset = O(block), .def = "2",
	  .min = 1, .max = 100, .arg = "N", .help = "start: boots of a state in a row with --design blocks" },
	{ .name = "deadline", .type = OPT_DURATION, .offset = O(deadline), .def = "1h",
	  .min = 0, .max = 7 * 86400, .arg = "DURATION",
	  .help = "start: a boot not back this long after its hook is lost (0: none)" },
	{ .name = "threshold", .type = OPT_STRING, .offset = O(threshold), .def = "5",
	  .arg = "PCT", .help = "start: the smallest change that matters, in percent (0..1000)" },
	{ .name = "seed", .type = OPT_UINT, .offset = O(seed), .min = 0, .max = UINT_MAX,
	  .arg = "N", .help = "start: of the boots' order (default: from the clock)" },
	OPT_FORMAT(struct campaign_opts, format, FMT(TEXT) | FMT(JSON), "text",
		   "status: text or json (the stored state, schema " CAMPAIGN_SCHEMA ")"),
	OPT_DB(struct campaign_opts, db),
	{ .name = "help", .type = OPT_BOOL, .offset = O(help), .bare = "1",
	  .help = "show this help" },
	{ .name = NULL },
};
#undef O

static void campaign_usage(FILE *f)
{
	fprintf(f, "usage: schedlab campaign start NAME JOBFILE --state A[:CHECK] --state B[:CHECK] --hook CMD [OPTIONS]\n"
		"       schedlab campaign bisect NAME JOBFILE --repo DIR --good COMMIT --bad COMMIT\n"
		"                --build CMD --hook CMD [--check CMD] [OPTIONS]\n"
		"       schedlab campaign start NAME JOBFILE --vm --state A:TREE@COMMIT|KERNEL [ARGS]\n"
		"                --state B:TREE@COMMIT|KERNEL [ARGS] [OPTIONS]\n"
		"       schedlab campaign bisect NAME JOBFILE --vm --repo TREE --good COMMIT --bad COMMIT\n"
		"                [--build CMD] [OPTIONS]\n"
		"       schedlab campaign resume [NAME]\n"
		"       schedlab campaign status [NAME] [--format json]\n"
		"       schedlab campaign abort NAME\n\n"
		"A/B of states that need a reboot: each boot measures one state with the job\n"
		"(a run labelled NAME/STATE), the states alternating in shuffled rounds; after\n"
		"each round the states' runs are compared with the run as the unit (compare\n"
		"A+B C+D's test, its error rate shared by the looks), until every state is\n"
		"decided or --max-boots. The hook moves the machine to the next state; at boot\n"
		"'campaign resume' (tools/schedlab-campaign.service) checks the state, runs the\n"
		"job, decides and calls the hook again. The hook and checks get SCHEDLAB_CAMPAIGN,\n"
		"SCHEDLAB_STATE, SCHEDLAB_STATE_INDEX, SCHEDLAB_BOOT and SCHEDLAB_DB.\n\n"
		"bisect: git bisect driven across boots. The good and bad commits are the\n"
		"references; each step boots the commit git bisect chose, good and bad in\n"
		"shuffled rounds until a sequential test places it by good or by bad (each\n"
		"wrong call at most 2%%), the first step's rounds also telling good from bad;\n"
		"the rounds are planned from the noise measured and said as they change;\n"
		"resume itself runs git bisect good|bad|skip,\n"
		"builds the next commit (--build) and calls the hook. Build, hook and check also\n"
		"get SCHEDLAB_COMMIT and SCHEDLAB_REPO. The repository is left bisected: git\n"
		"bisect log shows every call, git bisect reset ends it.\n\n"
		"Options:\n");
	opts_help(f, campaign_options);
	fprintf(f, "\nExit status: 0 the campaign ended with its verdict (status: shown; bisect:\n"
		"the first bad commit, or only skipped commits left),\n"
		"1 it stopped without one (a boot lost, the job failed 3 times, its run killed\n"
		"10 times, the hook failed), 2 bad input (resume: the job file gone, a command\n"
		"file that does not match) or the database, 75 start and resume: the hook was\n"
		"called, a boot follows.\n");
}

/* A kernel that is TREE@REV (no file of that name, a folder before the
 * '@'): the tree (absolute) and the commit as named into s. 1 when it
 * is, 0 when not, -1 after error(). */
static int parse_tree_state(const char *arg, const char *kernel, struct camp_state *s)
{
	const char *at = strrchr(kernel, '@');
	char *dir, real[PATH_MAX];
	struct stat st;

	if (!stat(kernel, &st) && S_ISDIR(st.st_mode))
		return error("campaign start: --state '%s': %s is a folder: a commit of a kernel tree is TREE@COMMIT (%s@HEAD)",
			     arg, kernel, kernel);
	if (!at || !stat(kernel, &st))
		return 0;
	dir = strndup(kernel, (size_t)(at - kernel));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		free(dir);
		return 0;
	}
	if (!at[1] || !realpath(dir, real)) {
		free(dir);
		return error("campaign start: --state '%s': TREE@COMMIT names a commit after the '@'", arg);
	}
	free(dir);
	s->tree = xstrdup(real);
	s->rev = xstrdup(at + 1);
	return 1;
}

/* NAME:KERNEL [ARGS] into s (--vm); -1 after error(). */
static int parse_vm_state(const char *arg, struct camp_state *s)
{
	const char *colon = strchr(arg, ':'), *img, *sp;
	char *kernel;
	int tree;

	if (!colon || !colon[1])
		return error("campaign start: --state '%s': with --vm a state is NAME:KERNEL [ARGS] or NAME:TREE@COMMIT [ARGS], a kernel image or a commit of a kernel tree and what its command line adds",
			     arg);
	img = colon + 1;
	sp = strchr(img, ' ');
	kernel = sp ? strndup(img, (size_t)(sp - img)) : xstrdup(img);
	while (sp && *sp == ' ')
		sp++;
	s->append = sp && *sp ? xstrdup(sp) : NULL;
	tree = parse_tree_state(arg, kernel, s);
	if (tree) {
		free(kernel);
		return tree < 0 ? -1 : 0;
	}
	s->kernel = kernel;
	if (vm_kernel_check("campaign start", s->kernel))
		return -1;
	return 0;
}

/* NAME[:CHECK] into s; -1 after error(). */
static int parse_state(const char *arg, struct camp_state *s, bool vm)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);

	if (!len || len > 64 || strspn(arg, "abcdefghijklmnopqrstuvwxyz"
				       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") < len)
		return error("campaign start: --state '%s': a state's name is 1 to 64 letters, digits, '.', '_' or '-', then ':CHECK' if any",
			     arg);
	s->name = strndup(arg, len);
	if (vm)
		return parse_vm_state(arg, s);
	s->check = colon && colon[1] ? xstrdup(colon + 1) : NULL;
	return 0;
}

/* Whether the store has a campaign of c's name already. */
static bool name_taken(const struct campaign *c, const char *db)
{
	struct store *st;
	json_t *doc = NULL;
	int rc;

	if (store_missing(db) || !(st = store_open_ro(db)))
		return false;
	rc = store_campaign_get(st, c->name, &doc);
	json_decref(doc);
	store_close(st);
	return rc == 1;
}

/* Each state that is a tree's commit built (once: the cache's after):
 * 0, else vm_build()'s exit status. A name taken is said first, not
 * after minutes of building. */
static int build_states(struct campaign *c, const char *db)
{
	bool trees = false;

	for (size_t i = 0; i < c->nstates; i++)
		trees |= c->states[i].tree != NULL;
	if (trees && name_taken(c, db))
		return error("campaign start: a campaign '%s' exists in %s (campaign status %s)",
			     c->name, db, c->name), EXIT_USAGE;
	for (size_t i = 0; i < c->nstates; i++) {
		int rc = c->states[i].tree ?
			 campaign_vm_build(c, (unsigned)i, c->states[i].tree, c->states[i].rev) : 0;

		if (rc)
			return rc;
		if (c->states[i].tree && vm_kernel_check("campaign start", c->states[i].kernel))
			return EXIT_RUN_FAILED;
	}
	return 0;
}

static int start_check(const struct campaign_opts *o, int n, char **ops,
		       struct campaign *c)
{
	if (n != 2)
		return error("campaign start: expected NAME and JOBFILE (usage: schedlab campaign start NAME JOBFILE --state A --state B --hook CMD)");
	if (!*ops[0] || strlen(ops[0]) > 64 || strchr(ops[0], '/'))
		return error("campaign start: NAME '%s': 1 to 64 characters, no '/'", ops[0]);
	if (o->states.n < 2 || o->states.n > CAMPAIGN_MAX_STATES)
		return error("campaign start: --state: %zu given; a campaign compares 2 to %d states",
			     o->states.n, CAMPAIGN_MAX_STATES);
	if (campaign_vm_opts(o, "campaign start", c))
		return -1;
	if (!o->vm && (!o->hook || !*o->hook))
		return error("campaign start: --hook CMD is required: the command that moves the machine to $SCHEDLAB_STATE (or --vm, to boot kernel images in qemu from here)");
	c->states = xcalloc(o->states.n, sizeof(*c->states));
	for (size_t i = 0; i < o->states.n; i++, c->nstates++) {
		if (parse_state(o->states.v[i], &c->states[i], o->vm))
			return -1;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(c->states[j].name, c->states[i].name))
				return error("campaign start: --state '%s' is given twice",
					     c->states[i].name);
	}
	if (opt_parse_percent("campaign start", "threshold", o->threshold, 0, 1000, &c->threshold) ||
	    campaign_kbuild_opts(o, "campaign start", c))
		return -1;
	c->job = campaign_job_spec(ops[1]);
	return c->job ? 0 : -1;
}

static int cmd_start(const struct campaign_opts *o, const char *db, int n,
		     char **ops)
{
	struct campaign c;
	int rc = EXIT_USAGE;

	memset(&c, 0, sizeof(c));
	if (start_check(o, n, ops, &c))
		goto out;
	c.name = xstrdup(ops[0]);
	if ((rc = build_states(&c, db)))
		goto out;
	rc = EXIT_USAGE;
	c.hook = xstrdup(o->hook ? o->hook : "");
	c.max_boots = o->max_boots;	/* 0: the planner's, once the store is open */
	c.design = o->design == CAMP_BLOCKS ? CAMP_BLOCKS : CAMP_PAIRS;
	c.block = c.design == CAMP_BLOCKS ? (o->block ? o->block : 2) : 1;
	c.deadline_s = o->deadline;
	c.seed = o->seed ? o->seed : (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32;
	c.status = xstrdup("running");
	rc = campaign_create(&c, db, "campaign start", campaign_first_hook);
out:
	campaign_free(&c);
	return rc;
}

static int status(struct store *st, const char *name, enum out_format format)
{
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	if (name) {
		names = xcalloc(1, sizeof(*names));
		names[n++] = xstrdup(name);
	} else if (store_campaign_names(st, &names, &n)) {
		return EXIT_USAGE;
	} else if (!n) {
		fprintf(format == FMT_JSON ? stderr : stdout,
			"campaign: no campaigns in %s\n", store_path(st));
	}
	for (size_t i = 0; i < n && !rc; i++) {
		struct campaign c;
		json_t *doc;

		if (campaign_load(st, names[i], &c)) {
			rc = EXIT_USAGE;
			break;
		}
		if (format == FMT_JSON) {
			doc = campaign_to_json(&c);
			json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
			putchar('\n');
			json_decref(doc);
		} else {
			campaign_status_text(stdout, &c, st);
		}
		campaign_free(&c);
	}
	split_free(names, n);
	return rc;
}

static int dispatch(const char *sub, const struct campaign_opts *o,
		    const char *db, int n, char **ops)
{
	struct store *st;
	int rc;

	if (!strcmp(sub, "start") && (o->repo || o->good || o->bad || o->build || o->check ||
				      o->max_step || o->max_refs))
		return error("campaign start: --repo, --good, --bad, --build, --check, --max-step-boots and --max-ref-boots belong to campaign bisect"),
			EXIT_USAGE;
	if (!strcmp(sub, "start") && o->block && o->design != CAMP_BLOCKS)
		return error("campaign start: --block N is the boots of a state in a row with --design blocks; give both, or neither"),
			EXIT_USAGE;
	if (!strcmp(sub, "start"))
		return cmd_start(o, db, n, ops);
	if (!strcmp(sub, "bisect"))
		return campaign_bisect_start(o, db, n, ops);
	if (o->states.n || o->hook || o->repo || o->good || o->bad || o->build || o->check ||
	    o->design >= 0 || o->block || o->max_step || o->max_refs)
		return error("campaign %s: --state, --hook, --design, --block, --repo, --good, --bad, --build, --check and --max-*-boots belong to campaign start or bisect",
			     sub), EXIT_USAGE;
	if (o->vm || o->vmo.shape.cpus || o->vmo.shape.sockets || o->vmo.shape.cores ||
	    o->vmo.shape.threads || o->vmo.shape.nodes || o->vmo.append ||
	    o->vmo.accel != VM_ACCEL_AUTO || o->vmo.root != VM_ROOT_AUTO ||
	    o->vmo.shape.memory_mb != 1024 || o->vmo.timeout_s != 900)
		return error("campaign %s: --vm and the VM's options (--cpus, --memory, --accel, ...) belong to campaign start or bisect: a campaign keeps the VM it was started with",
			     sub), EXIT_USAGE;
	if (n > 1 || (!strcmp(sub, "abort") && n != 1))
		return error("campaign %s: expected %s", sub,
			     strcmp(sub, "abort") ? "at most one NAME" : "one NAME"),
			EXIT_USAGE;
	if (store_missing(db))
		return error("campaign %s: no database at %s (campaign start makes one)",
			     sub, db), EXIT_USAGE;
	st = !strcmp(sub, "status") ? store_open_ro(db) : store_open(db);
	if (!st)
		return EXIT_USAGE;
	if (!strcmp(sub, "resume")) {
		campaign_end_orphans();	/* before any build, hook or run */
		rc = n ? campaign_resume(st, db, ops[0]) :
			campaign_resume_all(st, db);
	}
	else if (!strcmp(sub, "status"))
		rc = status(st, n ? ops[0] : NULL, o->format);
	else
		rc = campaign_abort(st, ops[0]);
	store_close(st);
	return rc;
}

int cmd_campaign(int argc, char **argv)
{
	static const char *const subs[] = { "start", "bisect", "resume", "status", "abort" };
	struct campaign_opts o;
	struct opt_target t = { campaign_options, &o };
	char db[4096];
	int first;

	memset(&o, 0, sizeof(o));
	opts_defaults(campaign_options, &o);
	/* unset, so that a subcommand that does not take them can refuse
	 * them given; start and bisect apply the defaults the help shows */
	o.design = -1;
	o.block = 0;
	o.max_refs = 0;
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		campaign_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	for (size_t i = 0; i < ARRAY_SIZE(subs); i++) {
		if (strcmp(argv[1], subs[i]))
			continue;
		first = opts_parse_argv(&t, 1, argc - 1, argv + 1, "campaign", true);
		if (first < 0)
			return EXIT_USAGE;
		if (o.help) {
			campaign_usage(stdout);
			return EXIT_OK;
		}
		if (run_db_path(o.db, db, sizeof(db)))
			return EXIT_USAGE;
		return dispatch(subs[i], &o, db, argc - 1 - first, argv + 1 + first);
	}
	error("campaign: no subcommand '%s' (start, bisect, resume, status or abort)", argv[1]);
	return EXIT_USAGE;
}
