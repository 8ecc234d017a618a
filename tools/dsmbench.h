/*
 * dsmbench.h — the measurements dsmbench runs, one function each.
 *
 * Every function is collective: all processes of the job (started by dsmrun,
 * after dsm_startup) call it together. The result is meaningful on rank 0;
 * the other ranks return zeros. A measurement the job is too small for
 * returns ns = -1.
 */
#ifndef DSMBENCH_H
#define DSMBENCH_H

#include <stdint.h>

/* A measurement: time per operation (ns) and wake-ups per operation (one
 * thread of a process woken by another of the same process, summed over the
 * processes taking part; -1 when the library does not count them). */
typedef struct bench_result {
  double ns, wakeups;
  double pokes;      /* of those, by another thread (bench_lock_local only) */
} bench_result_t;

/* dsmbench_sync.c */
/* This process's wake-ups so far (dsm_stat "wakeups" + "svc_net_wakes"), -1
 * when the library has no such counter. */
int64_t bench_wakeups(void);

/* Synchronization latencies. */
/* Re-acquire of a lock this process released last and nobody asked for
 * since (no message): one acquire + release pair. */
bench_result_t bench_lock_local(void);
/* Acquire of a lock idle at its manager: request and grant (2 messages),
 * the manager idle (waiting in a barrier) when the request comes. */
bench_result_t bench_lock_manager(void);
/* The same, asked for right after a barrier: the manager is still leaving
 * it when the request comes. */
bench_result_t bench_lock_manager_busy(void);
/* Acquire forwarded by the manager to the last holder, who grants it
 * (3 messages). Needs 3 processes. */
bench_result_t bench_lock_forward(void);
/* From dsm_sema_signal on one process to the return of dsm_sema_wait on
 * another, through a third process's manager when there is one (half of a
 * ping-pong round trip). Needs 2 processes. */
bench_result_t bench_sema(void);

#endif
