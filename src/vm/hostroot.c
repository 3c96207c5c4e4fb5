// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/hostroot.c: the host's own system as the guest's root, as virtme-ng
 * gives it. virtiofsd (qemu's C daemon, /usr/lib/qemu/virtiofsd) serves
 * the host's / to the guest; the guest mounts it read-only under an
 * overlay whose writable layer is a tmpfs of its own, and runs the job
 * there, so every program, library and data file of the host is where
 * the job expects it (dbench's loadfile, PostgreSQL's binaries, a
 * compiler and its headers) with nothing named by hand.
 *
 * Read-only holds on the host's side, not only in the guest's mount:
 * the daemon is started in a mount namespace of its own in which its
 * shared folder is a recursive bind of / made read-only with
 * mount_setattr(AT_RECURSIVE) - a guest that remounts its view
 * read-write gets EROFS from the host for every write.
 *
 * What the guest's kernel needs: virtio-pci, fuse, virtiofs and overlay,
 * built in or as modules of that kernel's own (the host's /lib/modules
 * belongs to the host's kernel): from the folder modules/ beside the
 * image (tools/kernels.sh's layout: the .ko files and their `order`), or
 * /lib/modules/RELEASE when the host has that kernel's package. The
 * kernel's config (config beside the image, /boot/config-RELEASE, or
 * the .config of the tree an arch/x86/boot/bzImage was built in), where
 * one is found, says which are built in.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"
#include "vm/vm.h"
#include "vm/vm_int.h"

#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

static const char *const virtiofsd_paths[] = {
	"/usr/lib/qemu/virtiofsd", "/usr/libexec/virtiofsd", NULL,
};

/* What the shared root needs of the guest's kernel, in load order: the
 * module's name and the config option that builds it. */
static const struct {
	const char *module, *option;
	bool disk;	/* only for a writable layer on a disk */
} needed[] = {
	{ "virtio", "CONFIG_VIRTIO", false },
	{ "virtio_ring", "CONFIG_VIRTIO", false },
	{ "virtio_pci_modern_dev", "CONFIG_VIRTIO_PCI_LIB", false },
	{ "virtio_pci_legacy_dev", "CONFIG_VIRTIO_PCI_LIB_LEGACY", false },
	{ "virtio_pci", "CONFIG_VIRTIO_PCI", false },
	{ "virtio_blk", "CONFIG_VIRTIO_BLK", true },
	{ "fuse", "CONFIG_FUSE_FS", false },
	{ "virtiofs", "CONFIG_VIRTIO_FS", false },
	{ "overlay", "CONFIG_OVERLAY_FS", false },
};

int vm_kernel_release(const char *path, char *buf, size_t len)
{
	unsigned char hdr[0x210];
	char s[256];
	unsigned off;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok;

	*buf = '\0';
	if (fd < 0)
		return -1;
	ok = pread(fd, hdr, sizeof(hdr), 0) == (ssize_t)sizeof(hdr) &&
	     !memcmp(hdr + 0x202, "HdrS", 4);
	/* the boot protocol's kernel_version: a string at its value + 0x200 */
	off = ok ? (unsigned)(hdr[0x20e] | hdr[0x20f] << 8) : 0;
	ok = ok && off && pread(fd, s, sizeof(s) - 1, off + 0x200) > 0;
	close(fd);
	if (!ok)
		return -1;
	s[sizeof(s) - 1] = '\0';
	s[strcspn(s, " ")] = '\0';
	snprintf(buf, len, "%s", s);
	return *buf ? 0 : -1;
}

/* The kernel's config, where one is found: its path, else NULL. */
static char *find_config(const char *kernel, const char *release)
{
	char real[PATH_MAX], *dir, *p;
	const char *tail = "/arch/x86/boot/bzImage";
	size_t n;

	if (!realpath(kernel, real))
		return NULL;
	dir = xstrdup(real);
	*strrchr(dir, '/') = '\0';
	p = xasprintf("%s/config", dir);
	free(dir);
	if (!access(p, R_OK))
		return p;
	free(p);
	if (*release) {
		p = xasprintf("/boot/config-%s", release);
		if (!access(p, R_OK))
			return p;
		free(p);
	}
	n = strlen(real);
	if (n > strlen(tail) && !strcmp(real + n - strlen(tail), tail)) {
		real[n - strlen(tail)] = '\0';
		p = xasprintf("%s/.config", real);
		if (!access(p, R_OK))
			return p;
		free(p);
	}
	return NULL;
}

/* The option's value in the config text ('y', 'm', or 0 when not set). */
static char config_value(const char *text, const char *option)
{
	size_t n = strlen(option);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, option, n) && l[n] == '=')
			return l[n + 1];
	return 0;
}

