/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * campaign/bisect_git.h: the bisect mode's calls of git (bisect_git.c):
 * a command's output, the first bad commit and the lines of git bisect
 * log that say what a killed resume had already told git.
 */
#ifndef SCHEDLAB_CAMPAIGN_BISECT_GIT_H
#define SCHEDLAB_CAMPAIGN_BISECT_GIT_H

#include <stdbool.h>

#include "util_git.h"

/* Whether git bisect log has the line, exactly. */
bool git_bisect_logged(const char *repo, const char *line);
/* 1 with the first bad commit git bisect named (hash: 41 bytes), 0 when
 * it has named none, -1 after error() (no bisect in progress). */
int git_first_bad(const char *repo, char *hash);
/* HEAD's full hash into hash (41 bytes); -1 when none. */
int git_head(const char *repo, char *hash);

#endif
