// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakeup_thread: the threads of a wakeup run (wakeup.c sets them up and
 * measures): a worker marks itself blocked, pushes itself on its
 * message thread's list, wakes it and sleeps on its futex word; the
 * message thread takes the list, stamps every waiter once and wakes
 * each; the woken worker records its wakeup latency and serves a
 * request (usleep, matrix multiplies under its CPU's lock). The hot
 * path is here whole, so that its helpers inline into it.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stats/hist.h"
#include "workload/wakeup.h"
#include "util.h"

/* Wakes the owner of *word if it was WK_BLOCKED: one FUTEX_WAKE at most. */
static void wake_word(uint32_t *word)
{
	uint32_t old = WK_BLOCKED;

	if (__atomic_compare_exchange_n(word, &old, WK_RUNNING, false,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		futex_wake(word, 1);
}

/* Sleeps while *word is WK_BLOCKED and nobody said stop. */
static void wait_word(uint32_t *word, const int *stop)
{
	while (__atomic_load_n(word, __ATOMIC_SEQ_CST) == WK_BLOCKED &&
	       !__atomic_load_n(stop, __ATOMIC_SEQ_CST))
		futex_wait(word, WK_BLOCKED);
}

static void matrix_multiply(unsigned long *m, unsigned n)
{
	unsigned long *a = m, *b = m + (size_t)n * n, *c = b + (size_t)n * n;

	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < n; j++) {
			unsigned long sum = 0;

			for (unsigned k = 0; k < n; k++)
				sum += a[i * n + k] * b[k * n + j];
			c[i * n + j] = sum;
		}
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * The lock of the CPU this runs on, spinning with trylock; if the task
 * moved while it waited, it lets go and takes the new CPU's. Being
 * preempted while holding it stalls the next request on that CPU: that
 * is what makes preemption in the middle of a request expensive.
 */
static struct wk_lock *cpu_lock(struct wk_shared *sh)
{
	for (;;) {
		int cpu = sched_getcpu();
		struct wk_lock *l = &sh->locks[cpu >= 0 && cpu < sh->nlocks ?
					       cpu : 0];

		if (__atomic_exchange_n(&l->held, 1, __ATOMIC_ACQUIRE)) {
			cpu_relax();
			continue;
		}
		if (sched_getcpu() == cpu || sh->nlocks == 1)
			return l;
		__atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
	}
}

/*
 * -n multiplies: --split's shared share on everyone's matrices first,
 * then the rest on the worker's own (without --split: all its own).
 */
static void do_work(struct wk_worker *w)
{
	struct wk_shared *sh = w->sh;
	struct wk_lock *l = sh->cfg->locking ? cpu_lock(sh) : NULL;

	if (sh->shared_n)
		for (unsigned i = 0; i < sh->ops_shared; i++)
			matrix_multiply(sh->shared_mat, sh->shared_n);
	if (sh->matrix_n)
		for (unsigned i = 0; i < sh->ops_private; i++)
			matrix_multiply(w->mat, sh->matrix_n);
	if (!l)
		return;
	__atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
}

void wakeup_sleep_until(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull),
			       (long)(ns % 1000000000ull) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

int wakeup_worker_main(void *arg)
{
	struct wk_worker *w = arg;
	struct wk_shared *sh = w->sh;
	struct wk_msg *m = w->msg;
	uint64_t next = 0;

	if (wakeup_pin_worker(sh->place))
		return wl_fail_errno(sh->ctx, "wakeup: pinning a worker to -W/--worker_cpus");
	if (barrier_worker(&sh->barrier, sh->ctx))
		return -1;
	if (sh->pace_ns)
		next = now_ns();
	while (!__atomic_load_n(&sh->stop, __ATOMIC_SEQ_CST)) {
		struct wk_worker *head;
		bool measuring;
		uint64_t t0 = 0;

		if (sh->pace_ns) {
			/* -R: this worker's share of the requested rate */
			next += sh->pace_ns;
			wakeup_sleep_until(next);
		}
		if (w->page)	/* -p: the worker writes its "message" */
			memset(w->page, 2, sh->cfg->pipe_bytes);
		__atomic_store_n(&w->futex, WK_BLOCKED, __ATOMIC_SEQ_CST);
		head = __atomic_load_n(&m->head, __ATOMIC_RELAXED);
		do
			w->next = head;
		while (!__atomic_compare_exchange_n(&m->head, &head, w, true,
				__ATOMIC_RELEASE, __ATOMIC_RELAXED));
		wake_word(&m->futex);
		wait_word(&w->futex, &sh->stop);
		if (__atomic_load_n(&sh->stop, __ATOMIC_SEQ_CST))
			break;

		measuring = __atomic_load_n(&sh->measuring, __ATOMIC_RELAXED);
		if (sh->stamp && measuring) {
			uint64_t now = now_ns(), wake = w->wake_ns;
			uint64_t lat = now > wake ? now - wake : 0;

			hist_record(w->wlat, lat);
			if (sh->probing)
				wl_message(sh->ctx);	/* the CPU; wlat goes
							 * to the probes */
			t0 = now;
		}
		if (!w->page) {	/* -p: a hand-off is all there is */
			if (sh->cfg->sleep_us)
				usleep(sh->cfg->sleep_us);
			do_work(w);
		}
		if (measuring) {
			if (sh->stamp)
				hist_record(w->rlat, now_ns() - t0);
			__atomic_store_n(&w->requests, w->requests + 1,
					 __ATOMIC_RELAXED);
		}
	}
	return 0;
}

int wakeup_message_main(void *arg)
{
	struct wk_msg *m = arg;
	struct wk_shared *sh = m->sh;

	if (wakeup_pin_message(sh->place, m->index))
		return wl_fail_errno(sh->ctx, "wakeup: pinning message thread %u to -M/--message_cpus",
				     m->index);
	if (barrier_worker(&sh->barrier, sh->ctx))
		return -1;
	while (!__atomic_load_n(&sh->stop, __ATOMIC_SEQ_CST)) {
		struct wk_worker *w;
		uint64_t now = 0;

		/* blocked first: a push after the exchange below wakes us */
		__atomic_store_n(&m->futex, WK_BLOCKED, __ATOMIC_SEQ_CST);
		w = __atomic_exchange_n(&m->head, NULL, __ATOMIC_ACQUIRE);
		if (w && sh->stamp)
			now = now_ns();
		while (w) {
			struct wk_worker *next = w->next;

			if (w->page) {
				/* -p: the answer, then a stamp of its own */
				memset(w->page, 1, sh->cfg->pipe_bytes);
				if (sh->stamp)
					now = now_ns();
			}
			w->wake_ns = now;
			wake_word(&w->futex);
			w = next;
		}
		wait_word(&m->futex, &sh->stop);
	}
	return 0;
}
