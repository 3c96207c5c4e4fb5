// SPDX-License-Identifier: GPL-2.0-only
/*
 * layout.c: the tables for reading (report/vocab.h's LAYOUTS_TABLES) by
 * their enum - compare --layout, ab --layout and show --layout print
 * through render_layout(), so that a new layout is a renderer and one
 * entry here.
 */
#include "report/render_compare.h"

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
