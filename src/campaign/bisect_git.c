// SPDX-License-Identifier: GPL-2.0-only
/*
 * campaign/bisect_git.c: the bisect mode's talk with git (util_git.c
 * runs it) - the repository and commits checked before a campaign
 * starts, and what git bisect log says a killed resume had already
 * done.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign/bisect_git.h"
#include "util.h"

/* git bisect checks out each commit: a tree with changes to tracked
 * files would make it fail after the campaign was stored. */
static int clean_tree(const char *repo)
{
	const char *args[] = { "status", "--porcelain", "--untracked-files=no", NULL };
	char *out = NULL, *nl;
	int rc = git_out(repo, &out, args);

	if (rc || (out && *out)) {
		nl = out ? strchr(out, '\n') : NULL;
		if (nl)
			*nl = '\0';
		rc = rc ? error("campaign bisect: --repo '%s': git status exited %d", repo, rc) :
			error("campaign bisect: --repo '%s': its work tree has changes (%s%s); git bisect checks out each commit: commit or stash them first",
			      repo, out, nl && nl[1] ? ", ..." : "");
	}
	free(out);
	return rc ? -1 : 0;
}

int bisect_validate(const char *repo, const char *good_arg, const char *bad_arg,
		    char *good, char *bad)
{
	const char *gitdir[] = { "rev-parse", "--git-dir", NULL };
	const char *log[] = { "bisect", "log", NULL };
	const char *anc[] = { "merge-base", "--is-ancestor", good, bad, NULL };

	if (access(repo, F_OK) || git_quiet(repo, gitdir))
		return error("campaign bisect: --repo '%s': not a git repository", repo);
	if (git_commit_hash(repo, good_arg, good))
		return error("campaign bisect: --good '%s': no such commit in %s", good_arg, repo);
	if (git_commit_hash(repo, bad_arg, bad))
		return error("campaign bisect: --bad '%s': no such commit in %s", bad_arg, repo);
	if (!strcmp(good, bad))
		return error("campaign bisect: --good '%s' and --bad '%s' are the same commit %.12s: nothing to bisect",
			     good_arg, bad_arg, good);
	if (git_quiet(repo, anc))
		return error("campaign bisect: --good '%s' is not an ancestor of --bad '%s': the first bad commit lies after the good one",
			     good_arg, bad_arg);
	if (!git_quiet(repo, log))
		return error("campaign bisect: a git bisect is in progress in %s (git bisect reset ends it)",
			     repo);
	return clean_tree(repo);
}

bool git_bisect_logged(const char *repo, const char *line)
{
	const char *args[] = { "bisect", "log", NULL };
	char *out;
	bool found = false;
	size_t len = strlen(line);

	if (!git_out(repo, &out, args))
		for (char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			if (!strncmp(p, line, len) && (p[len] == '\n' || !p[len])) {
				found = true;
				break;
			}
	free(out);
	return found;
}

int git_first_bad(const char *repo, char *hash)
{
	const char *args[] = { "bisect", "log", NULL };
	static const char tag[] = "# first bad commit: [";
	char *out, *p;
	int rc = git_out(repo, &out, args);

	if (rc) {
		error("campaign bisect: git bisect log in %s exited %d: %s", repo,
		      rc, out ? out : "");
		free(out);
		return -1;
	}
	p = strstr(out, tag);
	rc = p && strlen(p + sizeof(tag) - 1) >= 40;
	if (rc)
		snprintf(hash, 41, "%.40s", p + sizeof(tag) - 1);
	free(out);
	return rc;
}

int git_head(const char *repo, char *hash)
{
	return git_commit_hash(repo, "HEAD", hash);
}
