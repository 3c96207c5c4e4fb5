/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ab_variant.h: ab's variants (ab_variant.c): what ab.c runs beside each
 * other, from --variant or the job file's [variant:NAME] sections.
 */
#ifndef SCHEDLAB_CMD_AB_VARIANT_H
#define SCHEDLAB_CMD_AB_VARIANT_H

#include <stddef.h>
#include <stdio.h>

#include "harness/plan.h"
#include "options.h"

#define AB_MAX_VARIANTS 16

/*
 * The variants into v[0..*nv): given (--variant's), else the plan's
 * [variant:NAME] sections; two or more, each name once, at most
 * AB_MAX_VARIANTS. -1 after error(); v[0..*nv) are the caller's to free
 * (plan_variant_free()) either way.
 */
int ab_variants(const struct opt_list *given, const struct plan *plan,
		struct plan_variant *v, size_t *nv);

/* The variants' header: "# N variants, ..." and a line each. */
void ab_print_variants(FILE *f, const struct plan_variant *v, size_t n);

#endif
