// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm/vm_run.c: `schedlab vm run` - the job checked on the host, the root
 * found or made (vm/root.c), a small archive of this run's own (its
 * uuid, its `schedlab run` arguments) put after it, one boot (vm/qemu.c),
 * and the export the guest wrote stored in the host's database with the
 * host's name for it and "vm" in its machine record. The console log is
 * kept in the cache (console/UUID.log); the temporary folder is not.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness/plan.h"
#include "store/store.h"
#include "util.h"
#include "vm/vm.h"
#include "vm/vm_int.h"

#define OPT_SETS_MAX 64

/* 'word' for sh, a ' inside as '\'' */
static void sh_quote(FILE *f, const char *w)
{
	fputc('\'', f);
	for (; *w; w++)
		if (*w == '\'')
			fputs("'\\''", f);
		else
			fputc(*w, f);
	fputc('\'', f);
}

/* What the guest's init sources: the uuid, the host name, `set -- ARGS`. */
static char *run_env(const char *uuid, const char *host, bool hostroot,
		     bool rwdisk, const char *const *args, size_t nargs, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		abort();
	fprintf(f, "SCHEDLAB_VM_UUID=%s\nSCHEDLAB_VM_HOST=", uuid);
	sh_quote(f, host);
	if (hostroot)
		fprintf(f, "\nSCHEDLAB_VM_HOSTROOT=1%s", rwdisk ? "\nSCHEDLAB_VM_RWDISK=1" : "");
	fputs("\nset --", f);
	for (size_t i = 0; i < nargs; i++) {
		fputc(' ', f);
		sh_quote(f, args[i]);
	}
	fputc('\n', f);
	fclose(f);
	return buf;
}

/* initrd: the root's bytes, then this run's archive (run.env, the job
 * file as job/NAME). -1 after error(). */
/* The modules of the host's root as modules/NAME.ko and modules/order.
 * -1 after error(). */
static int add_modules(struct cpio *c, const struct vm_hostroot *hr)
{
	char *order = NULL;
	size_t olen = 0;
	FILE *of = open_memstream(&order, &olen);
	int rc = 0;

	if (!of)
		abort();
	if (hr->nmodules && cpio_add(c, "modules", 040755, NULL, 0))
		rc = error_errno("vm: cannot write the guest's modules");
	for (size_t i = 0; i < hr->nmodules && !rc; i++) {
		const char *base = strrchr(hr->modules[i], '/');
		char *name = xasprintf("modules/%s", base ? base + 1 : hr->modules[i]);
		long long size;
		size_t len;
		int fd = open_regular(hr->modules[i], &size);
		char *data = fd < 0 ? NULL : read_fd_all(fd, 0, &len);

		if (fd >= 0)
			close(fd);
		if (!data)
			rc = error_errno("vm: cannot read the module %s", hr->modules[i]);
		else if (cpio_add(c, name, 0100644, data, len))
			rc = error_errno("vm: cannot write the guest's modules");
		fprintf(of, "%s\n", name + strlen("modules/"));
		free(data);
		free(name);
	}
	fclose(of);
	if (!rc && hr->nmodules && cpio_add(c, "modules/order", 0100644, order, olen))
		rc = error_errno("vm: cannot write the guest's modules");
	free(order);
	return rc;
}

static int write_initrd(const char *root, const char *initrd, const char *env,
			size_t envlen, const char *jobname, const char *job,
			size_t joblen, const struct vm_hostroot *hr)
{
	int in = open(root, O_RDONLY | O_CLOEXEC), out;
	struct cpio c = { 0 };
	struct stat sb;
	off_t off = 0;
	int rc = 0;

	if (in < 0 || fstat(in, &sb))
		return error_errno("vm: cannot read the guest root %s", root);
	out = open(initrd, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0) {
		close(in);
		return error_errno("vm: cannot write %s", initrd);
	}
	while (off < sb.st_size && !rc) {
		ssize_t n = sendfile(out, in, &off, (size_t)(sb.st_size - off));

		if (n <= 0)
			rc = error_errno("vm: cannot copy the guest root to %s", initrd);
	}
	close(in);
	c.f = fdopen(out, "ab");
	if (!c.f) {
		close(out);
		return error_errno("vm: cannot write %s", initrd);
	}
	if (!rc && hr)
		rc = add_modules(&c, hr);
	if (!rc && (cpio_add(&c, "run.env", 0100644, env, envlen) ||
		    cpio_add(&c, jobname + 1, 0100644, job, joblen) || cpio_end(&c)))
		rc = error_errno("vm: cannot write %s", initrd);
	if (fclose(c.f) && !rc)
		rc = error_errno("vm: cannot write %s", initrd);
	return rc;
}

