// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/local.c: the commands a campaign runs at boot, as root - the
 * hook, the states' checks, a bisect's build and repository, the job -
 * kept in a file of this machine's own (DIR/NAME.cmd, mode 0600), where
 * start and bisect write them. The store's document is shared: in a
 * fleet every lab machine logs in as the one agent role, which may
 * update any campaign's row (doc/fleet.md). So resume runs a campaign
 * only when its stored commands are the ones this file holds, the file
 * owned by this user and written by nobody else; anything else is
 * refused before a command runs. The store keeps the boots, the runs and
 * the verdict, and the commands for display.
 *
 * The directory: $SCHEDLAB_CAMPAIGN_DIR, else the state directory's
 * campaigns/ (/var/lib/schedlab/campaigns for root; harness/journal.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "harness/journal.h"
#include "util.h"

#define CMD_SCHEMA "schedlab-campaign-commands/1"

int campaign_cmd_dir(char *buf, size_t len)
{
	const char *s = getenv("SCHEDLAB_CAMPAIGN_DIR");
	char state[PATH_MAX];
	int n;

	if (s && *s)
		n = snprintf(buf, len, "%s", s);
	else if (switch_state_dir(state, sizeof(state)))
		return error("campaign: no directory for its command files (set SCHEDLAB_CAMPAIGN_DIR or HOME)");
	else
		n = snprintf(buf, len, "%s/campaigns", state);
	if (n < 0 || (size_t)n >= len)
		return error("campaign: the command files' directory is too long a path");
	return 0;
}

static int cmd_path(const char *name, char *buf, size_t len)
{
	char dir[PATH_MAX];
	int n;

	if (campaign_cmd_dir(dir, sizeof(dir)))
		return -1;
	n = snprintf(buf, len, "%s/%s.cmd", dir, name);
	return n < 0 || (size_t)n >= len ?
		error("campaign %s: its command file's path is too long", name) : 0;
}

/* The states whose commands were fixed at start: all of an A/B's; a
 * bisect's good and bad (its steps' states take good's check). */
static size_t fixed_states(const struct campaign *c)
{
	return c->bisect ? 2 : c->nstates;
}

/* What c runs, as the command file holds it. */
static json_t *commands(const struct campaign *c)
{
	json_t *states = json_array();

	for (size_t i = 0; i < fixed_states(c); i++)
		json_array_append_new(states, json_pack("{s:s, s:s*, s:s*}",
				      "name", c->states[i].name,
				      "check", c->states[i].check,
				      "commit", c->states[i].commit));
	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:s*, s:s*}",
			 "schema", CMD_SCHEMA, "name", c->name, "job", c->job,
			 "hook", c->hook, "states", states,
			 "repo", c->bisect ? c->bisect->repo : NULL,
			 "build", c->bisect ? c->bisect->build : NULL);
}

