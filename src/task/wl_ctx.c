// SPDX-License-Identifier: GPL-2.0-only
/*
 * wl_ctx: what a workload process and its workers write into the memory
 * they share with the harness (task/wl_ctx.h) - the failure reason, by
 * rank, and the directories the run owns - from any process or thread.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "task/wl_ctx.h"

/*
 * The message is formatted before the lock is taken, so the lock is held
 * for a copy only. A worker killed while holding it (only a SIGKILL from
 * outside can do that) would make the others give up after a bounded
 * spin rather than hang: the run has failed either way.
 */
static void vfail(struct wl_ctx *ctx, enum fail_rank rank, const char *fmt,
		  va_list ap, const char *suffix)
{
	char msg[REASON_MAX];
	size_t n;
	long spins = 0;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = strlen(msg);
	if (suffix)
		snprintf(msg + n, sizeof(msg) - n, ": %s", suffix);
	while (atomic_flag_test_and_set_explicit(&ctx->lock,
						 memory_order_acquire))
		if (++spins > 100000000)
			return;
	if ((int)rank > ctx->failed) {
		memcpy(ctx->reason, msg, sizeof(msg));
		ctx->failed = rank;
	}
	atomic_flag_clear_explicit(&ctx->lock, memory_order_release);
}

/* The body of the variadic wl_fail*(): vfail() over their arguments. */
#define VFAIL(ctx, rank, fmt, suffix)				\
	do {							\
		va_list ap;					\
								\
		va_start(ap, fmt);				\
		vfail(ctx, rank, fmt, ap, suffix);		\
		va_end(ap);					\
	} while (0)

void wl_fail_rank(struct wl_ctx *ctx, enum fail_rank rank, const char *fmt,
		  ...)
{
	VFAIL(ctx, rank, fmt, NULL);
}

int wl_fail(struct wl_ctx *ctx, const char *fmt, ...)
{
	VFAIL(ctx, FAIL_CAUSE, fmt, NULL);
	return -1;
}

int wl_fail_peer(struct wl_ctx *ctx, const char *fmt, ...)
{
	VFAIL(ctx, FAIL_CONSEQUENCE, fmt, NULL);
	return -1;
}

int wl_fail_errno(struct wl_ctx *ctx, const char *fmt, ...)
{
	int err = errno;
	enum fail_rank rank = err == EPIPE || err == ECONNRESET ?
			      FAIL_CONSEQUENCE : FAIL_CAUSE;

	VFAIL(ctx, rank, fmt, strerror(err));
	return -1;
}

int wl_own_dir(struct wl_ctx *ctx, const char *path)
{
	if (strlen(path) >= WL_OWNED_LEN)
		return wl_fail(ctx, "directory path too long: %s", path);
	for (int i = 0; i < WL_OWNED_MAX; i++) {
		if (!ctx->owned[i][0]) {
			strcpy(ctx->owned[i], path);
			return 0;
		}
	}
	return wl_fail(ctx, "more than %d owned directories", WL_OWNED_MAX);
}
