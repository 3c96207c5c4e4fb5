// SPDX-License-Identifier: GPL-2.0-only
/* STUB: helper B replaces this file. */
#include "harness/settings.h"
#include "workload/workload.h"

int task_settings_apply(const struct task_settings *ts, struct wl_ctx *ctx)
{
	(void)ts;
	return wl_fail(ctx, "task settings are not implemented yet");
}
