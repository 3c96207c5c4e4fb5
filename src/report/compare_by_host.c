// SPDX-License-Identifier: GPL-2.0-only
/*
 * report/compare_by_host.c: compare BASE CAND --by host's output - a
 * comparison block per host headed by the host and its topology (text,
 * markdown; csv's rows with the host in front), then a line per host
 * with the case that speaks for its verdict, and a note of the hosts
 * with one label only; json: one schedlab-compare-hosts/1 document.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/hosts.h"
#include "report/render_compare.h"
#include "util.h"

#define HOSTS_SCHEMA "schedlab-compare-hosts/1"

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
static void summary_line(FILE *f, const struct cmp_host *h, int width,
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
static void only_note(FILE *f, const struct cmp_host *h, size_t n,
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

static json_t *hosts_json(const struct cmp_host *h, size_t n,
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

void render_compare_hosts(const struct cmp_host *h, size_t n,
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