/* The machine record's "vm" item: what ran the guest, and its shape. */
static void record_vm(json_t *doc, const struct vm_opts *o, enum vm_accel accel,
		      const char *label, const char *host, json_t *said)
{
	json_t *run = json_object_get(doc, "run");
	json_t *env = json_object_get(doc, "environment");
	json_t *machine = env ? json_object_get(env, "machine") : NULL;
	char *shape = vm_shape_text(&o->m.shape);
	char kernel[PATH_MAX];

	if (!realpath(o->kernel, kernel))
		snprintf(kernel, sizeof(kernel), "%s", o->kernel);
	json_object_set_new(run, "label", json_string(label));
	json_object_set_new(run, "host", json_string(host));
	if (machine)
		json_object_set_new(machine, "vm", json_pack(
			"{s:b, s:{s:s, s:s, s:s?, s:s, s:s, s:s?, s:i, s:i, s:i, s:i, s:i, s:i}}",
			"available", 1, "value",
			"accel", vm_accel_names[accel],
			"root", vm_root_names[o->share_dir ? VM_ROOT_HOST : VM_ROOT_MINIMAL],
			"writable", !o->share_dir ? NULL : o->rw_disk ? "disk" : "tmpfs",
			"kernel_image", kernel,
			"shape", shape, "append", o->m.append,
			"cpus", (int)o->m.shape.cpus, "sockets", (int)o->m.shape.sockets,
			"cores", (int)o->m.shape.cores, "threads", (int)o->m.shape.threads,
			"numa_nodes", (int)o->m.shape.nodes,
			"memory_mb", (int)o->m.shape.memory_mb));
	if (machine && json_array_size(said))
		json_object_set(json_object_get(json_object_get(machine, "vm"), "value"),
				"kernel_said", said);
	free(shape);
}

/* The guest's export stored as the run. 0, or -1 after error(). */
static int store_doc(const char *db, const char *text, const struct vm_opts *o,
		     enum vm_accel accel, const char *label, const char *host,
		     const char *console)
{
	json_error_t jerr;
	json_t *doc = json_loads(text, 0, &jerr), *said;
	struct store *st;
	int64_t id;
	int rc;

	if (!doc)
		return error("vm: the run the guest sent is not JSON (%s, line %d); its console: %s",
			     jerr.text, jerr.line, console);
	said = vm_kernel_said(console, o->m.append);
	for (size_t i = 0; i < json_array_size(said); i++)
		warning("vm: the guest's kernel said of its command line: %s",
			json_string_value(json_array_get(said, i)));
	record_vm(doc, o, accel, label, host, said);
	json_decref(said);
	st = store_open(db);
	if (!st) {
		json_decref(doc);
		return -1;
	}
	rc = store_import(st, doc, "the guest's run", &id);
	store_close(st);
	json_decref(doc);
	return rc;
}

static char *default_label(const char *kernel)
{
	const char *b = strrchr(kernel, '/');

	return xstrdup(b ? b + 1 : kernel);
}

/* The checks before any work: the kernel, qemu, KVM when asked for, the
 * number of --set. 0, or -1 after error(). */
static int vm_run_check(const struct vm_job *j, const struct vm_opts *o)
{
	if (vm_kernel_check("vm run", o->kernel) || !vm_qemu())
		return -1;
	if (o->m.accel == VM_ACCEL_KVM && !vm_kvm_usable())
		return error("vm run: --accel kvm: /dev/kvm cannot be used here (no KVM module, or no access): --accel tcg emulates instead, auto chooses");
	if (j->nsets > OPT_SETS_MAX)
		return error("vm run: at most %d --set", OPT_SETS_MAX);
	return 0;
}

/* The job as the host reads it: bad input stops here, not in a guest
 * (its warnings are the guest's to give, on its console, so the first
 * load is muted; a failed one is loaded again to say why). 0 when *p is
 * loaded. */
static int load_job(const struct vm_job *j, struct plan *p)
{
	int rc;

	error_mute(1);
	rc = plan_load_spec(j->spec, j->sets, j->nsets, p);
	error_mute(0);
	if (rc && !plan_load_spec(j->spec, j->sets, j->nsets, p))
		rc = 0;
	return rc;
}

