// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedlab compare BASE CAND --by host: two labels compared on every
 * host that has a run with each (the latest of each there), one
 * comparison block per host headed by the host and its topology, then a
 * line per host with its verdict - seed 003's per-machine result, where
 * one patch regresses two machines and improves two others. Hosts with
 * only one of the labels are named in a note. The runs are found by
 * store_runs() (label, host, started); each block is compare_build()'s
 * and its renderers', so --format text, markdown, csv and json say per
 * host what they say for two runs (the json document: doc/statistics.md).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/compare_cli.h"
#include "model/run.h"
#include "report/render_compare.h"
#include "report/render.h"
#include "store/load.h"
#include "store/store.h"
#include "util.h"

#define HOSTS_SCHEMA "schedlab-compare-hosts/1"

/* One host: the run each label stands for there (-1: none). */
struct host_pair {
	const char *host;	/* borrowed from the run list */
	int64_t id[2];
	int rank[2];		/* label_rank() of id[] */
	struct run run[2];
	struct comparison c;
	bool built;
	char topology[128];
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct host_pair *)a)->host,
		      ((const struct host_pair *)b)->host);
}

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

/*
 * How well a run stands for its label (store_resolve()'s rule): 2
 * complete with cases, 1 with cases, 0 without.
 */
static int label_rank(const struct store_run_info *r)
{
	if (!r->cases)
		return 0;
	return r->status && !strcmp(r->status, "complete") ? 2 : 1;
}

/*
 * The hosts with a run labelled labels[0] or labels[1] into *hosts (*n),
 * by name, each with the run of each label that a label stands for
 * (store_resolve(): the latest complete one with cases, else ...; runs
 * are newest first). Runs without a host are left out.
 */
static struct host_pair *find_hosts(const struct store_run_info *runs,
				    size_t nruns, const char *const labels[2],
				    size_t *n)
{
	struct host_pair *h = xcalloc(nruns ? nruns : 1, sizeof(*h));

	*n = 0;
	for (size_t i = 0; i < nruns; i++) {
		const struct store_run_info *r = &runs[i];
		size_t k;
		int which;

		if (!r->host || !r->label)
			continue;
		if (!strcmp(r->label, labels[0]))
			which = 0;
		else if (!strcmp(r->label, labels[1]))
			which = 1;
		else
			continue;
		for (k = 0; k < *n && strcmp(h[k].host, r->host); k++)
			;
		if (k == *n)
			h[(*n)++] = (struct host_pair){ .host = r->host,
							.id = { -1, -1 } };
		if (h[k].id[which] < 0 || label_rank(r) > h[k].rank[which]) {
			h[k].id[which] = r->id;
			h[k].rank[which] = label_rank(r);
		}
	}
	qsort(h, *n, sizeof(*h), by_name);
	return h;
}

/*
 * A candidate's change, + better: the test's, else (too few samples for
 * it) mmtests' percentage of the mean row.
 */
static double cell_change(const struct cmp_cell *cell)
{
	return isnan(cell->r.change) ? cell->pct[MM_MEAN] : cell->r.change;
}

/*
 * The headline case that speaks for a host's verdict: of the cases
 * with that verdict (any, when nothing changed), the largest change.
 */
static bool deciding_case(const struct comparison *c, const struct cmp_job **jp,
			  const struct cmp_case **cp)
{
	double best = -1;

	*jp = NULL;
	for (size_t jn = 0; jn < c->njobs; jn++) {
		const struct cmp_job *j = &c->jobs[jn];

		if (!j->metric.headline)
			continue;
		for (size_t i = 0; i < j->ncases; i++) {
			const struct cmp_result *r = &j->cases[i].cell[1].r;
			bool counts = c->overall == V_NO_CHANGE ||
				      c->overall == V_INCONCLUSIVE ||
				      r->verdict == c->overall;

			double ch = cell_change(&j->cases[i].cell[1]);

			if (!j->cases[i].cell[1].ok || isnan(ch) || !counts ||
			    fabs(ch) <= best)
				continue;
			best = fabs(ch);
			*jp = j;
			*cp = &j->cases[i];
		}
	}
	return *jp;
}

/* "lkp-a  msg groups=1  messaging.time  -15.20%  regressed" */
static void summary_line(FILE *f, const struct host_pair *h, int width,
			 bool markdown)
{
	const struct comparison *c = &h->c;
	const struct cmp_job *j;
	const struct cmp_case *cs;
	char what[256] = "-", metric[128] = "-", change[32] = "-";
	char *host = text_field(h->host, "-");

	if (deciding_case(c, &j, &cs)) {
		snprintf(what, sizeof(what), "%s%s%s", j->job, *cs->sweep ? " " : "",
			 cs->sweep);
		snprintf(metric, sizeof(metric), "%s", j->metric.name);
		snprintf(change, sizeof(change), "%+.2f%%", cell_change(&cs->cell[1]));
	}
	if (markdown)
		fprintf(f, "| %s | %s | %s | %s | %s |\n", host, what, metric,
			change, verdict_names[c->overall]);
	else
		fprintf(f, "%-*s  %-24s %-20s %9s  %s\n", width, host, what,
			metric, change, verdict_names[c->overall]);
	free(host);
}

