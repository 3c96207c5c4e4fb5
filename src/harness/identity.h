/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * identity: what makes a case of one run the same case as one of
 * another run, made weeks apart by another schedlab.
 *
 * A case is identified by its workload, the workload's semantics
 * version (struct workload .version: what it measures; bumped when that
 * changes, and runs of two versions do not compare) and its params: the
 * options whose value differs from the default, "name=value" words in
 * the order of the option names, space-separated - "" when every option
 * has its default. An option added later with a default that keeps
 * today's behaviour therefore changes no stored case's identity. The
 * other side of that bargain: changing an option's default changes
 * what the cases that leave it alone measure - bump the version then.
 *
 * Run settings that change results but are not workload options (cpus;
 * probes when not "on") are kept beside the identity, with the case.
 *
 * Runs stored before (schema 2 databases, export documents without a
 * "version") held every option in params: identity_upgrade() rewrites
 * such a string into the identity.
 */
#ifndef SCHEDLAB_IDENTITY_H
#define SCHEDLAB_IDENTITY_H

#include <jansson.h>

#include "workload/workload.h"

struct plan_case;

/* wl's semantics version: its .version, 0 there meaning 1. */
unsigned identity_version(const struct workload *wl);

/* The params of a config of wl, as above; free() it. */
char *identity_params(const struct workload *wl, const void *cfg);

/*
 * An old params string (any option, any order, old option names
 * included) as the identity: each "name=value" word resolved with
 * opt_find() and written with the option's canonical name, dropped when
 * its value is the default. A word it cannot resolve (no such option,
 * a value the option no longer accepts) is kept as it was; text of an
 * unknown workload is returned unchanged. Says nothing. free() it;
 * NULL for NULL.
 */
char *identity_upgrade(const char *workload, const char *old);

/*
 * The run settings of a case as a JSON object of strings: {"cpus":
 * "0-1"} when it is pinned, "probes" when not "on", "monitors" (and
 * "monitor_interval" when not 1s) when it was monitored, and each setting
 * (harness/settings.h: "nice": "10", "sysctl.kernel.x": "37"); {} when
 * none.
 */
json_t *identity_settings(const struct plan_case *c);

#endif