/* Each case's workload checks (prepare()), as run makes them: -1 after
 * the first one's error. */
static int prepare_cases(const struct plan *p)
{
	for (size_t i = 0; i < p->ncases; i++)
		if (p->cases[i].wl->prepare && p->cases[i].wl->prepare(p->cases[i].cfg))
			return -1;
	return 0;
}

/*
 * The root the guest gets: VM_ROOT_HOST (hr filled, and what the
 * workloads check before they start checked here: the guest's files are
 * the host's) or VM_ROOT_MINIMAL (under auto with a warning that says
 * why); -1 after error(): --root host where it cannot be had, a check
 * that failed.
 */
static int choose_root(const struct vm_opts *o, const struct plan *p, bool disk,
		       struct vm_hostroot *hr)
{
	char why[1024];

	if (o->m.root == VM_ROOT_MINIMAL)
		return VM_ROOT_MINIMAL;
	if (vm_hostroot_plan(o->kernel, disk, hr, why, sizeof(why))) {
		if (o->m.root == VM_ROOT_HOST)
			return error("vm run: --root host: the host's root cannot be shared: %s",
				     why);
		warning("vm: the host's root cannot be shared (%s): the guest has the minimal root - busybox, schedlab, the job's programs and their libraries; --with adds files",
			why);
		return VM_ROOT_MINIMAL;
	}
	return prepare_cases(p) ? -1 : VM_ROOT_HOST;
}

/* The guest's `schedlab run` arguments into args (room for
 * 5 + 2 * OPT_SETS_MAX); returns their number. */
static size_t run_args(const struct vm_job *j, const char *jobfile,
		       const char *label, const char **args)
{
	size_t nargs = 0;

	args[nargs++] = jobfile;
	args[nargs++] = "--label";
	args[nargs++] = label;
	if (j->iterations) {
		args[nargs++] = "--iterations";
		args[nargs++] = j->iterations;
	}
	for (size_t i = 0; i < j->nsets; i++) {
		args[nargs++] = "--set";
		args[nargs++] = j->sets[i];
	}
	return nargs;
}

/* A new temporary folder under $TMPDIR (when absolute) or /tmp; NULL
 * after error(). */
static char *make_tmp_dir(void)
{
	const char *tmpdir = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/schedlab-vm.XXXXXX",
			       tmpdir && *tmpdir == '/' ? tmpdir : "/tmp");

	if (!mkdtemp(tmpl)) {
		error_errno("vm: cannot make a temporary folder");
		free(tmpl);
		return NULL;
	}
	return tmpl;
}

/* The console log's path in the cache (console/UUID.log), its folder
 * made; NULL after error(). */
static char *console_log(const char *cache, const char *uuid)
{
	char *console = xasprintf("%s/console", cache);

	if (mkdir(console, 0700) && errno != EEXIST) {
		error_errno("vm: cannot make %s", console);
		free(console);
		return NULL;
	}
	free(console);
	return xasprintf("%s/console/%s.log", cache, uuid);
}

/* After the boot: the guest's export (doc) stored unless it is empty or
 * a stop is pending, and the guest's exit status told. The exit code. */
static int store_guest_run(const char *db, const char *doc,
			   const struct vm_opts *o, enum vm_accel accel,
			   const char *label, const char *host,
			   const char *console, const char *uuid, int guest_rc)
{
	if (!*doc) {
		error("vm: the run in the guest exited %d and stored nothing%s",
		      guest_rc, vm_console_oom(console) ?
		      ": the guest ran out of memory, raise --memory" : "");
		vm_console_tail(console, 10);
		return EXIT_RUN_FAILED;
	}
	if (vm_stop_pending()) {
		error("vm: interrupted: the run is not stored");
		return EXIT_INTERRUPTED;
	}
	if (store_doc(db, doc, o, accel, label, host, console))
		return EXIT_RUN_FAILED;
	if (guest_rc) {
		error("vm: the run in the guest exited %d (stored as it ended)%s",
		      guest_rc, vm_console_oom(console) ?
		      ": the guest ran out of memory, raise --memory" : "");
		vm_console_tail(console, 10);
		return EXIT_RUN_FAILED;
	}
	if (!o->quiet)
		printf("vm: run %s stored (%s, %s root, host %s, label %s)\n", uuid,
		       vm_accel_names[accel], o->share_dir ? "the host's" : "a minimal",
		       host, label);
	return EXIT_OK;
}

