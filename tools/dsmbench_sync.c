/*
 * dsmbench_sync.c — latencies of locks and semaphores (dsmbench.h).
 *
 * Each lock case arranges where the lock is before the timed acquire, by
 * choosing the lock id (its manager is id % nprocs) and by letting another
 * process take the lock between timed acquires; barriers separate the steps
 * and are not timed. Times are averages over many repetitions.
 */
#include <time.h>

#include "dsm.h"
#include "dsmbench.h"

#define LOCAL_REPS 20000
#define REMOTE_REPS 300
#define SEMA_REPS 500
#define BARRIER_ID 0x5eb0

static double now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* A fresh lock or semaphore id managed by rank mgr. */
static unsigned id_at(unsigned mgr)
{
  static unsigned next = 0x3f00;
  unsigned n = dsm_nprocs();
  return (next++) * n + mgr;
}

double bench_lock_local_ns(void)
{
  unsigned id = id_at(0);
  double r = 0;
  dsm_barrier(BARRIER_ID);
  if (dsm_proc_id() == 0) {
    dsm_lock_acquire(id);
    dsm_lock_release(id);
    double t0 = now_ns();
    for (int i = 0; i < LOCAL_REPS; i++) {
      dsm_lock_acquire(id);
      dsm_lock_release(id);
    }
    r = (now_ns() - t0) / LOCAL_REPS;
  }
  dsm_barrier(BARRIER_ID);
  return r;
}

/* Rank 0 acquires a lock that rank `other` released last; the manager is
 * rank mgr. */
static double lock_from(unsigned other, unsigned mgr)
{
  unsigned me = dsm_proc_id(), id = id_at(mgr);
  double sum = 0;
  dsm_barrier(BARRIER_ID);
  for (int i = 0; i < REMOTE_REPS; i++) {
    if (me == other) {
      dsm_lock_acquire(id);
      dsm_lock_release(id);
    }
    dsm_barrier(BARRIER_ID);
    if (me == 0) {
      double t0 = now_ns();
      dsm_lock_acquire(id);
      sum += now_ns() - t0;
      dsm_lock_release(id);
    }
    dsm_barrier(BARRIER_ID);
  }
  return me == 0 ? sum / REMOTE_REPS : 0;
}

double bench_lock_manager_ns(void)
{
  if (dsm_nprocs() < 2) return -1;
  return lock_from(1, 1);
}

double bench_lock_forward_ns(void)
{
  if (dsm_nprocs() < 3) return -1;
  return lock_from(1, 2);
}

double bench_sema_ns(void)
{
  unsigned n = dsm_nprocs(), me = dsm_proc_id();
  if (n < 2) return -1;
  unsigned a = id_at(n >= 3 ? 2 : 1), b = id_at(n >= 3 ? 2 : 0);
  if (me == 0) {
    dsm_sema_init(a, 0);
    dsm_sema_init(b, 0);
  }
  dsm_barrier(BARRIER_ID);
  double r = 0;
  if (me == 0) {
    double t0 = now_ns();
    for (int i = 0; i < SEMA_REPS; i++) {
      dsm_sema_signal(a);
      dsm_sema_wait(b);
    }
    r = (now_ns() - t0) / SEMA_REPS / 2;
  } else if (me == 1) {
    for (int i = 0; i < SEMA_REPS; i++) {
      dsm_sema_wait(a);
      dsm_sema_signal(b);
    }
  }
  dsm_barrier(BARRIER_ID);
  return r;
}
