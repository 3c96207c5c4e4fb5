/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vm: a job on a kernel image, in qemu. This module owns the guest's root
 * (a newc cpio archive made from the host's own files: busybox, schedlab
 * and the shared libraries it and the job's programs need, an init of
 * its own; cached by content), the machine qemu is given (CPUs, sockets,
 * cores, threads, NUMA nodes, memory, KVM or TCG), the boot (a console
 * log, a timeout, nothing left running) and the way the run comes back:
 * the guest runs `schedlab run`, writes `schedlab export` of it to its
 * second serial port, and the host stores that document as the run,
 * with the guest's kernel, command line and CPUs as its machine record
 * and "vm" (accel, qemu, shape) beside them.
 */
#ifndef SCHEDLAB_VM_H
#define SCHEDLAB_VM_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* the guest's CPUs as qemu's -smp takes them; nodes: -numa nodes (0: none) */
struct vm_shape {
	unsigned cpus, sockets, cores, threads, nodes;
	unsigned memory_mb;
};

struct plan;

/*
 * The accelerators --accel takes, one line each: X(ID, name). The enum
 * and vm_accel_names[] are made from it; how qemu is told to use one,
 * and what auto chooses, are qemu.c's (doc/architecture.md, "Adding a
 * VM accelerator").
 */
#define VM_ACCEL_LIST(X) X(AUTO, "auto") X(KVM, "kvm") X(TCG, "tcg")
#define VM_ACCEL_ENUM_(id, name) VM_ACCEL_##id,
enum vm_accel { VM_ACCEL_LIST(VM_ACCEL_ENUM_) VM_ACCEL_N };
#undef VM_ACCEL_ENUM_
extern const char *const vm_accel_names[];	/* NULL-terminated */

/*
 * The guest's root: host - the host's own / shared read-only (virtiofs)
 * under an overlay with a tmpfs to write on (vm/hostroot.c); minimal -
 * the archive vm/root.c makes (busybox, schedlab, the job's programs
 * and their libraries, --with); auto - host where it can be had (root,
 * virtiofsd, a kernel with virtiofs and overlay), else minimal.
 */
enum vm_root_kind { VM_ROOT_AUTO, VM_ROOT_HOST, VM_ROOT_MINIMAL };
extern const char *const vm_root_names[];	/* NULL-terminated */

/*
 * A VM's machine, the one type of it: what vm run's options fill
 * (cmd/setup.h's OPT_VM_MACHINE writes straight into it), what a
 * campaign keeps in its document and hands each boot's child `vm run`
 * as options again - vm/machine.c is its codec both ways, JSON and argv.
 */
struct vm_machine {
	struct vm_shape shape;
	enum vm_accel accel;
	enum vm_root_kind root;
	unsigned timeout_s;	/* the whole boot, job included */
	/* added to the guest's command line; NULL. Owned only where
	 * vm_machine_from_json() or vm_machine_dup() made it */
	const char *append;
};

/* m as a JSON object (cpus, sockets, cores, threads, numa_nodes,
 * memory_mb, timeout_s, accel, root, append). */
json_t *vm_machine_json(const struct vm_machine *m);
/* m from such an object (root: "minimal" when absent, as documents
 * stored before there was a choice); -1 when it is not one. */
int vm_machine_from_json(const json_t *o, struct vm_machine *m);
/* s (malloc'd, now the argv's) appended to the NULL-ended argv of *n
 * strings. */
void vm_argv_push(char ***argv, size_t *n, char *s);
/* m as `vm run` options (--cpus=N ... --root=WHICH), appended to the
 * NULL-ended argv of *n strings (malloc'd), with --append of m's and
 * more (NULL: none) when either has one. */
void vm_machine_argv(const struct vm_machine *m, const char *more,
		     char ***argv, size_t *n);
/* A copy that owns its append; vm_machine_free() frees what it owns. */
struct vm_machine vm_machine_dup(const struct vm_machine *m);
void vm_machine_free(struct vm_machine *m);
/* The name of an accel or a root (auto, kvm, tcg; auto, host, minimal)
 * into its enum: 0, or -1 when it is not one. */
