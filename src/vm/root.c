// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/root.c: the guest's root, made from the host's own files - busybox
 * (its applets are the guest's shell and tools), this schedlab, the
 * programs the job runs, each with the libraries its ELF header names
 * (and the ones schedlab opens at run time), the job file and an init -
 * as one newc archive in the cache, named by a hash of its bytes: the
 * second boot of the same files reuses it. What a run adds (its uuid,
 * its arguments) goes to a small archive of its own (vm/vm_run.c), which
 * the kernel unpacks over this one.
 */
#include <elf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/plan.h"
#include "util.h"
#include "vm/vm.h"
#include "vm/vm_int.h"
#include "workload/workload.h"

#ifndef GSL_SONAME
#define GSL_SONAME "libgsl.so.27"
#endif

/* where the guest's loader looks (Debian's multiarch first) */
static const char *const lib_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
	"/usr/lib64", "/lib", "/usr/lib", NULL,
};

/* The programs an external workload starts: the guest needs them. */
static const struct {
	const char *workload;
	const char *const *programs;
} workload_programs[] = {
	{ "dbench", (const char *const[]){ "dbench", NULL } },
	{ "tbench", (const char *const[]){ "tbench", "tbench_srv", NULL } },
	{ "sysbench", (const char *const[]){ "sysbench", NULL } },
	{ "fileio", (const char *const[]){ "sysbench", NULL } },
	{ "fio", (const char *const[]){ "fio", NULL } },
};

/*
 * The guest's init: mounts what schedlab reads, runs the job as the
 * per-run archive's /run.env says, writes the run's export and an end
 * line to the second serial port (the host reads it from a file), and
 * powers off. The first line on the console tells the host the guest
 * is up (KVM's probe waits for it). With the host's root
 * (SCHEDLAB_VM_HOSTROOT), the run's modules are loaded, the host's /
 * (virtiofs, tag hostroot) is mounted read-only under an overlay whose
 * upper layer is a tmpfs, the guest's own /proc, /sys, /dev, /dev/shm
 * and /run over it (the host's /tmp shows through: a job's files there
 * are read from the host, written in the guest), and the job runs
 * chrooted there with this archive's schedlab (the host's running
 * one, copied to /run/schedlab-vm); the archive's busybox only sets it
 * up.
 */