/* The module's file in the folder (kernels.sh's flat layout) or in
 * /lib/modules/RELEASE's tree (by modules.dep): its path, else NULL. */
static char *find_module(const char *flat, const char *libdir, const char *dep,
			 const char *name)
{
	char *p, want[128];

	if (flat) {
		p = xasprintf("%s/%s.ko", flat, name);
		if (!access(p, R_OK))
			return p;
		free(p);
	}
	if (!dep)
		return NULL;
	snprintf(want, sizeof(want), "/%s.ko:", name);
	for (const char *l = dep; *l; ) {
		const char *nl = strchr(l, '\n'), *colon = strchr(l, ':');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);

		if (colon && colon < l + len && (size_t)(colon - l) >= strlen(want) - 1 &&
		    !strncmp(colon - (strlen(want) - 1), want, strlen(want))) {
			p = xasprintf("%s/%.*s", libdir, (int)(colon - l), l);
			if (!access(p, R_OK))
				return p;
			free(p);
		}
		l += len + (nl ? 1 : 0);
	}
	return NULL;
}

static const char *virtiofsd_path(void)
{
	for (size_t i = 0; virtiofsd_paths[i]; i++)
		if (!access(virtiofsd_paths[i], X_OK))
			return virtiofsd_paths[i];
	return NULL;
}

int vm_hostroot_plan(const char *kernel, bool disk, struct vm_hostroot *h,
		     char *why, size_t len)
{
	char release[128], *config, *ctext = NULL, *flat, *dir, *libdir = NULL;
	char *dep = NULL, real[PATH_MAX];
	size_t clen, dlen;
	int rc = 0;

	memset(h, 0, sizeof(*h));
	*why = '\0';
	if (geteuid()) {
		snprintf(why, len, "virtiofsd, which serves it, runs only as root");
		return -1;
	}
	if (!virtiofsd_path()) {
		snprintf(why, len, "no virtiofsd (%s: the Debian package qemu-system-common)",
			 virtiofsd_paths[0]);
		return -1;
	}
	vm_kernel_release(kernel, release, sizeof(release));
	config = find_config(kernel, release);
	if (config)
		ctext = read_path_all(config, &clen);
	if (!realpath(kernel, real))
		snprintf(real, sizeof(real), "%s", kernel);
	dir = xstrdup(real);
	*strrchr(dir, '/') = '\0';
	flat = xasprintf("%s/modules", dir);
	free(dir);
	if (*release) {
		char *p;

		libdir = xasprintf("/lib/modules/%s", release);
		p = xasprintf("%s/modules.dep", libdir);
		dep = read_path_all(p, &dlen);
		free(p);
	}
	/* a disk's ext4 must be built in: its modules are a chain of their own */
	if (disk && ctext && config_value(ctext, "CONFIG_EXT4_FS") != 'y') {
		snprintf(why, len, "the job writes more than a tmpfs holds, and its kernel %s has no ext4 built in (CONFIG_EXT4_FS in %s) for a writable disk",
			 release[0] ? release : kernel, config);
		rc = -1;
	}
	_Static_assert(ARRAY_SIZE(needed) <= ARRAY_SIZE(h->modules), "room for every module");
	for (size_t i = 0; i < ARRAY_SIZE(needed) && !rc; i++) {
		char v = ctext ? config_value(ctext, needed[i].option) : '?';
		char *m;

		if (v == 'y' || (needed[i].disk && !disk))
			continue;
		m = find_module(flat, libdir, dep, needed[i].module);
		if (m) {
			h->modules[h->nmodules++] = m;
			continue;
		}
		if (v == '?')	/* no config: taken to be built in; the guest says */
			continue;
		snprintf(why, len, "its kernel %s %s (%s=%s in %s) and no %s.ko of its own was found (in %s or /lib/modules/%s)",
			 release[0] ? release : kernel,
			 v == 'm' ? "has it as a module" : "lacks it",
			 needed[i].option, v == 'm' ? "m" : "not set", config,
			 needed[i].module, flat, release[0] ? release : "RELEASE");
		rc = -1;
	}
	free(flat);
	free(libdir);
	free(dep);
	free(ctext);
	free(config);
	if (rc)
		vm_hostroot_free(h);
	return rc;
}

