// SPDX-License-Identifier: GPL-2.0-only
/*
 * vocab: the names of the output formats and layouts, and the refusal of
 * a combination a command cannot print (vocab.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "report/vocab.h"
#include "util.h"

const char *const out_format_names[] = {
	[FMT_TEXT] = "text", [FMT_MARKDOWN] = "markdown", [FMT_CSV] = "csv",
	[FMT_JSON] = "json", [FMT_HTML] = "html", [FMT_PNG] = "png", NULL
};

const char *const out_layout_names[] = {
	[LAYOUT_RUN] = "run", [LAYOUT_MMTESTS] = "mmtests",
	[LAYOUT_VARIANTS] = "variants", [LAYOUT_WIDE] = "wide",
	[LAYOUT_GRID] = "grid", [LAYOUT_RAW] = "raw",
	[LAYOUT_WORKLOAD] = "workload", NULL
};

int out_refused(const char *cmd, const struct out_refusal *tab,
		enum out_layout layout, enum out_format format)
{
	char why[512];

	for (const struct out_refusal *r = tab; r->why; r++) {
		if (!(r->layouts & (1u << layout)) ||
		    !(r->formats & (1u << format)))
			continue;
		snprintf(why, sizeof(why), r->why, out_layout_names[layout],
			 out_format_names[format]);
		return error("%s: %s", cmd, why);
	}
	return 0;
}