int vm_accel_of(const char *name, enum vm_accel *a);
int vm_root_of(const char *name, enum vm_root_kind *r);

struct vm_opts {
	const char *kernel;	/* a bzImage */
	struct vm_machine m;
	const char *const *with;	/* more host files for the guest */
	size_t nwith;
	bool quiet;
	/* set by vm_run() for vm_boot(): with the host's root, a folder of
	 * this boot's for virtiofsd's socket and its view of / (NULL: the
	 * archive is the whole root) */
	const char *share_dir;
	/* with it, the writable layer: a raw ext4 image (NULL: a tmpfs) */
	const char *rw_disk;
};

/* The host's root for a kernel: the modules its guest must load (host
 * paths, in load order; none where built in). */
struct vm_hostroot {
	char *modules[16];
	size_t nmodules;
};

/*
 * Whether the host's root can be shared with a guest of this kernel
 * image (disk: with a writable layer on a virtio disk, ext4): 0 with *h
 * filled, or -1 with why (in words, after "the host's root cannot be
 * shared: ") - not root, no virtiofsd, a kernel without virtiofs, fuse
 * or overlay (virtio_blk, ext4) built in or as modules of its own.
 */
int vm_hostroot_plan(const char *kernel, bool disk, struct vm_hostroot *h,
		     char *why, size_t len);
void vm_hostroot_free(struct vm_hostroot *h);
/* The most bytes a case of p writes (its workloads' disk_bytes()). */
double vm_disk_need(const struct plan *p);
/* Whether that needs a disk rather than the guest's tmpfs. */
bool vm_disk_wanted(double need, const struct vm_shape *s);
/* A writable disk for it in dir (a raw ext4 image): its path, or NULL
 * after error() (no room on the host, no mkfs.ext4). */
char *vm_disk_make(const char *dir, double need);
/* The image's release ("6.1.0-57-cloud-amd64"), from its boot header;
 * -1 where it has none. */
int vm_kernel_release(const char *path, char *buf, size_t len);
/* virtiofsd serving a read-only view of / on sock (its words to errlog),
 * in a process group of its own that dies with this process: its pid,
 * or -1 after error(). */
pid_t vm_virtiofsd_start(const char *dir, const char *sock, const char *errlog);
void vm_virtiofsd_stop(pid_t pid);

/*
 * Checks a shape: the product of sockets, cores and threads is cpus
 * (those not given are derived), nodes divide it along whole cores,
 * memory divides among the nodes. who names the command in messages;
 * -1 after error() naming the option and what is accepted.
 */
int vm_shape_check(const char *who, struct vm_shape *s);
/* "4 CPUs (2 sockets x 2 cores x 1 thread), 2 NUMA nodes, 1024 MiB" */
char *vm_shape_text(const struct vm_shape *s);

/*
 * The guest root for the plan p's workloads (NULL: schedlab's own only)
 * and o->with, written once to the cache (its name is a hash of what
 * it holds) and its path returned (free()); NULL after error(). The
 * host files it copies are found before anything is written: a program
 * the guest would need and the host lacks is named.
 */
char *vm_root(const struct plan *p, const struct vm_opts *o);

/* A file the caller keeps: the kernel image checked (a bzImage). -1
 * after error() naming the file and what is wrong. */
int vm_kernel_check(const char *who, const char *path);

/* Whether /dev/kvm answers: the module loaded and ours to open. */
bool vm_kvm_usable(void);

/* qemu-system-x86_64 as found on PATH (a static buffer), or NULL after
 * error() naming the package to install. */
const char *vm_qemu(void);

/*
 * One boot of o->kernel with the root at initrd. The console goes to
 * console_log; the guest's export, if it got so far, to *doc (malloc'd
 * text, NUL-terminated) and its run's exit status to *guest_rc.
 * *accel_used: what ran. Returns 0 when the guest said it ended
 * (whatever the run's status), -1 after error() (qemu could not start,
 * the guest crashed, hung or timed out: the console's last lines said),
 * -2 when SIGINT or SIGTERM came. Nothing is left running either way.
 */
