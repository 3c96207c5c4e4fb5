// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/qemu.c: one boot. qemu-system-x86_64 is started with no devices
 * but two serial ports - the console, to a log, and the run's way back,
 * to a file - in a process group of its own that dies with this
 * process (PR_SET_PDEATHSIG), and is waited for within the timeout: a
 * guest that panics (panic=-1 and -no-reboot end qemu), hangs or never
 * powers off is killed, and the console's last lines say why.
 *
 * KVM fails in more ways than /dev/kvm being absent: under nested
 * virtualization it can open and qemu then never leave the firmware
 * (a hang), or qemu dies at once (an assertion when the host refuses a
 * model-specific register: SIGABRT, or an exit). Under VM_ACCEL_AUTO
 * the guest must show its first line within VM_KVM_PROBE_S, and qemu
 * must not end before the guest's kernel printed anything; else the
 * boot is made again under TCG, with one warning naming what happened
 * (qemu's own words, from its stderr, kept in a file), and the cache
 * remembers it for this host's kernel and qemu. A kernel that printed
 * something and then failed (a panic) failed by itself: no fallback.
 * Under --accel kvm each of these is the boot's error.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/kvm.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "vm/vm.h"
#include "vm/vm_int.h"

#define VM_KVM_PROBE_S 15
#define GUEST_UP "schedlab-vm: guest up"
#define GUEST_END "schedlab-vm-end rc="
#define ROOT_FAILED "schedlab-vm: the host's root did not mount"

#define VM_ACCEL_NAME_(id, name) name,
const char *const vm_accel_names[] = { VM_ACCEL_LIST(VM_ACCEL_NAME_) NULL };
#undef VM_ACCEL_NAME_
const char *const vm_root_names[] = { "auto", "host", "minimal", NULL };

const char *vm_qemu(void)
{
	static char found[PATH_MAX];
	char *p = path_find("qemu-system-x86_64");

	if (!p) {
		error("vm: qemu-system-x86_64 not found on PATH: install the Debian package qemu-system-x86");
		return NULL;
	}
	snprintf(found, sizeof(found), "%s", p);
	free(p);
	return found;
}

bool vm_kvm_usable(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = ioctl(fd, KVM_GET_API_VERSION, 0) == KVM_API_VERSION;
	close(fd);
	return ok;
}

/* The cache's note that KVM hung here, keyed by kernel and qemu. */
static char *kvm_note_path(const char *qemu)
{
	const char *cache = vm_cache_dir();
	struct utsname u;
	struct stat sb;

	if (!cache || uname(&u) || stat(qemu, &sb))
		return NULL;
	return xasprintf("%s/kvm-fails-%s-%lld", cache, u.release,
			 (long long)sb.st_mtime);
}

struct argv_b {
	char **v;
	size_t n;
};

static void arg(struct argv_b *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void arg(struct argv_b *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		abort();
	a->v = xrealloc(a->v, (a->n + 2) * sizeof(*a->v));
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static void qemu_argv(struct argv_b *a, const char *qemu, const struct vm_opts *o,
		      enum vm_accel accel, const char *initrd,
		      const char *console, const char *result)
{
	const struct vm_shape *s = &o->m.shape;

	arg(a, "%s", qemu);
	arg(a, "-nodefaults");
	arg(a, "-no-user-config");
	arg(a, "-display");
	arg(a, "none");
	arg(a, "-no-reboot");
	arg(a, "-accel");
	arg(a, "%s", vm_accel_names[accel]);	/* qemu's own names */
	if (accel == VM_ACCEL_KVM) {
		arg(a, "-cpu");
		arg(a, "host");
	} else if (o->m.shape.threads > 1) {
		/* TCG's default CPU is an AMD family without SMT (topoext):
		 * an Intel vendor gives the guest its hardware threads */
		arg(a, "-cpu");
		arg(a, "qemu64,vendor=GenuineIntel");
	}
	arg(a, "-m");
	arg(a, "%u", s->memory_mb);
	arg(a, "-smp");
	arg(a, "cpus=%u,sockets=%u,cores=%u,threads=%u", s->cpus, s->sockets,
	    s->cores, s->threads);
	/* virtiofs needs the guest's memory shared with virtiofsd: memfd */
	for (unsigned i = 0; i < s->nodes; i++) {
		unsigned per = s->cpus / s->nodes;

		arg(a, "-object");
		arg(a, "memory-backend-%s,id=mem%u,size=%uM%s", o->share_dir ? "memfd" : "ram",
		    i, s->memory_mb / s->nodes, o->share_dir ? ",share=on" : "");
		arg(a, "-numa");
		arg(a, "node,nodeid=%u,cpus=%u-%u,memdev=mem%u", i, i * per,
		    (i + 1) * per - 1, i);
	}
	if (o->share_dir) {
		if (!s->nodes) {
			arg(a, "-object");
			arg(a, "memory-backend-memfd,id=mem,size=%uM,share=on", s->memory_mb);
			arg(a, "-machine");
			arg(a, "memory-backend=mem");
		}
		arg(a, "-chardev");
		arg(a, "socket,id=hostroot,path=%s/virtiofs.sock", o->share_dir);
		arg(a, "-device");
		arg(a, "vhost-user-fs-pci,chardev=hostroot,tag=hostroot");
	}
	if (o->rw_disk) {
		arg(a, "-drive");
		arg(a, "file=%s,format=raw,if=virtio,cache=writeback", o->rw_disk);
	}
	arg(a, "-kernel");
	arg(a, "%s", o->kernel);
	arg(a, "-initrd");
	arg(a, "%s", initrd);
	/* no_timer_check: an emulated guest on a busy host can miss the
	 * ticks the kernel's IO-APIC timer check counts, and panic ("IO-APIC
	 * + timer doesn't work!") before the run starts. tsc=reliable, under
	 * TCG: its vCPUs fail the kernel's TSC sync check, and its clock is
	 * then the HPET, an emulated device read under qemu's global lock at
	 * every reading of the time; with the TSC the boots' noise fell from
	 * 9-11% to 5-8% (doc/statistics.md, "A guest's boots made
	 * repeatable"). The user's --append comes last: tsc=unstable wins. */
	arg(a, "-append");
	arg(a, "console=ttyS0 panic=-1 no_timer_check quiet%s%s%s",
	    accel == VM_ACCEL_TCG ? " tsc=reliable" : "", o->m.append ? " " : "",
	    o->m.append ? o->m.append : "");
	arg(a, "-serial");
	arg(a, "file:%s", console);
	arg(a, "-serial");
	arg(a, "file:%s", result);
}

static volatile sig_atomic_t stop_sig;
static void on_stop(int sig)
{
	stop_sig = sig;
}

bool vm_stop_pending(void)
{
	sigset_t both, old;
	bool stop;

	sigemptyset(&both);
	sigaddset(&both, SIGINT);
	sigaddset(&both, SIGTERM);
	sigprocmask(SIG_BLOCK, &both, &old);
	stop = stop_sig != 0;
	if (!stop) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
	}
	/* one that came since is delivered now, and ends this process */
	sigprocmask(SIG_SETMASK, &old, NULL);
	return stop;
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

enum boot_end { BOOT_EXITED, BOOT_TIMEOUT, BOOT_NO_LIFE, BOOT_STOPPED,
		BOOT_FSD_DIED, BOOT_ERROR };

/* With the host's root, virtiofsd serving it: its pid, 0 without, -1
 * after error(). */
static pid_t share_start(const struct vm_opts *o, const char *errlog)
{
	char *sock;
	pid_t pid;

	if (!o->share_dir)
		return 0;
	sock = xasprintf("%s/virtiofs.sock", o->share_dir);
	pid = vm_virtiofsd_start(o->share_dir, sock, errlog);
	free(sock);
	return pid;
}

/*
 * qemu started and waited for: until it exits, the timeout, or - with
 * probe_s - no first guest line by then. qemu is killed and reaped
 * whatever the end. *ws: its wait status when it exited.
 */
static enum boot_end boot_once(char **argv, const struct vm_opts *o,
			       const char *console, const char *result,
			       const char *errlog, unsigned probe_s, int *ws)
{
	struct sigaction sa = { .sa_handler = on_stop };
	pid_t pid, fsd = share_start(o, errlog);
	double start = mono_now(), end_seen = 0, fsd_died_at = -1;
	enum boot_end how = BOOT_ERROR;

	if (fsd < 0)
		return BOOT_ERROR;
	pid = vm_fork_child(errlog);
	if (pid < 0) {
		vm_virtiofsd_stop(fsd);
		return BOOT_ERROR;
	}
	if (!pid) {
		execv(argv[0], argv);
		fprintf(stderr, "schedlab: vm: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	/* kept after the boot: vm_stop_pending() says whether one came */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (;;) {
		pid_t w = waitpid(pid, ws, WNOHANG);
		double t = mono_now() - start;

		if (w == pid) {
			how = BOOT_EXITED;
			break;
		}
		if (w < 0 && errno != EINTR) {
			error_errno("vm: waitpid");
			break;
		}
		if (stop_sig) {
			how = BOOT_STOPPED;
			break;
		}
		/* the guest's root gone: nothing it does from here is a run
		 * (qemu closing its socket at a power-off ends virtiofsd too:
		 * qemu is given 3 s to end first) */
		if (fsd > 0 && fsd_died_at < 0 && waitpid(fsd, NULL, WNOHANG) == fsd)
			fsd_died_at = t;
		if (fsd_died_at >= 0 && t > fsd_died_at + 3 && !vm_tail_has(result, GUEST_END)) {
			how = BOOT_FSD_DIED;
			break;
		}
		if (t > o->m.timeout_s) {
			how = BOOT_TIMEOUT;
			break;
		}
		if (probe_s && t > probe_s && !vm_file_has(console, GUEST_UP)) {
			how = BOOT_NO_LIFE;
			break;
		}
		/* the guest said it ended but does not power off: 10 s grace */
		if (!end_seen && vm_tail_has(result, GUEST_END))
			end_seen = t;
		if (end_seen && t > end_seen + 10) {
			how = BOOT_EXITED;
			*ws = 0;
			break;
		}
		poll(NULL, 0, 100);
	}
	if (how != BOOT_EXITED || end_seen) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	/* its process group: the sandbox's child too, when the daemon
	 * itself already ended and was reaped */
	vm_virtiofsd_stop(fsd);
	return how;
}

/* The guest's end line and the export before it, from the result file. */
static int read_result(const char *result, char **doc, int *guest_rc)
{
	size_t len;
	char *s = read_path_all(result, &len), *end;
	size_t bytes;

	if (!s)
		return -1;
	end = NULL;
	for (char *p = s; (p = memmem(p, len - (size_t)(p - s), GUEST_END, strlen(GUEST_END))); p++)
		end = p;
	if (!end || sscanf(end, GUEST_END "%d bytes=%zu", guest_rc, &bytes) != 2 ||
	    bytes > (size_t)(end - s)) {
		free(s);
		return -1;
	}
	/* the export is the bytes right before the end line */
	memmove(s, end - bytes, bytes);
	s[bytes] = '\0';
	*doc = s;
	return 0;
}

static void argv_free(struct argv_b *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

/*
 * qemu's own words from its stderr, for a message: the first line that
 * says "error" (qemu's and its assertions'), else the last line; at most
 * 200 bytes, into buf. "" when it said nothing.
 */
static void qemu_said(const char *errlog, char *buf, size_t len)
{
	size_t n;
	char *s = read_path_all(errlog, &n), *pick = NULL, *save = NULL;

	*buf = '\0';
	if (!s)
		return;
	for (char *l = strtok_r(s, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		l[strcspn(l, "\r")] = '\0';
		if (!*l)
			continue;
		if (strstr(l, "error") || strstr(l, "Assertion")) {
			pick = l;
			break;
		}
		pick = l;
	}
	if (pick)
		snprintf(buf, len, "%.200s", pick);
	free(s);
}

/* How qemu ended, in words: "exited 1", "was killed by signal 6 (SIGABRT)". */
static void qemu_end_text(int ws, char *buf, size_t len)
{
	if (WIFSIGNALED(ws))
		snprintf(buf, len, "was killed by signal %d (SIG%s)", WTERMSIG(ws),
			 sigabbrev_np(WTERMSIG(ws)) ? sigabbrev_np(WTERMSIG(ws)) : "?");
	else
		snprintf(buf, len, "exited %d", WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
}

/* What VM_ACCEL_AUTO runs: TCG, with a warning, when /dev/kvm cannot be
 * used or the cache's note (NULL: none) says KVM failed here before
 * (its text says how); else KVM. */
static enum vm_accel auto_accel(const char *note)
{
	size_t len;
	char *why;

	if (!vm_kvm_usable()) {
		warning("vm: /dev/kvm cannot be used here: the guest runs under TCG, emulated (its times are not the hardware's)");
		return VM_ACCEL_TCG;
	}
	why = note ? read_path_all(note, &len) : NULL;
	if (why) {
		why[strcspn(why, "\n")] = '\0';
		warning("vm: KVM failed on this host before (%s; noted in %s): the guest runs under TCG, emulated (its times are not the hardware's); --accel kvm tries it again",
			*why ? why : "no guest", note);
		free(why);
		return VM_ACCEL_TCG;
	}
	return VM_ACCEL_KVM;
}

/* How the boot ended, told: 0 with the export in *doc and the guest's
 * status in *guest_rc, -2 when interrupted, else -1 (after error() but
 * for BOOT_ERROR, already said). */
static int boot_outcome(enum boot_end how, int ws, const struct vm_opts *o,
			const char *console, const char *result,
			const char *errlog, char **doc, int *guest_rc)
{
	char said[256], end[64];
	int rc = -1;

	qemu_said(errlog, said, sizeof(said));
	switch (how) {
	case BOOT_EXITED:
		if (!read_result(result, doc, guest_rc)) {
			rc = 0;
			break;
		}
		qemu_end_text(ws, end, sizeof(end));
		if ((!WIFEXITED(ws) || WEXITSTATUS(ws)) && !vm_file_has(console, GUEST_UP))
			error("vm: qemu %s before the guest started%s%s", end,
			      *said ? "; qemu said: " : "", said);
		else if (vm_file_has(console, ROOT_FAILED))
			error("vm: the host's root did not mount in the guest (virtiofs under an overlay): --root minimal boots without it");
		else if (vm_file_has(console, "Out of memory"))
			error("vm: the guest ran out of memory (--memory %u MiB): raise --memory",
			      o->m.shape.memory_mb);
		else if (vm_file_has(console, "Kernel panic"))
			error("vm: the guest's kernel panicked before the run came back");
		else
			error("vm: the guest ended before the run came back");
		vm_console_tail(console, 15);
		break;
	case BOOT_TIMEOUT:
		error("vm: the guest did not finish within --timeout %u s: qemu killed",
		      o->m.timeout_s);
		vm_console_tail(console, 15);
		break;
	case BOOT_NO_LIFE:
		error("vm: --accel kvm: the guest showed no sign of life within %d s under KVM (nested virtualization?): qemu killed; --accel tcg emulates, auto falls back to it",
		      VM_KVM_PROBE_S);
		break;
	case BOOT_FSD_DIED:
		error("vm: virtiofsd, which served the host's root to the guest, ended during the boot: qemu killed, nothing stored");
		vm_console_tail(console, 10);
		break;
	case BOOT_STOPPED:
		error("vm: interrupted: qemu killed");
		rc = -2;
		break;
	case BOOT_ERROR:
		break;
	}
	return rc;
}

/*
 * Whether a boot under KVM failed as KVM fails, not as a kernel does: no
 * sign of life in time, or qemu ended before the guest's kernel printed
 * anything and before any run came back. Its words into why.
 */
static bool kvm_failed(enum boot_end how, int ws, const char *console,
		       const char *result, const char *errlog, char *why,
		       size_t len)
{
	char said[256], end[64];

	if (how == BOOT_NO_LIFE) {
		snprintf(why, len, "the guest showed no sign of life within %d s",
			 VM_KVM_PROBE_S);
		return true;
	}
	if (how != BOOT_EXITED || vm_file_size(console) || vm_tail_has(result, GUEST_END))
		return false;
	qemu_end_text(ws, end, sizeof(end));
	qemu_said(errlog, said, sizeof(said));
	snprintf(why, len, "qemu %s before the guest's kernel printed anything%s%s%s",
		 end, *said ? " (qemu said: '" : "", said, *said ? "')" : "");
	return true;
}

/* The note that KVM failed here, with why: auto reads it next time. */
static void kvm_note(const char *note, const char *why)
{
	FILE *f = note ? fopen(note, "we") : NULL;

	if (!f)
		return;
	fprintf(f, "%s\n", why);
	fclose(f);
}

int vm_boot(const struct vm_opts *o, const char *initrd, const char *console,
	    char **doc, int *guest_rc, enum vm_accel *accel_used)
{
	const char *qemu = vm_qemu();
	char *note = NULL, *result, *errlog, why[400];
	enum vm_accel accel = o->m.accel;
	enum boot_end how;
	struct argv_b a = { 0 };
	int ws = 0, rc;

	*doc = NULL;
	*guest_rc = -1;
	if (!qemu)
		return -1;
	result = xasprintf("%s.out", console);
	errlog = xasprintf("%s.qemu", console);
	if (accel == VM_ACCEL_AUTO) {
		note = kvm_note_path(qemu);
		accel = auto_accel(note);
	}
	for (;;) {
		unlink(console);
		unlink(result);
		unlink(errlog);
		qemu_argv(&a, qemu, o, accel, initrd, console, result);
		how = boot_once(a.v, o, console, result, errlog,
				accel == VM_ACCEL_KVM ? VM_KVM_PROBE_S : 0, &ws);
		argv_free(&a);
		if (o->m.accel != VM_ACCEL_AUTO || accel != VM_ACCEL_KVM ||
		    !kvm_failed(how, ws, console, result, errlog, why, sizeof(why)))
			break;
		kvm_note(note, why);
		warning("vm: KVM failed: %s (nested virtualization?): booting under TCG instead, emulated (its times are not the hardware's)",
			why);
		accel = VM_ACCEL_TCG;
	}
	*accel_used = accel;
	if (o->m.accel == VM_ACCEL_KVM &&
	    kvm_failed(how, ws, console, result, errlog, why, sizeof(why)) &&
	    how == BOOT_EXITED) {
		error("vm: --accel kvm: %s: --accel tcg emulates, auto falls back to it", why);
		rc = -1;
	} else {
		rc = boot_outcome(how, ws, o, console, result, errlog, doc, guest_rc);
	}
	unlink(result);
	unlink(errlog);
	free(result);
	free(errlog);
	free(note);
	return rc;
}
