/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vocab: the one vocabulary of output formats and layouts. Every command
 * that prints runs takes --format, and some --layout, from these lists,
 * each value its enum everywhere: in a command's options, in the
 * renderers, in what they are handed. A command declares what it takes
 * (OPT_FORMAT's and OPT_LAYOUT's masks in its option table, cmd/setup.h),
 * the option parser refuses the rest naming what is taken, and a
 * combination the command cannot print is refused by out_refused() from
 * the command's own table, with one message.
 *
 * bench's --format is not of this vocabulary: it names a reference
 * tool's text that the workload reproduces (struct text_format), or json.
 *
 * Adding a format or a layout: append it to its enum and to the names in
 * vocab.c (their order is the order errors list them in), set it in the
 * masks of the commands that print it, and teach their renderers.
 */
#ifndef SCHEDLAB_REPORT_VOCAB_H
#define SCHEDLAB_REPORT_VOCAB_H

enum out_format {
	FMT_TEXT,	/* for a terminal: aligned, escaped */
	FMT_MARKDOWN,	/* the same tables for a mail or a tracker */
	FMT_CSV,	/* one row per value, for a spreadsheet */
	FMT_JSON,	/* every number, for a program */
	FMT_HTML,	/* a page, its tables and plots */
	FMT_PNG,	/* the plots alone */
};
#define FMT(f) (1u << FMT_##f)
extern const char *const out_format_names[];	/* by enum, NULL-ended */

enum out_layout {
	LAYOUT_RUN,	/* show: the run, its machine and summaries */
	LAYOUT_MMTESTS,	/* compare-kernels.sh's rows, verdicts, what moved */
	LAYOUT_VARIANTS, /* one table per job, a column per run */
	LAYOUT_WIDE,	/* sweep values as columns, a row per run */
	LAYOUT_GRID,	/* sweep values as rows, a column per run */
	LAYOUT_RAW,	/* every iteration's value */
	LAYOUT_WORKLOAD, /* the table the workload declares (AIM7's) */
};
#define LAYOUT(l) (1u << LAYOUT_##l)
extern const char *const out_layout_names[];	/* by enum, NULL-ended */

/* The layouts that are tables for reading: text or markdown only. */
#define LAYOUTS_TABLES \
	(LAYOUT(VARIANTS) | LAYOUT(WIDE) | LAYOUT(GRID) | LAYOUT(RAW) | \
	 LAYOUT(WORKLOAD))

/*
 * A combination a command refuses: any layout of layouts with any format
 * of formats, and why - a printf format given the layout's name, then
 * the format's. A command's table ends with { 0 }.
 */
struct out_refusal {
	unsigned layouts, formats;
	const char *why;
};

/* 0, or -1 after error("CMD: " why) for the first refusal that matches. */
int out_refused(const char *cmd, const struct out_refusal *tab,
		enum out_layout layout, enum out_format format);

#endif
