/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot: drawing by gnuplot, found at run time in PATH. A batch owns a
 * temporary directory (removed by plot_close(), on every path: SIGINT,
 * SIGTERM and SIGHUP wait, blocked, until it is gone), the one
 * gnuplot script every plot of a page is written into - its data as
 * inline datablocks - and the pictures it makes: SVG to inline in a
 * page, or PNG files. plot_draw() runs gnuplot once, without a shell,
 * its standard input the script, its working directory the batch's,
 * under a time limit. Without gnuplot a batch takes plots and draws
 * none; plot_have() says so, so that the page can say how to get them.
 */
#ifndef SCHEDLAB_REPORT_PLOT_H
#define SCHEDLAB_REPORT_PLOT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PLOT_NONE ((size_t)-1)
#define PLOT_TIMEOUT_S 60
#define PLOT_HOWTO "apt-get install gnuplot-nox"

/* The colour of run k, the same in every plot and table of a page. */
const char *plot_colour(size_t k);

struct plot_batch {
	char *gnuplot;		/* its path; NULL: none in PATH */
	char dir[4096];		/* the temporary directory; "" when none */
	FILE *script;
	bool png;
	const char *png_term;	/* "pngcairo" or "png" */
	size_t n;
	char **name;		/* [n] PNG file names */
	char **svg;		/* [n] after plot_draw(): the <svg> or NULL */
	bool masked;		/* the stop signals blocked; old: the mask before */
	sigset_t old;
};

/*
 * An empty batch: SVG, or PNG when png. -1 after error() when the
 * temporary directory cannot be made; without gnuplot 0, with
 * b->gnuplot NULL.
 */
int plot_open(struct plot_batch *b, bool png);
static inline bool plot_have(const struct plot_batch *b)
{
	return b->gnuplot != NULL;
}

/*
 * Begins plot number *id (names the PNG "NN-STEM.png", STEM made safe)
 * of width x height pixels: the terminal and output are set, the rest
 * is the caller's, written to the stream returned - NULL without
 * gnuplot (*id is then PLOT_NONE). Datablocks must be named uniquely in
 * the batch: "$dID_..." with plot_begin's id.
 */
FILE *plot_begin(struct plot_batch *b, const char *stem, int width,
		 int height, size_t *id);

/* A gnuplot single-quoted string of s (control characters dropped). */
void plot_quote(FILE *f, const char *s);

/*
 * Runs gnuplot over the batch. -1 after error() when it cannot be run,
 * fails, runs past PLOT_TIMEOUT_S or a stop signal came (gnuplot is
 * then stopped at once); plots it drew are kept either way.
 */
int plot_draw(struct plot_batch *b);

/* Plot id's <svg> element (SVG batches), or NULL when it was not drawn. */
const char *plot_svg(const struct plot_batch *b, size_t id);

/* PNG batches: copies the PNGs into dir; -1 after error(). */
int plot_save_png(const struct plot_batch *b, const char *dir);

/*
 * Removes the temporary directory and frees b; then a stop signal that
 * came meanwhile ends the process as it would have.
 */
void plot_close(struct plot_batch *b);

#endif
