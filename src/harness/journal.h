/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal: the restore journal of harness/switch.h's board, and its
 * recovery. One file per schedlab process that changes something, in
 * the state directory's restore/ (switch_state_dir()), written and
 * fsynced before the first change, held under flock(LOCK_EX) while the
 * process lives. A schedlab killed by SIGKILL (or a crash) leaves it;
 * the next schedlab invocation of any command takes the lock of every
 * journal whose owner is gone (switch_recover(), from main()), writes
 * the originals back, removes the cgroups, and says so on stderr. A
 * journal from an earlier boot is removed without restoring (a reboot
 * put the knobs back). One that cannot be restored (not root) stays,
 * with a warning.
 *
 * A journal is restore/PID.journal in the state directory, text:
 *   schedlab-restore 1 pid=PID boot=BOOT_ID
 *   file PATH VALUE        a file's original value
 *   feature PATH WORD      a sched feature's original word (X or NO_X)
 *   cgroup DIR             a cgroup directory the run created
 * PATH, VALUE and DIR escaped (journal_escape()). It is written as
 * PID-XXXXXX.tmp, locked (flock), fsynced, linked to its name and the
 * directory fsynced, all under flock() of the restore directory, which
 * recovery takes too; it stays locked while its schedlab lives.
 */
#ifndef SCHEDLAB_JOURNAL_H
#define SCHEDLAB_JOURNAL_H

#include <stddef.h>

/*
 * The state directory: $SCHEDLAB_STATE_DIR, else /var/lib/schedlab for
 * root, else $XDG_STATE_HOME/schedlab or ~/.local/state/schedlab. 0, or
 * -1 when buf is too small or no home is known.
 */
int switch_state_dir(char *buf, size_t len);

/*
 * Restores the journals their schedlab left, as above; quiet when there
 * are none. Returns how many were restored.
 */
int switch_recover(void);

/*
 * s with space, '%', every byte below 0x21 or above 0x7e as %XX:
 * malloc'ed. journal_unescape() undoes it: malloc'ed, or NULL when s
 * holds a '%' not followed by two hex digits.
 */
char *journal_escape(const char *s);
char *journal_unescape(const char *s);

enum journal_kind { JOURNAL_FILE, JOURNAL_FEATURE, JOURNAL_CGROUP };

struct journal_item {
	enum journal_kind kind;
	char *path;
	char *value;		/* NULL for a cgroup */
};

struct journal {
	long pid;
	char boot[64];
	struct journal_item *items;
	size_t n;
};

void journal_add(struct journal *j, enum journal_kind kind, const char *path,
		 const char *value);
/* The journal's text, malloc'ed. */
char *journal_text(const struct journal *j);
/* text into *j: 0, or -1 (not a journal; *j then empty). */
int journal_parse(const char *text, struct journal *j);
void journal_free(struct journal *j);

/* This boot's id (/proc/sys/kernel/random/boot_id) into buf: 0 or -1. */
int journal_boot_id(char *buf, size_t len);

/*
 * An item as a setting, for messages: knob_name() of a file or a
 * feature (sysctl.NAME=VALUE, sched.NAME=VALUE, sched_feat=WORD,
 * PATH=VALUE), or a cgroup's DIR; malloc'ed.
 */
char *journal_item_name(const struct journal_item *it);

/* A journal written and held: journal_open()'s, for journal_close(). */
struct journal_file {
	int fd;			/* locked; -1: none */
	char *path;
};

/*
 * Writes j (its pid and boot filled here) as this process's journal in
 * the state directory, held in *jf. Before that, under the restore
 * directory's lock, every journal another live schedlab holds is read:
 * one that has an item of j's path (a cgroup's directory, a file, a
 * feature) is a conflict, returned as 1 with *other its pid and *item
 * the index of j's item. 0, 1, or -1 after error().
 */
int journal_open(struct journal *j, struct journal_file *jf, long *other,
		 size_t *item);
/* Unlinks (when unlink) and releases the journal; jf emptied. */
void journal_close(struct journal_file *jf, int unlink_it);

/*
 * Restores one journal's items (switch_recover()'s work, after its
 * lock is taken): 0 when every item was put back, -1 after a warning
 * when one could not be; *knobs and *cgroups count what was put back.
 */
int journal_restore(const struct journal *j, unsigned *knobs,
		    unsigned *cgroups);

#endif
