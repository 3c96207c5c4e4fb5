// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HTML page (report/html.c) over a comparison built by
 * compare_build() from three made-up runs: mmtests' table and the change
 * table byte for byte, every name escaped, no script; without gnuplot
 * the notes saying how to get the plots; plot_quote()'s gnuplot strings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "model/run.h"
#include "report/render_compare.h"
#include "report/html.h"
#include "report/plot.h"
#include "store/store.h"

#include "cmp_three.h"

/* mmtests' rows: bold Amean where significant, + is better (said in the
 * header), the values at the text table's decimals */
#define EXPECT_MM \
	"<table class=\"mm\"><tr><th class=\"l\">(%: + is better)</th><th class=\"l\">groups fds</th><th><span class=\"sw\" style=\"background:#1f77b4\"></span>base</th><th><span class=\"sw\" style=\"background:#d62728\"></span>&lt;b&gt;fast&amp;&#39;</th><th><span class=\"sw\" style=\"background:#2ca02c\"></span>same</th></tr>\n" \
	"<tr><td class=\"l\">Min</td><td class=\"l\">1 1</td><td>1.0000</td><td>0.9000 <span class=\"better\">(+10.00%)</span></td><td>1.0010 <span class=\"worse\">(-0.10%)</span></td></tr>\n" \
	"<tr><td class=\"l\">Min</td><td class=\"l\">1 2</td><td>2.0000</td><td>1.8000 <span class=\"better\">(+10.00%)</span></td><td>2.0020 <span class=\"worse\">(-0.10%)</span></td></tr>\n" \
	"<tr><td class=\"l\">Amean</td><td class=\"l\">1 1</td><td>1.0350</td><td class=\"sig\">0.9315 <span class=\"better\">(+10.00%)</span></td><td>1.0360 <span class=\"worse\">(-0.10%)</span></td></tr>\n" \
	"<tr><td class=\"l\">Amean</td><td class=\"l\">1 2</td><td>2.0700</td><td class=\"sig\">1.8630 <span class=\"better\">(+10.00%)</span></td><td>2.0721 <span class=\"worse\">(-0.10%)</span></td></tr>\n" \
	"<tr><td class=\"l\">Stddev</td><td class=\"l\">1 1</td><td>0.0245</td><td>0.0220 <span class=\"better\">(+10.00%)</span></td><td>0.0245 <span class=\"worse\">(-0.10%)</span></td></tr>\n" \
	"<tr><td class=\"l\">Stddev</td><td class=\"l\">1 2</td><td>0.0490</td><td>0.0441 <span class=\"better\">(+10.00%)</span></td><td>0.0490 <span class=\"worse\">(-0.10%)</span></td></tr>\n" \
	"<tr><td class=\"l\">CoeffVar</td><td class=\"l\">1 1</td><td>2.3667</td><td>2.3667 <span class=\"same\">(+0.00%)</span></td><td>2.3667 <span class=\"same\">(+0.00%)</span></td></tr>\n" \
	"<tr><td class=\"l\">CoeffVar</td><td class=\"l\">1 2</td><td>2.3667</td><td>2.3667 <span class=\"same\">(+0.00%)</span></td><td>2.3667 <span class=\"same\">(+0.00%)</span></td></tr>\n" \
	"<tr><td class=\"l\">Max</td><td class=\"l\">1 1</td><td>1.0700</td><td>0.9630 <span class=\"better\">(+10.00%)</span></td><td>1.0711 <span class=\"worse\">(-0.10%)</span></td></tr>\n" \
	"<tr><td class=\"l\">Max</td><td class=\"l\">1 2</td><td>2.1400</td><td>1.9260 <span class=\"better\">(+10.00%)</span></td><td>2.1421 <span class=\"worse\">(-0.10%)</span></td></tr>\n" \
	"<tr><td class=\"l\">BAmean-95</td><td class=\"l\">1 1</td><td>1.0300</td><td>0.9270 <span class=\"better\">(+10.00%)</span></td><td>1.0310 <span class=\"worse\">(-0.10%)</span></td></tr>\n" \
	"<tr><td class=\"l\">BAmean-95</td><td class=\"l\">1 2</td><td>2.0600</td><td>1.8540 <span class=\"better\">(+10.00%)</span></td><td>2.0621 <span class=\"worse\">(-0.10%)</span></td></tr>\n" \
	"</table>"

