// SPDX-License-Identifier: GPL-2.0-only
/*
 * layout.c: the tables for reading (report/vocab.h's LAYOUTS_TABLES) by
 * their enum - compare --layout, ab --layout and show --layout print
 * through render_layout(), so that a new layout is a renderer and one
 * entry here; and a comparison on stdout in a --format or a --layout,
 * the labels of the formats people read escaped.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/html.h"
#include "report/render_compare.h"
#include "util.h"

static int variants(FILE *f, const struct comparison *c,
		    const struct run *const *runs, const struct layout_opts *lo)
{
	(void)runs;
	render_compare_variants(f, c, lo->markdown);
	return 0;
}

static int wide(FILE *f, const struct comparison *c,
		const struct run *const *runs, const struct layout_opts *lo)
{
	(void)runs;
	render_compare_wide(f, c, lo);
	return 0;
}

static int grid(FILE *f, const struct comparison *c,
		const struct run *const *runs, const struct layout_opts *lo)
{
	(void)runs;
	render_compare_grid(f, c, lo);
	return 0;
}

static int raw(FILE *f, const struct comparison *c,
	       const struct run *const *runs, const struct layout_opts *lo)
{
	(void)runs;
	render_compare_raw(f, c, lo);
	return 0;
}

static int (*const layouts[])(FILE *, const struct comparison *,
			      const struct run *const *,
			      const struct layout_opts *) = {
	[LAYOUT_VARIANTS] = variants,
	[LAYOUT_WIDE] = wide,
	[LAYOUT_GRID] = grid,
	[LAYOUT_RAW] = raw,
	[LAYOUT_WORKLOAD] = render_compare_workload,
};

int render_layout(FILE *f, enum out_layout layout, const struct comparison *c,
		  const struct run *const *runs, const struct layout_opts *lo)
{
	if ((unsigned)layout >= sizeof(layouts) / sizeof(layouts[0]) ||
	    !layouts[layout])
		return -1;
	return layouts[layout](f, c, runs, lo);
}

/*
 * The comparison with its runs' names made one cell each (text_field():
 * a label's newline as "\\n"), for the renderers of text, markdown and
 * CSV, whose stream (text_safe()) keeps newlines: a label must not start
 * a row of its own. JSON and HTML escape names themselves. Free with
 * unescape_names().
 */
static struct comparison escape_names(const struct comparison *c)
{
	struct comparison t = *c;

	t.runs = xcalloc(c->nruns ? c->nruns : 1, sizeof(*t.runs));
	for (size_t k = 0; k < c->nruns; k++) {
		t.runs[k] = c->runs[k];
		t.runs[k].name = text_field(c->runs[k].name, "");
	}
	return t;
}

static void unescape_names(struct comparison *t)
{
	for (size_t k = 0; k < t->nruns; k++)
		free((char *)t->runs[k].name);
	free(t->runs);
}

void render_compare_stdout(const struct comparison *c, enum out_format format)
{
	/* text, markdown and csv are read: their labels escaped */
	bool read = format == FMT_TEXT || format == FMT_MARKDOWN ||
		    format == FMT_CSV;
	FILE *f = read ? text_safe(stdout) : stdout;
	struct comparison t;

	if (read) {
		t = escape_names(c);
		c = &t;
	}

	switch (format) {
	case FMT_MARKDOWN: render_compare_markdown(f, c); break;
	case FMT_CSV: render_compare_csv(f, c); break;
	case FMT_JSON: render_compare_json(f, c); break;
	case FMT_HTML: render_compare_html(f, c); break;
	default: render_compare_text(f, c); break;
	}
	if (f != stdout) {
		fclose(f);
		unescape_names(&t);
	}
}

int render_layout_stdout(const struct comparison *c,
			 const struct run *const *rp, int layout, int stat,
			 bool markdown, const char *who)
{
	struct layout_opts lo = { .stat = stat, .markdown = markdown };
	FILE *f = text_safe(stdout);
	struct comparison t = escape_names(c);
	int rc = render_layout(f, layout, &t, rp, &lo);

	fclose(f);
	unescape_names(&t);
	if (rc)
		error("%s: --layout workload: " WL_TABLE_NONE, who);
	return rc;
}
