// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/drive.c: a campaign as its command drives it - made (its
 * lock taken, its command file written, stored, begun), loaded from the
 * store, resumed under its lock (one, or every one this machine
 * started), aborted; a VM campaign's boots driven on in this process.
 * cmd/campaign_cli.c parses the options and calls these.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "harness/plan.h"
#include "store/store.h"
#include "util.h"

int campaign_step(struct campaign *c, struct store *st, const char *db)
{
	int rc;

	if (strcmp(c->status, "running"))
		return !strcmp(c->status, "finished") ? 0 : 1;
	if (c->bisect && (!c->bisect->started || !c->nboots))
		return bisect_begin(c, st, db);
	if (!c->nboots)
		return campaign_first_hook(c, st, db);
	rc = campaign_boot_step(c, st, db);
	if (rc != CAMPAIGN_BOOT_MEASURED)
		return rc;
	return c->bisect ? bisect_next(c, st, db) : campaign_ab_next(c, st, db);
}

int campaign_vm_drive(struct campaign *c, struct store *st, const char *db,
		      int rc)
{
	while (c->vm && rc == CAMPAIGN_EXIT_NEXT_BOOT)
		rc = campaign_step(c, st, db);
	return rc;
}

char *campaign_job_spec(const char *spec)
{
	struct plan p;
	struct stat sb;
	char full[PATH_MAX];

	if (plan_load_spec(spec, NULL, 0, &p))
		return NULL;
	plan_free(&p);
	if (!stat(spec, &sb) && realpath(spec, full))
		return xstrdup(full);
	return xstrdup(spec);
}

int campaign_create(struct campaign *c, const char *db, const char *who,
		    int (*begin)(struct campaign *, struct store *, const char *))
{
	struct store *st;
	char *tmp;
	int rc, lock = campaign_lock(db, c->name);

	if (lock < 0)
		return EXIT_USAGE;
	/* the commands resume will run, this machine's own copy: written
	 * before the campaign is stored, put in place once it is */
	if (campaign_cmd_write(c, &tmp)) {
		close(lock);
		return EXIT_USAGE;
	}
	st = store_open(db);
	if (!st) {
		campaign_cmd_discard(&tmp);
		close(lock);
		return EXIT_USAGE;
	}
	if (!c->max_boots)
		c->max_boots = campaign_plan_boots(st, c);
	rc = campaign_save(st, c, true);
	if (rc) {
		if (rc > 0)
			error("%s: a campaign '%s' exists in %s (campaign status %s)",
			      who, c->name, db, c->name);
		campaign_cmd_discard(&tmp);
		rc = EXIT_USAGE;
	} else if (campaign_cmd_commit(c, &tmp)) {
		rc = campaign_stop(c, st, "failed", EXIT_USAGE,
				   "its command file could not be put in place");
	} else {
		rc = campaign_vm_drive(c, st, db, begin(c, st, db));
	}
	store_close(st);
	close(lock);
	return rc;
}

int campaign_load(struct store *st, const char *name, struct campaign *c)
{
	json_t *doc;
	int rc = store_campaign_get(st, name, &doc);

	if (rc <= 0) {
		if (!rc)
			error("campaign: no campaign '%s' in %s (campaign status lists them)",
			      name, store_path(st));
		return EXIT_USAGE;
	}
	rc = campaign_from_json(doc, c);
	json_decref(doc);
	return rc ? EXIT_USAGE : 0;
}

int campaign_resume(struct store *st, const char *db, const char *name)
{
	struct campaign c;
	int rc, lock = campaign_lock(db, name);

	if (lock < 0)
		return EXIT_USAGE;
	/* loaded under the lock: what the last driver stored */
	rc = campaign_load(st, name, &c);
	if (rc) {
		close(lock);
		return rc;
	}
	if (strcmp(c.status, "running"))
		printf("campaign %s: %s after %zu boots\n%s", c.name, c.status,
		       c.nboots, c.verdict ? c.verdict : "");
	else if (campaign_cmd_verify(&c, false) < 0)
		rc = EXIT_USAGE;
	if (!rc)
		rc = campaign_vm_drive(&c, st, db, campaign_step(&c, st, db));
	campaign_free(&c);
	close(lock);
	return rc;
}

/* Of two resume exit statuses, the one that says more: the store (2),
 * then a campaign stopped without its verdict (1), then a boot to
 * follow (75), then ended (0). */
static int worse(int a, int b)
{
	static const int order[] = { EXIT_USAGE, 1, CAMPAIGN_EXIT_NEXT_BOOT };

	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (a == order[i] || b == order[i])
			return order[i];
	return a ? a : b;
}

int campaign_resume_all(struct store *st, const char *db)
{
	char **names;
	size_t n, running = 0, others = 0;
	int rc = 0, mine;

	if (store_campaign_names(st, &names, &n))
		return EXIT_USAGE;
	for (size_t i = 0; i < n; i++) {
		struct campaign c;

		if (campaign_load(st, names[i], &c)) {
			rc = EXIT_USAGE;
			continue;
		}
		mine = strcmp(c.status, "running") ? 0 : campaign_cmd_verify(&c, true);
		if (mine < 0)
			rc = worse(rc, EXIT_USAGE);
		else if (mine)	/* under its lock, as resume NAME */
			rc = worse(rc, campaign_resume(st, db, names[i]));
		running += mine > 0;
		others += !mine && !strcmp(c.status, "running");
		campaign_free(&c);
	}
	if (!running && !rc)
		printf("campaign: no campaign of this machine's is running in %s%s\n",
		       store_path(st), others ?
		       " (others are: their command files are on the machines that started them)" : "");
	split_free(names, n);
	return rc;
}

int campaign_abort(struct store *st, const char *name)
{
	struct campaign c;
	int rc = campaign_load(st, name, &c);

	if (rc)
		return rc;
	if (!strcmp(c.status, "running")) {
		free(c.status);
		c.status = xstrdup("aborted");
		rc = campaign_save(st, &c, false) ? EXIT_USAGE : 0;
		if (!rc)
			printf("campaign %s: aborted after %zu boots\n", c.name, c.nboots);
	} else {
		printf("campaign %s: already %s\n", c.name, c.status);
	}
	campaign_free(&c);
	return rc;
}
