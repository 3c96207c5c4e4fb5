// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakeup_json: schbench's -j output for the wakeup workload, so that
 * scripts written for schbench's JSON read schedlab's. Its layout: a
 * "normal" object of texts (kernel version, jobname if -J, hostname,
 * sched_ext, the command line) and an "int" object of numbers (time,
 * then for each of wakeup_latency, request_latency and rps the 20th,
 * 50th, 90th, 99th and 99.9th percentiles as NAME_pctP, NAME_min and
 * NAME_max, then runtime). Latencies in whole microseconds. A block
 * with no samples is left out.
 */
#include <math.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "workload/wakeup.h"
#include "util.h"

static const double json_pct[] = { 20, 50, 90, 99, 99.9 };

/* The canonical name, as schbench asks getaddrinfo; else the node name. */
static json_t *hostname(const char *node)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_CANONNAME }, *info;
	json_t *j;

	if (getaddrinfo(node, NULL, &hints, &info))
		return json_string(node);
	j = json_string(info->ai_canonname ? info->ai_canonname : node);
	freeaddrinfo(info);
	return j;
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		chomp(buf);
	return ok && *buf;
}

/* The sched_ext scheduler loaded, or "disabled". */
static json_t *sched_ext(void)
{
	char state[64], ops[256];

	if (read_line("/sys/kernel/sched_ext/state", state, sizeof(state)) &&
	    strcmp(state, "disabled") &&
	    read_line("/sys/kernel/sched_ext/root/ops", ops, sizeof(ops)))
		return json_string(ops);
	return json_string("disabled");
}

/* This process's arguments, joined by spaces. */
static json_t *cmdline(void)
{
	char buf[8192];
	FILE *f = fopen("/proc/self/cmdline", "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	while (n && buf[n - 1] == '\0')
		n--;
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return json_string(buf);
}

static void add_block(json_t *o, const char *name, const struct hist *h,
		      double scale)
{
	char key[64];

	if (!h || !hist_count(h))
		return;
	for (size_t i = 0; i < sizeof(json_pct) / sizeof(json_pct[0]); i++) {
		snprintf(key, sizeof(key), "%s_pct%2.1f", name, json_pct[i]);
		json_object_set_new(o, key, json_integer(llround(
			(double)hist_percentile(h, json_pct[i]) / scale)));
	}
	snprintf(key, sizeof(key), "%s_min", name);
	json_object_set_new(o, key, json_integer(llround((double)hist_min(h) / scale)));
	snprintf(key, sizeof(key), "%s_max", name);
	json_object_set_new(o, key, json_integer(llround((double)hist_max(h) / scale)));
}

int wakeup_write_json(const struct wakeup_cfg *cfg, const struct hist *wlat,
		      const struct hist *rlat, const struct hist *rps)
{
	json_t *root = json_object(), *normal = json_object(), *num = json_object();
	bool out = !strcmp(cfg->json, "-");
	struct utsname u;
	FILE *f;
	int rc = 0;

	uname(&u);
	json_object_set_new(normal, "version", json_string(u.release));
	if (strcmp(cfg->jobname, "none"))
		json_object_set_new(normal, "jobname", json_string(cfg->jobname));
	json_object_set_new(normal, "hostname", hostname(u.nodename));
	json_object_set_new(normal, "sched_ext", sched_ext());
	json_object_set_new(normal, "cmdline", cmdline());
	json_object_set_new(num, "time", json_integer((json_int_t)time(NULL)));
	add_block(num, "wakeup_latency", wlat, 1000);
	if (!cfg->pipe_bytes) {	/* schbench's pipe mode has only wakeups */
		add_block(num, "request_latency", rlat, 1000);
		add_block(num, "rps", rps, 1);
	}
	json_object_set_new(num, "runtime", json_integer(cfg->runtime));
	json_object_set_new(root, "normal", normal);
	json_object_set_new(root, "int", num);

	f = out ? stdout : fopen(cfg->json, "w");
	if (!f)
		rc = error_errno("wakeup: -j/--json '%s'", cfg->json);
	else if (json_dumpf(root, f, JSON_PRESERVE_ORDER) || fflush(f))
		rc = error_errno("wakeup: writing -j/--json '%s'", cfg->json);
	if (f && !out && fclose(f) && !rc)
		rc = error_errno("wakeup: closing -j/--json '%s'", cfg->json);
	json_decref(root);
	return rc;
}
