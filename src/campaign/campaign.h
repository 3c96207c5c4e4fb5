/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * campaign: A/B of states that need a reboot (kernels, boot parameters,
 * a BIOS setting behind a hook), one state measured per boot, the boots
 * alternating in shuffled rounds, stopped sequentially with the run as
 * the unit (stats/noise.h through report/render_compare.h: the test `compare
 * A+B C+D` makes) - doc/statistics.md, "Campaigns across boots".
 *
 * This module owns the campaign's state (struct campaign, kept in the
 * store as one JSON document replaced whole: store_campaign_put()) and
 * the order of the boots (campaign.c), one step of a boot (boot.c):
 * check the machine reached the state, run the job as a child
 * `schedlab run --uuid`, record it; the decision after each round
 * (decide.c, or bisect.c's), the hook for the next boot (drive.c calls
 * them in turn). Every step is written before it is done
 * and recognised when found half done, so a process killed anywhere
 * resumes without losing or doubling a boot's run.
 */
#ifndef SCHEDLAB_CAMPAIGN_H
#define SCHEDLAB_CAMPAIGN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/run.h"
#include "vm/vm.h"

/* 2: a bisect campaign's "bisect" member and its states' "commit";
 * documents of schema 1 (A/B campaigns) read as they were */
#define CAMPAIGN_SCHEMA "schedlab-campaign/2"
#define CAMPAIGN_MAX_STATES 16
/* the hook is called at most this often for one boot, since the machine
 * was last in its state, before the boot is lost */
#define CAMPAIGN_MAX_HOOKS 3
/* a boot's job is started at most this often (a run killed with its
 * resume, or by a crash, is redone) */
#define CAMPAIGN_MAX_ATTEMPTS 10
/* ... and fails by itself (schedlab run exits 1) at most this often */
#define CAMPAIGN_MAX_FAILURES 3
/* the campaign's error rate, shared by its looks (Bonferroni) */
#define CAMPAIGN_ALPHA 0.05

/* each wrong call of a bisect step at most this (Wald's bounds); the
 * gate's false alarm (good and bad called different when they are not)
 * at most this too, and its miss of a distance of the threshold at most
 * BISECT_GATE_MISS */
#define BISECT_ALPHA 0.02
#define BISECT_GATE_MISS 0.05
/* beside Wald's test at the threshold, the gate's mixture test: the
 * likelihood ratio averaged over distances drawn from a normal of this
 * sd (as a log: 0.5, a factor of 1.65), which grows with the distance
 * measured - a factor passes the gate at its first look rather than at
 * the rounds the threshold would take - judged at this false alarm
 * (Ville's bound: at most that over every look) */
#define BISECT_GATE_TAU 0.5
#define BISECT_GATE_MIX_ALPHA 0.005
/* a bisect step's rounds (its commit, good and bad once each) before
 * the gate's first look, and its commit's boots before a call; the
 * gate's most rounds when the planner has no say */
#define BISECT_MIN_REFS 2
/* the gate's first look: with fewer rounds the level model cannot tell
 * the boots' noise from the machine's drift (measured: tests/unit/
 * test_bisect.c's false gates came at 3 and 4 rounds) */
#define BISECT_GATE_FIRST 5
#define BISECT_MAX_REFS 100
/* ... and its fewest when planned (twice the rounds it expects): the
 * noise of a few rounds is itself too uncertain to stop on */
#define BISECT_GATE_MIN 12
/* a step's most rounds by default: this many times the planner's
 * expected rounds, at least BISECT_STEP_MIN, at most BISECT_MAX_STEP
 * (then it is skipped). Wald's test's rounds have a long tail: 3 of the
 * 80 steps of the campaign bisect bench took over 3 times the plan and
 * one was skipped at 4 (doc/statistics.md) */
#define BISECT_STEP_FACTOR 6
#define BISECT_STEP_MIN 12
#define BISECT_MAX_STEP 200
/* a bisect's most boots without --max-boots until the planner has the
 * noise to plan them (this host's noise model of the job, or the gate's
 * first rounds): then the most the plan allows (campaign/bisect.c) */
#define BISECT_UNPLANNED_BOOTS 500

/* resume's exit status while a boot is pending: the hook was called */
#define CAMPAIGN_EXIT_NEXT_BOOT 75

