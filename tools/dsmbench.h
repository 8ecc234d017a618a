/*
 * dsmbench.h — the measurements dsmbench runs, one function each.
 *
 * Every function is collective: all processes of the job (started by dsmrun,
 * after dsm_startup) call it together. The result, in nanoseconds, is
 * meaningful on rank 0; the other ranks return 0. A measurement the job is
 * too small for returns -1.
 */
#ifndef DSMBENCH_H
#define DSMBENCH_H

/* dsmbench_sync.c: synchronization latencies. */
/* Re-acquire of a lock this process released last and nobody asked for
 * since (no message): one acquire + release pair. */
double bench_lock_local_ns(void);
/* Acquire of a lock idle at its manager: request and grant (2 messages). */
double bench_lock_manager_ns(void);
/* Acquire forwarded by the manager to the last holder, who grants it
 * (3 messages). Needs 3 processes. */
double bench_lock_forward_ns(void);
/* From dsm_sema_signal on one process to the return of dsm_sema_wait on
 * another, through a third process's manager when there is one (half of a
 * ping-pong round trip). Needs 2 processes. */
double bench_sema_ns(void);

#endif
