// SPDX-License-Identifier: GPL-2.0-only
/*
 * report/html_util.c: what every part of the report page writes with -
 * text escaped, a run's colour swatch and column head, whether a job's
 * plot has a box per run (html_int.h) - a leaf that html.c and its
 * tables, plots, timelines and environments all use.
 */
#include <stdio.h>

#include "report/html.h"
#include "report/html_int.h"
#include "report/plot.h"

void html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				fprintf(f, "&#xfffd;");
			else
				fputc(*s, f);
		}
}

void html_swatch(FILE *f, size_t k)
{
	fprintf(f, "<span class=\"sw\" style=\"background:%s\"></span>",
		plot_colour(k));
}

void html_run_head(FILE *f, const struct comparison *c, size_t k)
{
	fputs("<th>", f);
	html_swatch(f, k);
	html_esc(f, c->runs[k].name);
	fputs("</th>", f);
}

/*
 * Whether job j is one case without a sweep: its plot has a box per run,
 * each named on the x axis, not one "-" tick of an axis called "case".
 */
bool html_by_run(const struct cmp_job *j)
{
	return j->ncases == 1 && !*j->cases[0].sweep;
}