enum camp_design { CAMP_PAIRS, CAMP_BLOCKS };
extern const char *const camp_design_names[];	/* NULL-terminated */

/* hooking: the hook is being called; hooked: it returned, the boot is
 * awaited; running: the job runs as run `uuid`; done: `uuid` complete */
enum camp_phase { PH_HOOKING, PH_HOOKED, PH_RUNNING, PH_DONE };

struct camp_state {
	char *name;
	char *check;		/* shell command, exit 0 in this state; NULL */
	char *kernel;		/* VM: its kernel image; NULL (bisect: built) */
	char *append;		/* VM: its kernel command line's additions; NULL */
	char *commit;		/* bisect: the commit it is (full hash); VM
				 * A/B of a tree: the commit rev named; NULL */
	bool built;		/* bisect: its build command succeeded */
	char *tree, *rev;	/* VM A/B: the kernel tree and the commit as
				 * named (TREE@REV), built by schedlab; NULL */
	double build_s;		/* a kernel schedlab built: its build's time */
};

/* A bisect step's call, written before git is told it (marking) and
 * after (marked): git bisect log says which a killed resume reached. */
enum bis_phase { BIS_MEASURING, BIS_MARKING, BIS_MARKED };

struct camp_step {
	unsigned state;		/* the candidate commit's state */
	unsigned from;		/* its first boot: the references it is
				 * placed by are their boots from here on,
				 * in its rounds (drift between steps is
				 * not taken for the commit's effect) */
	enum bis_phase phase;
	char call[8];		/* "", good, bad or skip */
	unsigned looks;		/* tests made */
	unsigned most;		/* its most rounds: the largest any plan
				 * made while it ran gave it (an
				 * allowance is not taken back) */
	double started, ended;	/* Unix times: its first hook, its call */
	char *why;		/* the last look's words; NULL */
};

/*
 * A kernel bisect on a campaign (campaign/bisect.c): the states are
 * "good", "bad" (the references, booted `refs` times each) and the
 * commits git bisect chose, one step each.
 */
struct camp_bisect {
	char *repo, *build;
	bool started;		/* git bisect start has run */
	bool gated;		/* bad and good differ: calls may be made */
	unsigned refs;		/* the gate's rounds so far */
	unsigned max_refs;	/* ... at most, before it gives up: the
				 * user's, else planned from the noise */
	unsigned max_refs_opt;	/* --max-ref-boots; 0: planned */
	unsigned plan;		/* a step's expected rounds (planner) */
	unsigned max_step;	/* a step's most rounds; then skip */
	unsigned max_step_opt;	/* --max-step-boots; 0: planned */
	unsigned max_boots_opt;	/* --max-boots; 0: c->max_boots planned,
				 * the most boots the plan allows */
	unsigned looks;		/* unused since the sequential test (0) */
	unsigned steps_left;	/* git's "roughly N steps" after this one */
	double distance;	/* log(bad / good), every step's rounds */
	double noise;		/* the run-to-run noise, sd of a log */
	char *first_bad;	/* full hash once git named it; NULL */
	char *end;		/* git's last words when it ended; NULL */
	double started_at, ended_at;
	struct camp_step *steps;
	size_t nsteps;
};

struct camp_boot {
	unsigned state;		/* index into states */
	enum camp_phase phase;
	char uuid[40];		/* the run of its current attempt; "" none */
	unsigned attempts;	/* runs started for it */
	unsigned failures;	/* ... that failed by themselves (exit 1) */
	unsigned hooks;		/* hook calls for it */
	double hooked_at;	/* Unix time of the last hook call */
	double value;		/* bisect: log of its run's headline median,
				 * once read; NAN before */
};

struct campaign {
	char *name, *job, *hook;
	/* boots in VMs (campaign/boot_vm.c): each a fresh qemu from this
	 * process, `schedlab vm run` of the state's kernel image, no hook;
	 * accel and root "auto" until the first boot settles them. NULL:
	 * a hook's boots */
	struct vm_machine *vm;
	json_t *kbuild;		/* VM states that are commits, built by
				 * schedlab: {config, items, vars}; NULL */
	struct camp_state *states;
	size_t nstates;
	unsigned max_boots, block, deadline_s;
	enum camp_design design;
	uint64_t seed;
	double threshold;	/* percent */
	char *status;		/* running, finished, lost, failed, aborted */
	char *verdict;		/* the decision's words; NULL before a look */
	int code;		/* with finished: 0 no change, 1 a change,
				 * 125 inconclusive at max_boots */
	struct camp_boot *boots;
	size_t nboots;
	struct camp_bisect *bisect;	/* a bisect campaign; NULL: an A/B */
	/* in memory only: each state's runs merged so far by the decision,
	 * so that a driver that boots many times (a VM campaign) loads each
	 * boot's run once; NULL until the first look */
	struct camp_known *known;
};