/* a verdict per row, as a class name too */
#define EXPECT_CHANGE \
	"<th>change (median; + is better)</th><th>95% interval</th><th>p</th><th class=\"l\">verdict</th><th class=\"l\">why</th></tr>\n" \
	"<tr class=\"v-improved\"><td class=\"l\">1 1</td><td class=\"l\"><span class=\"sw\" style=\"background:#d62728\"></span>&lt;b&gt;fast&amp;&#39;</td><td>+10.0%</td><td>[+6.9, +13.0]</td><td>0.0002</td><td class=\"l\">improved</td><td class=\"l\">significant, beyond 5%</td></tr>\n" \
	"<tr class=\"v-no-change\"><td class=\"l\">1 1</td><td class=\"l\"><span class=\"sw\" style=\"background:#2ca02c\"></span>same</td><td>-0.1%</td><td>[-3.5, +3.2]</td><td>0.7209</td><td class=\"l\">no change</td><td class=\"l\">interval within +-5%</td></tr>\n" \
	"<tr class=\"v-improved\"><td class=\"l\">1 2</td><td class=\"l\"><span class=\"sw\" style=\"background:#d62728\"></span>&lt;b&gt;fast&amp;&#39;</td><td>+10.0%</td><td>[+6.9, +13.0]</td><td>0.0002</td><td class=\"l\">improved</td><td class=\"l\">significant, beyond 5%</td></tr>\n" \
	"<tr class=\"v-no-change\"><td class=\"l\">1 2</td><td class=\"l\"><span class=\"sw\" style=\"background:#2ca02c\"></span>same</td><td>-0.1%</td><td>[-3.5, +3.2]</td><td>0.7209</td><td class=\"l\">no change</td><td class=\"l\">interval within +-5%</td></tr>\n" \
	"</table>"

static char *page(const struct comparison *c, const struct run *const *runs,
		  struct plot_batch *pb)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (runs)
		assert_int_equal(render_html_page(f, c, runs, pb), 0);
	else
		render_compare_html(f, c);
	fclose(f);
	return buf;
}

/* From the first from on to the end of the first to after it. */
static char *between(const char *text, const char *from, const char *to)
{
	const char *a = strstr(text, from), *b;

	if (!a)
		fail_msg("no '%s' in:\n%s", from, text);
	b = strstr(a, to);
	if (!b)
		fail_msg("no '%s' after '%s'", to, from);
	return strndup(a, (size_t)(b - a) + strlen(to));
}

static const char *const names[] = { "base", "<b>fast&'", "same" };

static void test_html_tables(void **state)
{
	struct three t;
	char *out, *mm, *ch;

	(void)state;
	build(&t, names);
	out = page(&t.c, NULL, NULL);
	mm = between(out, "<table class=\"mm\">", "</table>");
	ch = between(out, "<th>change (median; + is better)</th>", "</table>");
	assert_string_equal(mm, EXPECT_MM);
	assert_string_equal(ch, EXPECT_CHANGE);
	assert_null(strstr(out, "<b>fast"));
	assert_null(strstr(out, "<script"));
	assert_non_null(strstr(out, "<title>schedlab report: base vs &lt;b&gt;fast&amp;&#39; vs same</title>"));
	assert_non_null(strstr(out, "Tables only: <code>schedlab report RUN... -o DIR</code> draws the plots."));
	assert_int_equal(strncmp(out, "<!DOCTYPE html>\n", 16), 0);
	assert_non_null(strstr(out, "</body></html>\n"));
	free(mm);
	free(ch);
	free(out);
	three_free(&t);
}

/* A batch without gnuplot: the plots' places say how to get them. */
static void test_html_without_gnuplot(void **state)
{
	struct plot_batch pb;
	struct three t;
	const struct run *rp[3];
	char *out;

	(void)state;
	memset(&pb, 0, sizeof(pb));
	build(&t, names);
	for (int k = 0; k < 3; k++)
		rp[k] = &t.r[k];
	out = page(&t.c, rp, &pb);
	assert_non_null(strstr(out, "<p class=\"noplot\">This page has no plots: gnuplot is not installed here. <code>apt-get install gnuplot-nox</code>"));
	assert_non_null(strstr(out, "<p class=\"noplot\">No plot over the sweep values: gnuplot is not installed here."));
	assert_null(strstr(out, "<svg"));
	assert_non_null(strstr(out, "<h2>Environments</h2>\n<p>0 of 0 items differ.</p>"));
	free(out);
	three_free(&t);
}

static void test_plot_quote(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	plot_quote(f, "it's a\tb\n");
	fclose(f);
	assert_string_equal(buf, "'it''s ab'");
	free(buf);
	assert_string_equal(plot_colour(0), plot_colour(10));
	assert_string_not_equal(plot_colour(0), plot_colour(1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_tables),
		cmocka_unit_test(test_html_without_gnuplot),
		cmocka_unit_test(test_plot_quote),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