static const char init_sh[] =
	"#!/bin/busybox sh\n"
	"# schedlab's guest init (src/vm/root.c)\n"
	"/bin/busybox mkdir -p /proc /sys /dev /tmp /run /bin /sbin /usr/bin /usr/sbin\n"
	"/bin/busybox --install -s\n"
	"export PATH=/usr/sbin:/usr/bin:/sbin:/bin\n"
	"mount -t proc proc /proc\n"
	"mount -t sysfs sysfs /sys\n"
	"mount -t devtmpfs devtmpfs /dev\n"
	"mount -t tmpfs tmpfs /tmp\n"
	"mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null\n"
	"mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"
	"exec </dev/null >/dev/ttyS0 2>&1\n"
	"echo \"schedlab-vm: guest up: $(uname -r)\"\n"
	"ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up\n"
	"# the kernel's notices and warnings, which quiet keeps off the console:\n"
	"# the host reads what they say of the command line (vm/klog.c)\n"
	"dmesg -r 2>/dev/null | grep '^<[0-5]>' | sed -r 's/^(<[0-9]>)(\\[[^]]*\\] *)?/schedlab-vm: klog: \\1/'\n"
	". /run.env\n"
	"hostname \"$SCHEDLAB_VM_HOST\"\n"
	"in_root() { (cd /job && \"$@\"); }\n"
	"sl=schedlab\n"
	"if [ -n \"$SCHEDLAB_VM_HOSTROOT\" ]; then\n"
	"  # in passes: a module whose symbols another gives loads after it\n"
	"  left=$(cat /modules/order 2>/dev/null)\n"
	"  for pass in 1 2 3 4 5; do\n"
	"    next=\n"
	"    for m in $left; do insmod \"/modules/$m\" 2>/dev/null || next=\"$next $m\"; done\n"
	"    left=$next\n"
	"  done\n"
	"  [ -z \"$left\" ] || echo \"schedlab-vm: these modules would not load:$left\"\n"
	"  r=/newroot\n"
	"  mkdir -p /host /rw $r\n"
	"  if [ -n \"$SCHEDLAB_VM_RWDISK\" ]; then rw=\"-t ext4 /dev/vda\"; else rw=\"-t tmpfs -o mode=0755 rw\"; fi\n"
	"  if ! { mount -t virtiofs -o ro hostroot /host && mount $rw /rw &&\n"
	"        mkdir /rw/upper /rw/work &&\n"
	"        mount -t overlay overlay -o lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work,xino=on $r; }; then\n"
	"    echo \"schedlab-vm: the host's root did not mount\"\n"
	"    poweroff -f\n"
	"  fi\n"
	"  mount -t proc proc $r/proc\n"
	"  mount -t sysfs sysfs $r/sys\n"
	"  mount -t devtmpfs devtmpfs $r/dev\n"
	"  mkdir -p $r/dev/shm $r/tmp $r/run $r/job\n"
	"  mount -t tmpfs -o mode=1777 shm $r/dev/shm\n"
	"  mount -t tmpfs -o mode=0755 run $r/run\n"
	"  mount -t cgroup2 cgroup2 $r/sys/fs/cgroup 2>/dev/null\n"
	"  mount -t debugfs debugfs $r/sys/kernel/debug 2>/dev/null\n"
	"  cp /job/* $r/job/\n"
	"  in_root() {\n"
	"    chroot $r /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \\\n"
	"      HOME=/root TERM=dumb /bin/sh -c 'cd /job && exec \"$@\"' sh \"$@\"\n"
	"  }\n"
	"  # this archive's schedlab, the host's running one: the file at its\n"
	"  # path on the host may be rebuilt while the guest runs\n"
	"  mkdir -p $r/run/schedlab-vm && cp /usr/bin/schedlab $r/run/schedlab-vm/schedlab\n"
	"  sl=/run/schedlab-vm/schedlab\n"
	"  echo \"schedlab-vm: the host's root is mounted\"\n"
	"fi\n"
	"in_root \"$sl\" run \"$@\" --db /run/schedlab-vm.db --uuid \"$SCHEDLAB_VM_UUID\" -q\n"
	"rc=$?\n"
	"echo \"schedlab-vm: the run exited $rc\"\n"
	"in_root \"$sl\" export \"$SCHEDLAB_VM_UUID\" --db /run/schedlab-vm.db >/tmp/run.json\n"
	"stty -F /dev/ttyS1 raw -echo\n"
	"cat /tmp/run.json >/dev/ttyS1\n"
	"echo \"schedlab-vm-end rc=$rc bytes=$(wc -c </tmp/run.json)\" >/dev/ttyS1\n"
	"sync\n"
	"poweroff -f\n";

struct entry {
	char *path;		/* in the guest */
	char *host;		/* its content's file; NULL: data */
	char *data;
	size_t len;
	unsigned mode;
};

struct root {
	struct entry *e;
	size_t n;
};

static struct entry *find_entry(struct root *r, const char *path)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->e[i].path, path))
			return &r->e[i];
	return NULL;
}

static struct entry *add(struct root *r, const char *path, unsigned mode)
{
	struct entry *e = find_entry(r, path);