/* The hosts with one label only, in one note; nothing when none. */
static void only_note(FILE *f, const struct host_pair *h, size_t n,
		      const char *const labels[2])
{
	size_t shown = 0;

	for (int which = 0; which < 2; which++) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++) {
			if (h[i].id[which] < 0 || h[i].id[!which] >= 0)
				continue;
			fprintf(f, "%s%s", k++ ? ", " : shown++ ? "; " : "note: ",
				h[i].host);
		}
		if (k)
			fprintf(f, " ha%s only %s", k == 1 ? "s" : "ve",
				labels[which]);
	}
	if (shown)
		fputs(", not compared\n", f);
}

/*
 * csv: compare's rows of each host with the host in front, the header
 * once. text is changed.
 */
static void csv_block(FILE *f, const char *host, char *text, bool header)
{
	bool quote = strpbrk(host, ",\"\n") != NULL;
	char *save, *line = strtok_r(text, "\n", &save);

	if (line && header)
		fprintf(f, "host,%s\n", line);
	while ((line = strtok_r(NULL, "\n", &save))) {
		if (quote) {
			fputc('"', f);
			for (const char *p = host; *p; p++)
				fputs(*p == '"' ? "\"\"" : (char[2]){ *p, 0 }, f);
			fputc('"', f);
		} else {
			fputs(host, f);
		}
		fprintf(f, ",%s\n", line);
	}
}

/* What a renderer writes, as a string (malloc'd). */
static char *rendered(const struct comparison *c, enum out_format format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		error_errno("compare: --by host");
		return xstrdup("");
	}
	if (format == FMT_CSV)
		render_compare_csv(m, c);
	else
		render_compare_json(m, c);
	fclose(m);
	return buf;
}

static json_t *hosts_json(const struct host_pair *h, size_t n,
			  const char *const labels[2])
{
	json_t *doc = json_object(), *a = json_array(), *only = json_array();

	json_object_set_new(doc, "schema", json_string(HOSTS_SCHEMA));
	json_object_set_new(doc, "base", json_string(labels[0]));
	json_object_set_new(doc, "candidate", json_string(labels[1]));
	for (size_t i = 0; i < n; i++) {
		json_t *one;
		char *text;

		if (!h[i].built) {
			json_array_append_new(only, json_pack("{s:s, s:s}",
				"host", h[i].host, "has",
				labels[h[i].id[0] < 0]));
			continue;
		}
		text = rendered(&h[i].c, FMT_JSON);
		one = json_pack("{s:s, s:s, s:s, s:o}", "host", h[i].host,
				"topology", h[i].topology, "verdict",
				verdict_names[h[i].c.overall], "comparison",
				json_loads(text, 0, NULL) ?: json_null());
		free(text);
		json_array_append_new(a, one);
	}
	json_object_set_new(doc, "hosts", a);
	json_object_set_new(doc, "only", only);
	return doc;
}

static void render_hosts(const struct host_pair *h, size_t n,
			 const char *const labels[2], enum out_format format)
{
	FILE *f = format == FMT_CSV || format == FMT_JSON ? stdout :
		  text_safe(stdout);
	bool header = true, md = format == FMT_MARKDOWN;
	int width = 4;

	char *host;

	for (size_t i = 0; i < n; i++) {
		if (!h[i].built)
			continue;
		host = text_field(h[i].host, "-");
		if ((int)strlen(host) > width)
			width = (int)strlen(host);
		free(host);
	}
	if (format == FMT_JSON) {
		json_t *doc = hosts_json(h, n, labels);

		json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			   JSON_REAL_PRECISION(17));
		fputc('\n', f);
		json_decref(doc);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!h[i].built)
			continue;
		if (format == FMT_CSV) {
			char *text = rendered(&h[i].c, FMT_CSV);

			csv_block(f, h[i].host, text, header);
			header = false;
			free(text);
			continue;
		}
		host = text_field(h[i].host, "-");
		fprintf(f, md ? "## host %s%s%s%s\n\n" : "== host %s%s%s%s ==\n\n",
			host, *h[i].topology ? " (" : "", h[i].topology,
			*h[i].topology ? ")" : "");
		free(host);
		if (md)
			render_compare_markdown(f, &h[i].c);
		else
			render_compare_text(f, &h[i].c);
		fputc('\n', f);
	}
	if (format == FMT_CSV)
		return;
	fprintf(f, md ? "## %s against %s, by host\n\n" : "== %s against %s, by host ==\n",
		labels[1], labels[0]);
	if (md)
		fputs("| host | case | metric | change | verdict |\n"
		      "|---|---|---|---:|---|\n", f);
	else
		fprintf(f, "%-*s  %-24s %-20s %9s  %s\n", width, "HOST", "CASE",
			"METRIC", "CHANGE", "VERDICT");
	for (size_t i = 0; i < n; i++)
		if (h[i].built)
			summary_line(f, &h[i], width, md);
	if (md)
		fputc('\n', f);
	only_note(f, h, n, labels);
	fclose(f);
}

int compare_by_host(const struct compare_opts *o, const struct cmp_opts *co,
		    unsigned rows, char *const *specs, int nspecs,
		    struct cmd_args *a)
{
	const char *const labels[2] = { specs[0], specs[1] };
	struct store_run_info *runs = NULL;
	struct host_pair *h = NULL;
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
	h = find_hosts(runs, nruns, labels, &n);
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
	render_hosts(h, n, labels, o->format);
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