/*
 * What the decision knows: each state's runs merged into one (the first
 * run of the state, the later ones merged into it, as `compare A+B C+D`
 * merges a side), and which boots are in it. Kept in c->known between
 * decisions; a new boot's run is loaded and merged, the earlier ones
 * are not read again.
 */
struct camp_known {
	struct run runs[CAMPAIGN_MAX_STATES];
	bool have[CAMPAIGN_MAX_STATES];
	bool *merged;		/* per boot */
	size_t nboots;
};

json_t *campaign_to_json(const struct campaign *c);
/* -1 after error() naming the campaign when the document is not one. */
int campaign_from_json(const json_t *doc, struct campaign *c);
void campaign_free(struct campaign *c);

/* The state measured by boot k (0-based): the design's shuffled rounds,
 * reproducible from c->seed. */
unsigned campaign_state_of(const struct campaign *c, size_t k);

/*
 * After boot c->nboots: at the end of a round (every state measured as
 * often, two or more times), the states' runs compared with the first
 * state's, the run the unit, at CAMPAIGN_ALPHA / the looks the boots
 * allow. Sets c->verdict; true when every state is decided or the
 * boots are spent (c->code then set). -1 after error() (runs that
 * cannot be loaded). The runs and the host's noise model are read
 * through st, the command's handle.
 */
struct store;
int campaign_decide(struct campaign *c, struct store *st, bool *done);
/* What the decision knew (c->known), freed: campaign_free() calls it,
 * and the decision when it must read the store again. */
void campaign_known_free(struct campaign *c);
/* An A/B's boot measured: campaign_decide(), then the campaign finished
 * or the next boot's hook called. Same returns as campaign_step(). */
int campaign_ab_next(struct campaign *c, struct store *st, const char *db);

/* A run source (store/load.h) reading through st, the handle the
 * command opened: run_source_close() must not be called on it. */
struct run_source;
void campaign_run_source(struct run_source *src, struct store *st);

/* Unix time now, in seconds; seconds from Unix time t to now, never
 * below 0 (a clock that steps back, or t a fraction of a second ahead
 * of time()). */
double campaign_now(void);
double campaign_since(double t);

/* Runs `sh -c cmd` with the campaign's environment for boot k
 * (SCHEDLAB_CAMPAIGN, SCHEDLAB_STATE, SCHEDLAB_STATE_INDEX,
 * SCHEDLAB_BOOT, SCHEDLAB_DB); its exit status, or -1 (cannot run). */
int campaign_shell(const struct campaign *c, const char *db, size_t k,
		   const char *cmd, bool quiet);

/*
 * One step of a campaign (drive.c), from whatever point the store says
 * it reached: the current boot checked, run, recorded (boot.c), then
 * decided (decide.c, or bisect.c's step), the next hooked. Returns
 * resume's exit status: 0 the campaign ended with a verdict,
 * CAMPAIGN_EXIT_NEXT_BOOT the hook was called, 1 it stopped without one
 * (a boot lost, a run or hook failed; c->status says which), 2 the
 * store.
 */
struct store;
int campaign_step(struct campaign *c, struct store *st, const char *db);

/*
 * The current boot's work (boot.c): its arrival checked, its run made
 * (again) and recorded. CAMPAIGN_BOOT_MEASURED when its run is stored
 * complete and the campaign must decide; else campaign_step()'s return.
 */
#define CAMPAIGN_BOOT_MEASURED (-2)
int campaign_boot_step(struct campaign *c, struct store *st, const char *db);

/* Saves c whole (one transaction); create: a new campaign, 1 if it
 * exists. */
int campaign_save(struct store *st, const struct campaign *c, bool create);