	if (e)
		return e;
	r->e = xrealloc(r->e, (r->n + 1) * sizeof(*r->e));
	e = &r->e[r->n++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	e->mode = mode;
	return e;
}

static void add_data(struct root *r, const char *path, unsigned mode,
		     const char *data, size_t len)
{
	struct entry *e;

	if (find_entry(r, path))	/* the caller's --with wins */
		return;
	e = add(r, path, mode);
	e->data = xmalloc(len + 1);
	memcpy(e->data, data, len);
	e->len = len;
}

/* The library soname as the guest's loader would find it: its path. */
static char *find_lib(const char *soname)
{
	char p[PATH_MAX];

	for (size_t i = 0; lib_dirs[i]; i++) {
		snprintf(p, sizeof(p), "%s/%s", lib_dirs[i], soname);
		if (!access(p, R_OK))
			return xstrdup(p);
	}
	return NULL;
}

/*
 * The file at host path into the guest at guest, with what its ELF
 * header needs (recursively). A file that is not ELF (a script) goes
 * as it is. -1 after error().
 */
static int add_program(struct root *r, const char *host, const char *guest,
		       unsigned mode, const char *who)
{
	char *interp = NULL, **needed = NULL, real[PATH_MAX];
	size_t n = 0;
	struct entry *e;
	int rc = 0;
	FILE *f;
	unsigned char magic[4] = { 0 };

	if (find_entry(r, guest))
		return 0;
	if (!realpath(host, real))
		return error_errno("%s: %s", who, host);
	e = add(r, guest, mode);
	e->host = xstrdup(real);
	f = fopen(real, "rb");
	if (!f || fread(magic, 1, 4, f) != 4 || memcmp(magic, ELFMAG, 4)) {
		if (f)
			fclose(f);
		return 0;
	}
	fclose(f);
	if (elf_deps(real, &interp, &needed, &n))
		return -1;
	if (interp)
		rc = add_program(r, interp, interp, 0100755, who);
	for (size_t i = 0; i < n; i++) {
		char *lib = rc ? NULL : find_lib(needed[i]);

		if (!rc && !lib)
			rc = error("%s: %s needs %s, which is not in %s or the other library folders",
				   who, host, needed[i], lib_dirs[0]);
		if (!rc)
			rc = add_program(r, lib, lib, 0100755, who);
		free(lib);
		free(needed[i]);
	}
	free(needed);
	free(interp);
	return rc;
}


/* The programs the job's external workloads start, into the root. */
static int add_job_programs(struct root *r, const struct plan *pl, bool check_only,
			    const char *who)
{
	const struct plan p = *pl;
	int rc = 0;

	for (size_t i = 0; i < p.ncases && !rc; i++)
		for (size_t w = 0; w < ARRAY_SIZE(workload_programs) && !rc; w++) {
			if (strcmp(p.cases[i].wl->name, workload_programs[w].workload))
				continue;
			for (const char *const *pr = workload_programs[w].programs; *pr && !rc; pr++) {
				char *at = path_find(*pr);

				if (!at)
					rc = error("%s: [%s] runs %s, which this host lacks (install the Debian package that has it): the guest's programs come from the host",
						   who, p.cases[i].job, *pr);
				else if (!check_only)	/* the host's root has it */
					rc = add_program(r, at, at, 0100755, who);
				free(at);
			}
		}
	return rc;
}

/* Every folder above each entry, as an entry of its own. */
static void add_dirs(struct root *r)
{
	size_t n = r->n;

	for (size_t i = 0; i < n; i++) {
		char *p = xstrdup(r->e[i].path), *s;

		while ((s = strrchr(p, '/')) && s != p) {
			*s = '\0';
			add(r, p, 040755);
		}
		free(p);
	}
}

static int by_path(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	/* a folder before what is in it: '/' sorts as the lowest byte */
	for (const char *p = x->path, *q = y->path;; p++, q++) {
		unsigned char c = *p == '/' ? 1 : (unsigned char)*p;
		unsigned char d = *q == '/' ? 1 : (unsigned char)*q;

		if (c != d || !c)
			return c - d;
	}
}

/* Each file's bytes read (data entries keep theirs). -1 after error(). */
static int load_files(struct root *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct entry *e = &r->e[i];
		long long size;
		int fd;

		if (!e->host)
			continue;
		fd = open_regular(e->host, &size);
		if (fd < 0)
			return -1;
		e->data = read_fd_all(fd, 0, &e->len);
		close(fd);
		if (!e->data)
			return error_errno("vm: cannot read %s", e->host);
	}
	return 0;
}

/* FNV-1a, 64 bits, over what the archive holds: twice, seeded apart. */
static void hash_root(const struct root *r, char *out, size_t len)
{
	uint64_t h[2] = { 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull };

	for (size_t i = 0; i < r->n; i++) {
		const struct entry *e = &r->e[i];
		const unsigned char *parts[2] = { (const void *)e->path,
						  (const void *)e->data };
		size_t lens[2] = { strlen(e->path) + 1, e->len };

		for (int k = 0; k < 2; k++) {
			h[k] ^= e->mode;
			for (int p = 0; p < 2; p++)
				for (size_t j = 0; j < lens[p]; j++) {
					h[k] ^= parts[p][j];
					h[k] *= 0x100000001b3ull;
				}
		}
	}
	snprintf(out, len, "%016llx%016llx", (unsigned long long)h[0],
		 (unsigned long long)h[1]);
}