int campaign_cmd_write(const struct campaign *c, char **tmp)
{
	char dir[PATH_MAX], *bad;
	json_t *doc = NULL;
	char *text = NULL;
	int fd = -1, rc = -1;

	*tmp = NULL;
	if (campaign_cmd_dir(dir, sizeof(dir)))
		return -1;
	bad = mkdir_p(dir, 0700);
	if (bad) {
		error_errno("campaign %s: cannot make %s for its command file", c->name, bad);
		free(bad);
		return -1;
	}
	*tmp = xasprintf("%s/.%s.cmd.XXXXXX", dir, c->name);
	fd = mkstemp(*tmp);	/* 0600 */
	if (fd < 0) {
		error_errno("campaign %s: cannot write its command file in %s", c->name, dir);
		goto out;
	}
	doc = commands(c);
	text = json_dumps(doc, JSON_INDENT(2) | JSON_SORT_KEYS);
	if (!text || write_all(fd, text, strlen(text)) || write_all(fd, "\n", 1) ||
	    fsync(fd)) {
		error_errno("campaign %s: cannot write its command file %s", c->name, *tmp);
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	if (rc)
		campaign_cmd_discard(tmp);
	free(text);
	json_decref(doc);
	return rc;
}

int campaign_cmd_commit(const struct campaign *c, char **tmp)
{
	char path[PATH_MAX];

	if (cmd_path(c->name, path, sizeof(path)))
		return -1;
	if (rename(*tmp, path)) {
		error_errno("campaign %s: cannot put its command file at %s", c->name, path);
		campaign_cmd_discard(tmp);
		return -1;
	}
	free(*tmp);
	*tmp = NULL;
	return 0;
}

void campaign_cmd_discard(char **tmp)
{
	if (*tmp)
		unlink(*tmp);
	free(*tmp);
	*tmp = NULL;
}

/* Owned by this user, written by nobody else: -1 after error(). */
static int trusted(const struct campaign *c, const char *what, const char *path,
		   const struct stat *sb)
{
	if (sb->st_uid != geteuid())
		return error("campaign %s: %s %s is owned by uid %u, not by this user (uid %u): nothing run",
			     c->name, what, path, (unsigned)sb->st_uid, (unsigned)geteuid());
	if (sb->st_mode & 022)
		return error("campaign %s: %s %s may be written by others (mode %04o): nothing run",
			     c->name, what, path, (unsigned)(sb->st_mode & 07777));
	return 0;
}

/* The stored value at key of the campaign against the file's. */
static const char *differs(const json_t *mine, const json_t *theirs)
{
	static char field[64];
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)mine, key, v) {
		json_t *w = json_object_get(theirs, key);

		if (!strcmp(key, "states") && json_is_array(w) &&
		    json_array_size(w) == json_array_size(v)) {
			for (size_t i = 0; i < json_array_size(v); i++) {
				const char *sub = differs(json_array_get(v, i),
							  json_array_get(w, i));

				if (sub) {
					snprintf(field, sizeof(field), "states[%zu].%s", i,
						 sub);
					return field;
				}
			}
			continue;
		}
		if (!w || !json_equal(v, w))
			return key;
	}
	return NULL;
}

int campaign_cmd_verify(const struct campaign *c, bool missing_ok)
{
	char path[PATH_MAX], dir[PATH_MAX];
	json_t *doc = NULL, *mine = NULL;
	struct stat sb;
	json_error_t je;
	const char *field;
	char *text;
	size_t len;
	int fd, rc = -1;

	if (cmd_path(c->name, path, sizeof(path)) || campaign_cmd_dir(dir, sizeof(dir)))
		return -1;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && missing_ok)
		return 0;
	if (fd < 0)
		return error_errno("campaign %s: its command file %s (written by the campaign start or bisect that made it, on this machine)",
				   c->name, path);
	if (stat(dir, &sb) || trusted(c, "the command files' directory", dir, &sb) ||
	    fstat(fd, &sb) || trusted(c, "its command file", path, &sb))
		goto out;
	if (!S_ISREG(sb.st_mode)) {
		error("campaign %s: its command file %s is not a file: nothing run", c->name, path);
		goto out;
	}
	text = read_fd_all(fd, 1 << 20, &len);
	doc = text ? json_loads(text, 0, &je) : NULL;
	free(text);
	if (!doc || !json_is_object(doc)) {
		error("campaign %s: its command file %s is not a %s document: nothing run",
		      c->name, path, CMD_SCHEMA);
		goto out;
	}
	mine = commands(c);
	field = differs(mine, doc);
	if (!field)
		field = differs(doc, mine);
	for (size_t i = fixed_states(c); !field && i < c->nstates; i++) {
		const char *a = c->states[i].check, *b = c->states[0].check;

		if (a ? !b || strcmp(a, b) : !!b)
			field = "a step's check";
	}
	if (field) {
		error("campaign %s: its %s in the store differs from the command file %s: the store's copy was changed after start; nothing run (the file holds what this machine agreed to run)",
		      c->name, field, path);
		goto out;
	}
	rc = 1;
out:
	json_decref(mine);
	json_decref(doc);
	close(fd);
	return rc;
}