/* This host's run-to-run noise of the job's first case (sd of a log,
 * the noise model's), 0 without a model or for a VM's. */
double campaign_job_noise(struct store *st, const struct campaign *c);

/* The first boot's hook: start's last act. Same return as step's. */
int campaign_first_hook(struct campaign *c, struct store *st, const char *db);

/* Ends the campaign as status (lost, failed), why said and stored;
 * returns rc, or 2 when it cannot be stored. */
int campaign_stop(struct campaign *c, struct store *st, const char *status,
		  int rc, const char *why);

/* A new boot of state s, its hook called (the campaign stopped instead
 * when --max-boots is spent). Same return as step's. */
int campaign_boot_state(struct campaign *c, struct store *st, const char *db,
			unsigned s);

/*
 * A campaign as its command drives it (campaign/drive.c).
 * campaign_create(): a new campaign c stored in db and begun (begin: its
 * first hook or git bisect start); who names the command in errors. Its
 * exit status: 2 when the store cannot be opened or the campaign exists.
 * campaign_load(): campaign name of st into *c: 0, or 2 after error().
 * campaign_resume(): campaign name's step, under its lock;
 * campaign_resume_all(): every running campaign of st started on this
 * machine (its command file here), oldest first, each its step, the
 * exit status that says most. Both return resume's exit status.
 * campaign_abort(): campaign name stopped (aborted), said; 0, or 2.
 * campaign_vm_drive(): a campaign over VMs goes on in this process,
 * each boot's step until it ends (rc: campaign_step()'s or the first
 * hook's last return).
 * campaign_job_spec(): the job as resume will find it from any
 * directory (a file's full path); NULL after error().
 */
int campaign_create(struct campaign *c, const char *db, const char *who,
		    int (*begin)(struct campaign *, struct store *, const char *));
int campaign_load(struct store *st, const char *name, struct campaign *c);
/* How many times an A/B campaign looks at its runs at most: each look
 * is judged at CAMPAIGN_ALPHA / that. */
unsigned campaign_looks(const struct campaign *c);
int campaign_resume(struct store *st, const char *db, const char *name);
int campaign_resume_all(struct store *st, const char *db);
int campaign_abort(struct store *st, const char *name);
int campaign_vm_drive(struct campaign *c, struct store *st, const char *db,
		      int rc);
char *campaign_job_spec(const char *spec);

/*
 * The VM mode (campaign/boot_vm.c): c->vm from its document member
 * (vm/machine.c's codec; none: 0), freed; the `schedlab vm run` argv for
 * boot k (malloc'd, NULL-ended; free with campaign_vm_argv_free()); the
 * kernel image of state s (a bisect commit's: where its build puts it,
 * SCHEDLAB_IMAGE).
 */
int campaign_vm_from_json(const json_t *o, struct campaign *c);
void campaign_vm_free(struct campaign *c);
char **campaign_vm_argv(const struct campaign *c, const char *db, size_t k,
			const char *label);
void campaign_vm_argv_free(char **argv);
/* After boot k's run is stored: a campaign whose accel or root is auto
 * takes the one that boot had for all its boots (said on stdout), so
 * that no comparison mixes them; the caller saves it. */
void campaign_vm_settle(struct campaign *c, struct store *st, size_t k);
char *campaign_vm_kernel(const struct campaign *c, unsigned s);
/* Before a bisect build: SCHEDLAB_IMAGE set to where state s's image
 * goes (its folder made, a stale image removed): 0, or 2 after error().
 * After it: 0 when the build left a bootable image there, else 1 after
 * saying what it lacks. */
int campaign_vm_image_env(const struct campaign *c, unsigned s);
int campaign_vm_image_check(const struct campaign *c, unsigned s);
/* State s's kernel built by schedlab (vm/build.c) from the commit
 * tree@rev names (s's commit where it has one), with c->kbuild's
 * options: its image, commit and build time in the state. 0, 1 the
 * build failed, 2 bad input, 130 interrupted (vm_build()'s codes). */
int campaign_vm_build(struct campaign *c, unsigned s, const char *tree,
		      const char *rev);
/* `campaign status` of c in words, to f (campaign/status.c); st: the
 * store its runs are read from (what a state's kernel said). */
void campaign_status_text(FILE *f, const struct campaign *c, struct store *st);