/* One boot of initrd as o says, its console kept in the cache, the run
 * the guest sent stored as uuid; its host the node's name with the
 * accelerator's. The exit code. */
static int boot_and_store(const struct vm_opts *o, const char *db,
			  const char *cache, const char *initrd, const char *uuid,
			  const char *label, const char *node)
{
	char *console = console_log(cache, uuid), *doc = NULL, host[300];
	enum vm_accel accel = VM_ACCEL_TCG;
	int guest_rc, b, rc;

	if (!console)
		return EXIT_RUN_FAILED;
	if (!o->quiet)
		fprintf(stderr, "vm: booting %s%s%s%s, run %s; console: %s\n",
			o->kernel, o->m.append ? " (append '" : "",
			o->m.append ? o->m.append : "", o->m.append ? "')" : "", uuid, console);
	b = vm_boot(o, initrd, console, &doc, &guest_rc, &accel);
	if (b) {
		rc = b == -2 ? EXIT_INTERRUPTED : EXIT_RUN_FAILED;
	} else {
		snprintf(host, sizeof(host), "%s-%s", node, vm_accel_names[accel]);
		rc = store_guest_run(db, doc, o, accel, label, host, console, uuid,
				     guest_rc);
	}
	free(console);
	free(doc);
	return rc;
}

int vm_run(const struct vm_job *j, const struct vm_opts *o, const char *db)
{
	char uuid[40], *tmp = NULL;
	char *root = NULL, *initrd = NULL, *env = NULL;
	char *label = j->label ? xstrdup(j->label) : default_label(o->kernel);
	char host[300], *jobfile = NULL, *text = NULL, where[4200];
	const char *cache, *base, *args[8 + 2 * OPT_SETS_MAX];
	struct utsname u;
	struct plan p;
	bool loaded = false, hostroot, disk;
	struct vm_hostroot hr = { 0 };
	struct vm_opts bo;
	char *rwdisk = NULL;
	double need;
	int rc = EXIT_USAGE, b;
	size_t envlen, textlen, nargs;

	if (vm_run_check(j, o) || load_job(j, &p))
		goto out;
	loaded = true;
	/* the job's text, a program the guest needs and this host lacks,
	 * no cache folder: bad input too, found before anything boots */
	if (plan_spec_text(j->spec, &text, &textlen, where, sizeof(where)))
		goto out;
	base = strrchr(where, '/');
	jobfile = xasprintf("/job/%s", base ? base + 1 : where);
	need = vm_disk_need(&p);
	disk = vm_disk_wanted(need, &o->m.shape);
	bo = *o;
	if ((b = choose_root(o, &p, disk, &hr)) < 0)
		goto out;
	bo.m.root = (enum vm_root_kind)b;
	hostroot = bo.m.root == VM_ROOT_HOST;
	root = vm_root(&p, &bo);
	cache = root ? vm_cache_dir() : NULL;
	if (!cache)
		goto out;
	rc = EXIT_RUN_FAILED;
	if (j->uuid)
		snprintf(uuid, sizeof(uuid), "%s", j->uuid);
	else
		uuid_new(uuid, sizeof(uuid));
	if (uname(&u))
		snprintf(u.nodename, sizeof(u.nodename), "host");
	nargs = run_args(j, jobfile, label, args);
	snprintf(host, sizeof(host), "%s-vm", u.nodename);
	tmp = make_tmp_dir();
	if (!tmp)
		goto out;
	if (hostroot && disk && !(rwdisk = vm_disk_make(tmp, need))) {
		rc = EXIT_USAGE;
		goto out;
	}
	env = run_env(uuid, host, hostroot, rwdisk != NULL, args, nargs, &envlen);
	initrd = xasprintf("%s/initrd.cpio", tmp);
	if (write_initrd(root, initrd, env, envlen, jobfile, text, textlen,
			 hostroot ? &hr : NULL))
		goto out;
	bo.share_dir = hostroot ? tmp : NULL;
	bo.rw_disk = rwdisk;
	rc = boot_and_store(&bo, db, cache, initrd, uuid, label, u.nodename);
out:
	if (loaded)
		plan_free(&p);
	vm_hostroot_free(&hr);
	if (tmp)
		rm_tree(tmp);
	free(tmp);
	free(rwdisk);
	free(jobfile);
	free(text);
	free(root);
	free(initrd);
	free(env);
	free(label);
	return rc;
}
