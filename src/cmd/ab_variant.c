// SPDX-License-Identifier: GPL-2.0-only
/*
 * ab_variant.c: ab's variants (ab_variant.h) - each --variant 'NAME: KEY=VALUE
 * ...' read as a shell reads words, or the job file's [variant:NAME]
 * sections, checked, and said in the header of ab's output.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/ab_variant.h"
#include "util.h"

/*
 * The next word of s (blanks between words; 'single' and "double"
 * quotes and backslashes as a shell reads them) into *word; NULL at the
 * end. *bad: an unterminated quote.
 */
static const char *next_word(const char *s, char **word, bool *bad)
{
	size_t n = 0, cap = strlen(s) + 1;
	char *w, q = 0;

	s += strspn(s, " \t");
	if (!*s)
		return NULL;
	w = xmalloc(cap);
	for (; *s && (q || (*s != ' ' && *s != '\t')); s++) {
		if (q) {
			if (*s == q)
				q = 0;
			else if (*s == '\\' && q == '"' && s[1])
				w[n++] = *++s;
			else
				w[n++] = *s;
		} else if (*s == '\'' || *s == '"') {
			q = *s;
		} else if (*s == '\\' && s[1]) {
			w[n++] = *++s;
		} else {
			w[n++] = *s;
		}
	}
	w[n] = '\0';
	*bad = q != 0;
	*word = w;
	return s;
}

/* --variant 'NAME: KEY=VALUE ...' into v: 0, or -1 after error(). */
static int parse_variant(const char *arg, struct plan_variant *v)
{
	const char *colon = strchr(arg, ':'), *s;
	char *word, origin[512];
	bool bad = false;

	memset(v, 0, sizeof(*v));
	if (!colon)
		return error("ab: --variant '%s': expected 'NAME: KEY=VALUE ...' (the name, a colon, then settings; 'base:' for none)",
			     arg);
	v->name = xmalloc((size_t)(colon - arg) + 1);
	memcpy(v->name, arg, (size_t)(colon - arg));
	v->name[colon - arg] = '\0';
	for (size_t n = strlen(v->name); n && (v->name[n - 1] == ' ' ||
					       v->name[n - 1] == '\t');)
		v->name[--n] = '\0';
	memmove(v->name, v->name + strspn(v->name, " \t"),
		strlen(v->name + strspn(v->name, " \t")) + 1);
	if (!plan_variant_name_ok(v->name))
		return error("ab: --variant '%s': '%s' is not a variant name (expected up to 32 letters, digits, '_', '-', '.' or '+')",
			     arg, v->name);
	s = colon + 1;
	while ((s = next_word(s, &word, &bad))) {
		if (bad) {
			error("ab: --variant '%s': a quote is not closed", arg);
			free(word);
			return -1;
		}
		if (!strchr(word, '=') || word[0] == '=') {
			error("ab: --variant '%s': '%s' is not KEY=VALUE", arg, word);
			free(word);
			return -1;
		}
		snprintf(origin, sizeof(origin), "--variant %s: %s", v->name, word);
		plan_variant_add(v, word, origin);
		free(word);
	}
	return 0;
}

/* Variants from the plan's [variant:NAME] sections. */
static void file_variants(const struct plan *p, struct plan_variant *v)
{
	for (size_t i = 0; i < p->nvariants; i++) {
		memset(&v[i], 0, sizeof(v[i]));
		v[i].name = xstrdup(p->variants[i].name);
		for (size_t k = 0; k < p->variants[i].nsets; k++)
			plan_variant_add(&v[i], p->variants[i].sets[k],
				    p->variants[i].origins[k]);
	}
}

/*
 * The variants into v[0..*nv): given (--variant's), else the plan's [variant:NAME]
 * sections; two or more, each name once. -1 after error(); v[0..*nv)
 * are the caller's to free either way.
 */
int ab_variants(const struct opt_list *given, const struct plan *plan,
		struct plan_variant *v, size_t *nv)
{
	if (given->n > AB_MAX_VARIANTS ||
	    (!given->n && plan->nvariants > AB_MAX_VARIANTS))
		return error("ab: %zu variants; at most %d", given->n ?
			     given->n : plan->nvariants, AB_MAX_VARIANTS);
	if (given->n) {
		for (; *nv < given->n; ++*nv)
			if (parse_variant(given->v[*nv], &v[*nv])) {
				plan_variant_free(&v[*nv]);
				return -1;
			}
	} else {
		file_variants(plan, v);
		*nv = plan->nvariants;
	}
	if (*nv < 2)
		return error("ab: %s variant%s; ab compares two or more (--variant 'base:' --variant 'NAME: KEY=VALUE ...', or [variant:NAME] sections in the job file)",
			     *nv ? "one" : "no", *nv ? "" : "s");
	for (size_t i = 0; i < *nv; i++)
		for (size_t k = 0; k < i; k++)
			if (!strcmp(v[i].name, v[k].name))
				return error("ab: variant '%s' is given twice", v[i].name);
	return 0;
}

void ab_print_variants(FILE *f, const struct plan_variant *v, size_t n)
{
	fprintf(f, "# %zu variants, interleaved round by round (the first is the baseline):\n", n);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "#   %s:", v[i].name);
		if (!v[i].nsets)
			fprintf(f, " (the plan as it is)");
		for (size_t k = 0; k < v[i].nsets; k++) {
			const char *s = v[i].sets[k], *eq = strchr(s, '=');

			if (strpbrk(eq, " \t\"\\") && !strchr(eq, '\''))
				fprintf(f, " %.*s='%s'", (int)(eq - s), s, eq + 1);
			else
				fprintf(f, " %s", s);
		}
		fputc('\n', f);
	}
}
