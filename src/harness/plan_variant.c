// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_variant: a job file's [variant NAME] sections (plan.h's struct
 * plan_variant) taken out of the file before its jobs are read, their
 * names checked, and a variant's --set lines kept with where each came
 * from.
 */
#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness/plan.h"
#include "harness/plan_int.h"
#include "util.h"

#define VARIANT_PREFIX "variant:"
#define VARIANT_NAME_MAX 32

/* A variant's name: letters, digits, '_', '-', '.', '+'; not too long. */
bool plan_variant_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > VARIANT_NAME_MAX)
		return false;
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_-.+", *c))
			return false;
	return true;
}

/*
 * The [variant:NAME] sections of ld's file into p->variants, taken out
 * of the file's sections (they are not jobs).
 */
int plan_take_variants(struct loader *ld, struct plan *p)
{
	size_t keep = 0;

	for (size_t i = 0; i < ld->jf.nsec; i++) {
		struct section *sec = &ld->jf.sec[i];
		const char *name = sec->name + strlen(VARIANT_PREFIX);
		struct plan_variant *v;

		if (strncmp(sec->name, VARIANT_PREFIX, strlen(VARIANT_PREFIX))) {
			ld->jf.sec[keep++] = *sec;
			continue;
		}
		if (!plan_variant_name_ok(name))
			return error("%s:%u: [%s]: '%s' is not a variant name (expected up to %d letters, digits, '_', '-', '.' or '+')",
				     ld->path, sec->line, sec->name, name,
				     VARIANT_NAME_MAX);
		p->variants = plan_grow(p->variants, p->nvariants,
					sizeof(*p->variants));
		v = &p->variants[p->nvariants++];
		*v = (struct plan_variant){ .name = xstrdup(name),
					    .line = sec->line };
		for (size_t k = 0; k < sec->nkv; k++) {
			const struct kv *kv = &sec->kv[k];
			char *t = xmalloc(strlen(kv->key) + strlen(kv->value) + 2);
			char at[PATH_MAX + 64];

			sprintf(t, "%s=%s", kv->key, kv->value);
			snprintf(at, sizeof(at), "%s:%u", ld->path, kv->line);
			plan_variant_add(v, t, at);
			free(t);
			free(kv->key);
			free(kv->value);
			free(kv->origin);
		}
		free(sec->kv);
		free(sec->name);
	}
	ld->jf.nsec = keep;
	return 0;
}

void plan_variant_free(struct plan_variant *v)
{
	for (size_t k = 0; k < v->nsets; k++) {
		free(v->sets[k]);
		free(v->origins[k]);
	}
	free(v->sets);
	free(v->origins);
	free(v->name);
	memset(v, 0, sizeof(*v));
}

void plan_variant_add(struct plan_variant *v, const char *set,
		      const char *origin)
{
	v->sets = xrealloc(v->sets, (v->nsets + 2) * sizeof(*v->sets));
	v->origins = xrealloc(v->origins, (v->nsets + 2) * sizeof(*v->origins));
	v->sets[v->nsets] = xstrdup(set);
	v->origins[v->nsets++] = xstrdup(origin);
}