/*
 * --max-boots when not given (campaign/budget.c): from this host's noise
 * model of the job, the boots that detect c->threshold or rule it out
 * at CAMPAIGN_ALPHA, for every state; else 20. Says which.
 */
struct store;
unsigned campaign_plan_boots(struct store *st, const struct campaign *c);

/*
 * The campaign's lock (campaign/lock.c): its descriptor, held until it
 * is closed or this process ends; -1 after error() (another process
 * drives the campaign, or the lock cannot be made).
 */
int campaign_lock(const char *db, const char *name);

/* Runs `sh -c cmd` in dir (NULL: here) as a child that dies with this
 * process; its exit status, or -1 (cannot run). */
int campaign_run_cmd(const char *cmd, const char *dir, bool quiet);

/*
 * The commands a campaign runs at boot (hook, checks, build, repo, job)
 * in a file of this machine's own, DIR/NAME.cmd, mode 0600
 * (campaign/local.c): the store's copy is shared and only shown.
 * campaign_cmd_dir(): DIR, $SCHEDLAB_CAMPAIGN_DIR, else the state
 * directory's campaigns/; -1 after error().
 * campaign_cmd_write(): c's commands into a temporary file in DIR, its
 * path in *tmp; campaign_cmd_commit() puts it in place,
 * campaign_cmd_discard() removes it. -1 after error().
 * campaign_cmd_verify(): 1 when c's commands are the file's and the file
 * is this user's alone; 0 when there is none and missing_ok (another
 * machine's campaign); else -1 after error() naming the field or the
 * file's fault: nothing of c may run.
 */
int campaign_cmd_dir(char *buf, size_t len);
int campaign_cmd_write(const struct campaign *c, char **tmp);
int campaign_cmd_commit(const struct campaign *c, char **tmp);
void campaign_cmd_discard(char **tmp);
int campaign_cmd_verify(const struct campaign *c, bool missing_ok);

/*
 * A campaign's children in process groups of their own
 * (campaign/children.c). campaign_child_record(): group pgid, started
 * by this process, written down while it is waited for; -1 after
 * error(). campaign_child_forget(): it ended. campaign_end_orphans():
 * the groups that resumes killed meanwhile left, ended (SIGTERM, then
 * SIGKILL) and waited for - resume's first act.
 */
#include <sys/types.h>
int campaign_child_record(pid_t pgid);
void campaign_child_forget(void);
void campaign_end_orphans(void);
/*
 * campaign_spawn(): path run as a child that ends with this process,
 * even one killed with -9, in dir when not NULL, stdin /dev/null (and
 * stdout when quiet); it leads a process group of its own, recorded
 * before it runs anything. Its pid, or -1 after error().
 * campaign_reap(): waits for it through EINTR; its wait status, or -1.
 * campaign_boot_env(): the environment of boot k's commands and run
 * (SCHEDLAB_CAMPAIGN, _STATE, _STATE_INDEX, _BOOT, _DB; a bisect's
 * _COMMIT and _REPO).
 */
pid_t campaign_spawn(const char *path, char *const *argv, const char *dir,
		     bool quiet);
int campaign_reap(pid_t pid);
void campaign_boot_env(const struct campaign *c, const char *db, size_t k);

/*
 * The bisect mode (campaign/bisect.c; doc/statistics.md, "Kernel
 * bisect on a campaign").
 *
 * bisect_validate(): the repository and the two commits as git names
 * them (full hashes into good and bad, 41 bytes each); -1 after error()
 * naming what is wrong.
 * bisect_begin(): git bisect start (unless a killed start already ran
 * it), the first candidate read, the references' first boot hooked.
 * bisect_next(): after a boot measured: the next boot chosen (a
 * reference, the candidate again) or the step decided, told to git,
 * the next commit built and booted. Same returns as campaign_step().
 */
int bisect_validate(const char *repo, const char *good_arg, const char *bad_arg,
		    char *good, char *bad);
int bisect_begin(struct campaign *c, struct store *st, const char *db);
int bisect_next(struct campaign *c, struct store *st, const char *db);
/* The boots of state s measured (from boot `from` on). */
unsigned bisect_runs_of(const struct campaign *c, unsigned s);
unsigned bisect_runs_since(const struct campaign *c, unsigned s, size_t from);

#endif