void vm_hostroot_free(struct vm_hostroot *h)
{
	for (size_t i = 0; i < h->nmodules; i++)
		free(h->modules[i]);
	h->nmodules = 0;
}

/*
 * The daemon's child: a mount namespace of its own, / bound recursively
 * at dir/root and made read-only there, then virtiofsd serving it.
 * Never returns.
 */
static void virtiofsd_child(const char *dir, const char *sock)
{
	struct {
		unsigned long long attr_set, attr_clr, propagation, userns_fd;
	} attr = { .attr_set = MOUNT_ATTR_RDONLY };
	char *root = xasprintf("%s/root", dir), *src = xasprintf("source=%s", root);
	char *sockopt = xasprintf("--socket-path=%s", sock);
	const char *d = virtiofsd_path();

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    (mkdir(root, 0700) && errno != EEXIST) ||
	    mount("/", root, NULL, MS_BIND | MS_REC, NULL) ||
	    syscall(SYS_mount_setattr, AT_FDCWD, root, AT_RECURSIVE, &attr, sizeof(attr))) {
		fprintf(stderr, "schedlab: vm: cannot make the read-only view of / for virtiofsd: %s\n",
			strerror(errno));
		_exit(126);
	}
	execl(d, d, sockopt, "-o", src, "-o", "cache=auto",
	      "-o", "log_level=warn", "--thread-pool-size=4", (char *)NULL);
	fprintf(stderr, "schedlab: vm: cannot run %s: %s\n", d, strerror(errno));
	_exit(127);
}

pid_t vm_virtiofsd_start(const char *dir, const char *sock, const char *errlog)
{
	pid_t pid;

	unlink(sock);
	pid = vm_fork_child(errlog);
	if (pid < 0)
		return -1;
	if (!pid)
		virtiofsd_child(dir, sock);
	/* its socket, within 10 s, or it said why not */
	for (int i = 0; i < 1000; i++) {
		struct stat sb;
		int ws;

		if (!stat(sock, &sb) && S_ISSOCK(sb.st_mode))
			return pid;
		if (waitpid(pid, &ws, WNOHANG) == pid) {
			size_t len;
			char *said = read_path_all(errlog, &len);

			while (said && *said && strchr(" \n", said[strlen(said) - 1]))
				said[strlen(said) - 1] = '\0';
			error("vm: virtiofsd, which shares the host's root with the guest, ended before it listened (%s %d)%s%s%s",
			      WIFSIGNALED(ws) ? "signal" : "exit",
			      WIFSIGNALED(ws) ? WTERMSIG(ws) : WEXITSTATUS(ws),
			      said && *said ? "; it said: '" : "", said ? said : "",
			      said && *said ? "'" : "");
			free(said);
			return -1;
		}
		poll(NULL, 0, 10);
	}
	vm_virtiofsd_stop(pid);
	error("vm: virtiofsd did not listen on %s within 10 s", sock);
	return -1;
}

void vm_virtiofsd_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}
