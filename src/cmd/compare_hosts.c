// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab compare BASE CAND --by host: two labels compared on every
 * host that has a run with each (the latest of each there), one
 * comparison block per host headed by the host and its topology, then a
 * line per host with its verdict - seed 003's per-machine result, where
 * one patch regresses two machines and improves two others. Hosts with
 * only one of the labels are named in a note. The runs are found by
 * store_runs() (label, host, started) and paired by host
 * (compare/hosts.h); each block is compare_build()'s, styled as compare
 * styles two runs, and report/compare_by_host.c renders them all, so
 * --format text, markdown, csv and json say per host what they say for
 * two runs (the json document: doc/statistics.md).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/compare_cli.h"
#include "compare/hosts.h"
#include "model/run.h"
#include "report/render_compare.h"
#include "report/render.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

/* BASE and CAND must be labels: one run (id, uuid, file) is one host's. */
static int check_label(const char *spec)
{
	struct stat sb;

	if (!strcmp(spec, "-") || (stat(spec, &sb) == 0 && S_ISREG(sb.st_mode)))
		return error("compare: --by host: '%s' is an export file, one run of one host; --by host takes two labels (BASE CAND) and finds their runs on each host",
			     spec);
	if (*spec && !spec[strspn(spec, "0123456789")])
		return error("compare: --by host: '%s' is a run id, one run of one host; --by host takes two labels (BASE CAND) and finds their runs on each host",
			     spec);
	if (uuid_valid(spec))
		return error("compare: --by host: '%s' is a run's uuid, one run of one host; --by host takes two labels (BASE CAND) and finds their runs on each host",
			     spec);
	return 0;
}

int compare_by_host(const struct compare_opts *o, const struct cmp_opts *co,
		    unsigned rows, char *const *specs, int nspecs,
		    struct cmd_args *a)
{
	const char *const labels[2] = { specs[0], specs[1] };
	struct store_run_info *runs = NULL;
	struct cmp_host *h = NULL;
	struct store *st = NULL;
	size_t nruns = 0, n = 0, built = 0;
	int rc = EXIT_USAGE;

	if (nspecs != 2) {
		error("compare: --by host compares two labels (usage: schedlab compare BASE CAND --by host)");
		return EXIT_USAGE;
	}
	if (o->format == FMT_HTML) {
		error("compare: --by host prints text, markdown, csv or json, not html");
		return EXIT_USAGE;
	}
	if (check_label(specs[0]) || check_label(specs[1]))
		return EXIT_USAGE;
	a->who = "compare: --by host";
	st = cmd_store_ro(a, "see 'schedlab run'");
	if (!st || store_runs(st, &runs, &nruns))
		goto out;
	h = cmp_hosts_find(runs, nruns, labels, &n);
	for (size_t i = 0; i < n; i++) {
		const struct run *rp[2] = { &h[i].run[0], &h[i].run[1] };

		if (h[i].id[0] < 0 || h[i].id[1] < 0)
			continue;
		if (store_load(st, h[i].id[0], &h[i].run[0]) ||
		    store_load(st, h[i].id[1], &h[i].run[1]))
			goto out;
		if (compare_build(rp, labels, 2, co, o->match == MATCH_JOB, st, &h[i].c)) {
			error("compare: --by host: on host %s, runs %" PRId64 " and %" PRId64 " have nothing to compare",
			      h[i].host, h[i].id[0], h[i].id[1]);
			goto out;
		}
		h[i].built = true;
		if (compare_test_decided("compare", o->test, &h[i].c))
			goto out;
		h[i].c.rows = rows;
		compare_style(o, &h[i].c);
		render_topology_brief(h[i].topology, sizeof(h[i].topology),
				      h[i].run[0].environment);
		built++;
	}
	if (!built) {
		error("compare: --by host: no host has runs labelled both '%s' and '%s' in %s",
		      labels[0], labels[1], store_path(st));
		goto out;
	}
	render_compare_hosts(h, n, labels, o->format);
	rc = EXIT_OK;
out:
	for (size_t i = 0; i < n; i++) {
		if (h[i].built)
			compare_free(&h[i].c);
		run_free(&h[i].run[0]);
		run_free(&h[i].run[1]);
	}
	free(h);
	store_runs_free(runs, nruns);
	return rc;
}