static void root_free(struct root *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->e[i].path);
		free(r->e[i].host);
		free(r->e[i].data);
	}
	free(r->e);
}

/* The archive at dir/name written whole (atomic_open()). -1 after error(). */
static int write_root(const struct root *r, const char *dir, const char *name)
{
	struct atomic_file a;
	struct cpio c = { 0 };
	int rc = 0;

	c.f = atomic_open(&a, "vm", dir, name);
	if (!c.f)
		return -1;
	for (size_t i = 0; i < r->n && !rc; i++)
		rc = cpio_add(&c, r->e[i].path + 1, r->e[i].mode, r->e[i].data,
			      r->e[i].len);
	if (!rc)
		rc = cpio_end(&c);
	if (rc) {
		error_errno("vm: cannot write %s/%s", dir, name);
		fclose(a.f);
		unlink(a.tmp);
		return -1;
	}
	return atomic_commit(&a, "vm");
}

/* Roots not used for a week (each schedlab build makes its own) go
 * when a new one is written. */
static void prune(const char *cache, const char *keep)
{
	DIR *d = opendir(cache);
	struct dirent *e;
	time_t old = time(NULL) - 7 * 86400;

	while (d && (e = readdir(d))) {
		struct stat sb;

		if (strncmp(e->d_name, "root-", 5) || !strcmp(e->d_name, keep) ||
		    fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(sb.st_mode) || sb.st_mtime > old)
			continue;
		unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
}

char *vm_root(const struct plan *p, const struct vm_opts *o)
{
	struct root r = { 0 };
	const char *cache = vm_cache_dir();
	char *busybox, *gsl, hash[40], name[64], *path = NULL;
	struct stat sb;
	int rc = 0;

	if (!cache)
		return NULL;
	busybox = path_find("busybox");
	if (!busybox) {
		error("vm: busybox not found: the guest's shell and tools are busybox's (install the Debian package busybox-static)");
		return NULL;
	}
	rc = add_program(&r, busybox, "/bin/busybox", 0100755, "vm");
	free(busybox);
	if (!rc)
		rc = add_program(&r, "/proc/self/exe", "/usr/bin/schedlab", 0100755, "vm");
	/* opened at run time (src/lazylib.h): the statistics need GSL */
	gsl = find_lib(GSL_SONAME);
	if (!rc && gsl)
		rc = add_program(&r, gsl, gsl, 0100755, "vm");
	free(gsl);
	if (!rc && p)
		rc = add_job_programs(&r, p, o->m.root == VM_ROOT_HOST, "vm");
	for (size_t i = 0; i < o->nwith && !rc; i++) {
		if (o->with[i][0] != '/')
			rc = error("vm: --with '%s': expected an absolute path (the guest gets it at the same path)",
				   o->with[i]);
		else
			rc = add_program(&r, o->with[i], o->with[i], 0100755, "vm");
	}
	if (!rc) {
		add_data(&r, "/init", 0100755, init_sh, sizeof(init_sh) - 1);
		add(&r, "/job", 040755);
		add_dirs(&r);
		qsort(r.e, r.n, sizeof(*r.e), by_path);
		rc = load_files(&r);
	}
	if (!rc) {
		hash_root(&r, hash, sizeof(hash));
		snprintf(name, sizeof(name), "root-%s.cpio", hash);
		path = xasprintf("%s/%s", cache, name);
		if (!stat(path, &sb)) {
			utimensat(AT_FDCWD, path, NULL, 0);	/* in use: kept */
		} else if (write_root(&r, cache, name)) {
			free(path);
			path = NULL;
		} else {
			prune(cache, name);
		}
	}
	root_free(&r);
	return path;
}

const char *vm_cache_dir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("SCHEDLAB_VM_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *bad;

	if (env && *env)
		snprintf(dir, sizeof(dir), "%s", env);
	else if (xdg && *xdg == '/')
		snprintf(dir, sizeof(dir), "%s/schedlab/vm", xdg);
	else if (home && *home)
		snprintf(dir, sizeof(dir), "%s/.cache/schedlab/vm", home);
	else {
		error("vm: no cache folder: set SCHEDLAB_VM_CACHE or HOME");
		return NULL;
	}
	bad = mkdir_p(dir, 0700);
	if (bad) {
		error_errno("vm: cannot make the cache folder %s", bad);
		free(bad);
		return NULL;
	}
	return dir;
}
