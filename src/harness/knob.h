/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knob: the machine knobs a setting may change (harness/settings.h),
 * in one table (knob.c's kinds[]): a key's prefix -> its kind -> how
 * its key and value are checked, which file (or word of a file) it
 * resolves to, how its value is read from that file's text, and how a
 * journalled original is named when the next schedlab restores it.
 *
 *   sysctl.NAME   /proc/sys/NAME, NAME's dots as slashes
 *   sched.NAME    /sys/kernel/debug/sched/NAME (debugfs)
 *   sched_feat    FEATURE or NO_FEATURE words, each a knob of its own:
 *                 a word of /sys/kernel/debug/sched/features
 *   /proc/..., /sys/...  the file the path leads to (under /proc or /sys)
 *
 * Every kind is read whole (knob_read()), written with one write() and
 * put back the same way (knob_write()), so that harness/switch.c, which
 * writes and restores them around each iteration, and the restore
 * journal (harness/journal.h), which keeps each original as "file PATH
 * VALUE" (a whole file) or "feature PATH WORD" (a word of one), need
 * nothing per kind. cgroup.*, scx and the task settings are not knobs:
 * harness/cgroup.h, harness/scx.h and harness/task_apply.c have them.
 *
 * Adding a kind of knob:
 *  1. a row in kinds[] (knob.c): its prefix, its directory (a NAME with
 *     dots as slashes under it) or the one file whose words it sets,
 *     the example its messages give, and its check, resolve and name
 *     functions (the existing ones, or new ones beside them);
 *  2. SETTING_KEYS and the list of keys in harness/settings.h, and
 *     PLAN_HARNESS_KEYS in harness/plan_int.h;
 *  3. harness/needs.c only if the queue should see it otherwise than as
 *     a change of the machine (SETTING_KNOB);
 *  4. the key in doc/schedlab.1 (SETTINGS) and doc/architecture.md;
 *  5. a test in tests/integration/test_knobs.sh (written, put back,
 *     recovered after SIGKILL) and its checks in test_settings.sh or
 *     tests/unit/test_switch.c (its journal name).
 * A kind that is not one write() of a value to a file needs a journal
 * word of its own (harness/journal.c) so that recovery can put it back.
 */
#ifndef SCHEDLAB_KNOB_H
#define SCHEDLAB_KNOB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The most of a knob's value schedlab reads and restores. */
#define KNOB_MAX 8192

/* One knob a setting names: a file, or one word of it, and its value. */
struct knob_target {
	char *path;
	char *feature;		/* a word's feature (X of X or NO_X); NULL: the file */
	char *value;		/* what is written */
};

/* Whether key names a knob (of a kind in the table). */
bool knob_key(const char *key);

/*
 * VALUE for KEY (a knob's key): 0, or -1 with err holding what is wrong
 * and what is accepted; the caller names the key and where it was
 * written (setting_check()).
 */
int knob_check(const char *key, const char *value, char *err, size_t len);

/*
 * The knobs KEY=VALUE sets (one, or one a word) into *out, *n of them;
 * knob_targets_free() releases them. 0, or -1 after error() (prefixed
 * with who, "variant slice: ") when the key leads to no file to change.
 */
int knob_resolve(const char *who, const char *key, const char *value,
		 struct knob_target **out, size_t *n);
void knob_targets_free(struct knob_target *t, size_t n);

/*
 * The original of a knob: its file checked (it exists, is a file, can
 * be read and written) and its value (the feature's word) read into
 * *orig, malloc'ed. 0, or -1 after error() naming who and key.
 */
int knob_original(const char *who, const char *key, const char *path,
		  const char *feature, char **orig);

/*
 * A knob's value in its file's text: the feature's word (X or NO_X),
 * or the choice of a sysfs list ("always [madvise] never": madvise), or
 * the text. malloc'ed; NULL when the feature is not there.
 */
char *knob_value(const char *text, const char *feature);

/* X of a sched feature's word (X or NO_X). */
const char *knob_feature(const char *word);

/*
 * A journalled knob as a setting, for messages: sysctl.NAME=VALUE,
 * sched.NAME=VALUE, sched_feat=WORD (word: a feature), PATH=VALUE;
 * malloc'ed.
 */
char *knob_name(const char *path, const char *value, bool word);

/* Why writing path failed (errno e), for messages, into buf. */
void knob_write_refused(char *buf, size_t len, const char *path, int e);

/*
 * A setting's name part (after sysctl., or cgroup.'s CONTROLLER.FILE):
 * letters, digits, '_', '-' and inner dots, not empty.
 */
bool knob_name_ok(const char *s);

/*
 * path's content into buf (NUL-terminated, one trailing newline
 * stripped), read until EOF: its length; -1 with errno (EFBIG when it
 * holds KNOB_MAX bytes or more).
 */
ssize_t knob_read(const char *path, char *buf, size_t len);
/* value written to path in one write(): 0, or -1 with errno. */
int knob_write(const char *path, const char *value);

#endif