int vm_boot(const struct vm_opts *o, const char *initrd, const char *console_log,
	    char **doc, int *guest_rc, enum vm_accel *accel_used);

/*
 * `schedlab vm run`: the job (a job file or a suite, as run takes it,
 * with its --set texts) read on the host, booted on o->kernel, its run
 * stored in db as run `uuid` (NULL: a new one) with label (NULL: the
 * kernel's file name); iterations: run's --iterations (NULL: the
 * file's). Returns an exit status: 0 stored complete, 1 the run failed
 * or the guest did not bring it back (the console log's path said), 2
 * bad input, 130 interrupted.
 */
struct vm_job {
	const char *spec;
	const char *const *sets;
	size_t nsets;
	const char *iterations;
	const char *uuid, *label;
};
int vm_run(const struct vm_job *j, const struct vm_opts *o, const char *db);

/*
 * After vm_boot(): whether SIGINT or SIGTERM came (a campaign killed
 * with -9 sends its child SIGTERM); if not, both are back at their
 * default from here on, so that one coming while the run is stored
 * ends this process before the store's commit, never after a parent
 * that took the run for lost.
 */
bool vm_stop_pending(void);

/* What the guest's kernel said about its command line, from the klog
 * lines its init copied to the console (vm/klog.c): an array of the
 * kernel's own lines (empty when it said nothing). */
json_t *vm_kernel_said(const char *console, const char *append);

/* The console's last n lines, to stderr, indented. */
void vm_console_tail(const char *console, int n);

/* Whether the console says the guest's kernel ran out of memory. */
bool vm_console_oom(const char *console);

/* The kernel configuration the guest needs, as a fragment on f; for a
 * kernel of version (major * 100 + minor), only its options (0: all). */
void vm_config_fragment(FILE *f, unsigned version);
/* Which of it the .config at path lacks, and what each costs, on
 * stdout: 0 none, 1 some, 2 bad input (after error()). */
int vm_config_check(const char *path);

/*
 * A kernel built from a commit of a git tree for the guest (vm/build.c):
 * a worktree and an out-of-tree build folder (O=) schedlab owns, one
 * per tree, reused from commit to commit; the configuration tinyconfig
 * (or config) + kvm_guest.config + the guest's fragment + items; the
 * image cached by commit, configuration, compiler and make variables.
 */
struct vm_build {
	const char *tree;	/* a kernel tree's git repository */
	const char *rev;	/* a commit of it; NULL: HEAD */
	const char *config;	/* a .config to start from; NULL: tinyconfig */
	const char *const *items;	/* CONFIG_X=y|m|n|VALUE, added last */
	size_t nitems;
	const char *const *vars;	/* make's VAR=VALUE (LLVM=1, CC=clang) */
	size_t nvars;
	bool quiet;		/* no progress, no notes: errors only */
};

struct vm_built {
	char commit[41];
	char *subject;		/* the commit's first line */
	char *image;		/* the bzImage, in the cache */
	double build_s;		/* the seconds its build took */
	bool cached;		/* built before: nothing was built now */
};

/*
 * Builds b's commit (or finds it built): 0 with *out filled, 1 the
 * build failed (the log's last lines and its path said), 2 bad input
 * (not a kernel tree, no such commit, a tool missing: named with its
 * Debian package) after error(), 130 interrupted (nothing left running,
 * no image cached). who names the command in messages.
 */
int vm_build(const char *who, const struct vm_build *b, struct vm_built *out);
void vm_built_free(struct vm_built *out);
/* A make variable or a config item checked: -1 after error(). */
int vm_build_check_args(const char *who, const struct vm_build *b);

/* The cache folder (created), or NULL after error(): $SCHEDLAB_VM_CACHE,
 * else $XDG_CACHE_HOME/schedlab/vm, else ~/.cache/schedlab/vm. */
const char *vm_cache_dir(void);

#endif
