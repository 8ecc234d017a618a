/*
 * dsmbench_sync.c — latencies of locks and semaphores (dsmbench.h).
 *
 * Each lock case arranges where the lock is before the timed acquire, by
 * choosing the lock id (its manager is id % nprocs) and by letting another
 * process take the lock between timed acquires; barriers separate the steps
 * and are not timed. Times are averages over many repetitions.
 *
 * Wake-ups are counted on every process over a whole loop and summed
 * through a shared array. A lock loop has barriers and the other process's
 * acquires in it too, so the same loop without any lock operation is
 * counted as well, and the difference is shared among the loop's remote
 * acquires (rank 0's and the other process's, two per repetition).
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

/* Wake-ups of a sleeping thread, each ~40 us of the other vCPU on a VM:
 * by another thread of the process (a poke), and of the service thread by
 * the network (a request, or its timer). The thread that waits for a reply
 * or an event reads its datagram itself; those wake-ups are the message's
 * own, in the raw round trip too, and are not counted. */
int64_t bench_wakeups(void)
{
  int64_t pokes = dsm_stat("wakeups"), net = dsm_stat("svc_net_wakes");
  return pokes < 0 ? -1 : pokes + (net > 0 ? net : 0);
}

DSM_SHARED_BSS static double wk_sum[256];

/* Wake-ups of this process from w0 on, added up in the shared array; rank 0
 * reads the total after the barrier that follows. */
static void wk_add(int64_t w0)
{
  int64_t w = bench_wakeups();
  if (w >= 0)
    wk_sum[dsm_proc_id()] += (double)(w - w0);
}

static double wk_total(void)
{
  double t = 0;
  for (unsigned r = 0; r < dsm_nprocs() && r < 256; r++)
    t += wk_sum[r];
  return t;
}

static void wk_clear(void)
{
  dsm_barrier(BARRIER_ID);
  wk_sum[dsm_proc_id()] = 0;
  dsm_barrier(BARRIER_ID);
}

/* A fresh lock or semaphore id managed by rank mgr. */
static unsigned id_at(unsigned mgr)
{
  static unsigned next = 0x3f00;
  unsigned n = dsm_nprocs();
  return (next++) * n + mgr;
}

bench_result_t bench_lock_local(void)
{
  unsigned id = id_at(0);
  bench_result_t r = { 0, 0 };
  dsm_barrier(BARRIER_ID);
  if (dsm_proc_id() == 0) {
    dsm_lock_acquire(id);
    dsm_lock_release(id);
    int64_t w0 = bench_wakeups(), p0 = dsm_stat("wakeups");
    double t0 = now_ns();
    for (int i = 0; i < LOCAL_REPS; i++) {
      dsm_lock_acquire(id);
      dsm_lock_release(id);
    }
    r.ns = (now_ns() - t0) / LOCAL_REPS;
    r.wakeups = w0 < 0 ? -1 : (double)(bench_wakeups() - w0) / LOCAL_REPS;
    r.pokes = p0 < 0 ? -1 : (double)(dsm_stat("wakeups") - p0) / LOCAL_REPS;
  }
  dsm_barrier(BARRIER_ID);
  return r;
}

/* How long rank 0 computes after a barrier before it asks for a lock (the
 * delay loop of the EPCC micro-benchmarks). The barrier's last departure
 * reaches a process a few us before rank 0 returns from it; a request that
 * follows at once finds that process still leaving the barrier, and its
 * service thread has to wake up on the CPU the process's own thread is
 * using (dsm/bind.c). Both cases are reported; the settled one is what the
 * acquire costs in itself. Computing rather than sleeping: on this VM an
 * idle vCPU is halted after ~100 us, and the first message to it then costs
 * the host's wake-up of the vCPU as well (docs/perf-journal.md, 2026-11-27). */
#define SETTLE_NS 50000

static void settle(double ns)
{
  double t0 = now_ns();
  while (now_ns() - t0 < ns) {
  }
}

/* Rank 0 acquires a lock that rank `other` released last; the manager is
 * rank mgr; after each barrier, rank 0 first waits settle_ns (untimed).
 * With locks = 0, the same steps without the lock (for the wake-ups of the
 * barriers alone). Returns rank 0's mean acquire time. */
static double lock_loop(unsigned other, unsigned mgr, int locks, double settle_ns)
{
  unsigned me = dsm_proc_id(), id = id_at(mgr);
  double sum = 0;
  dsm_barrier(BARRIER_ID);
  int64_t w0 = bench_wakeups();
  for (int i = 0; i < REMOTE_REPS; i++) {
    if (me == other && locks) {
      dsm_lock_acquire(id);
      dsm_lock_release(id);
    }
    dsm_barrier(BARRIER_ID);
    if (me == 0 && locks) {
      if (settle_ns > 0)
        settle(settle_ns);
      double t0 = now_ns();
      dsm_lock_acquire(id);
      sum += now_ns() - t0;
      dsm_lock_release(id);
    }
    dsm_barrier(BARRIER_ID);
  }
  wk_add(w0);
  return me == 0 ? sum / REMOTE_REPS : 0;
}

static bench_result_t lock_from(unsigned other, unsigned mgr, double settle_ns)
{
  bench_result_t r = { 0, -1 };
  wk_clear();
  lock_loop(other, mgr, 0, settle_ns);
  dsm_barrier(BARRIER_ID);
  double base = wk_total();
  wk_clear();
  r.ns = lock_loop(other, mgr, 1, settle_ns);
  dsm_barrier(BARRIER_ID);
  if (bench_wakeups() >= 0)
    r.wakeups = (wk_total() - base) / (2.0 * REMOTE_REPS);
  return r;
}

bench_result_t bench_lock_manager(void)
{
  if (dsm_nprocs() < 2) return (bench_result_t){ -1, -1 };
  return lock_from(1, 1, SETTLE_NS);
}

bench_result_t bench_lock_manager_busy(void)
{
  if (dsm_nprocs() < 2) return (bench_result_t){ -1, -1 };
  return lock_from(1, 1, 0);
}

bench_result_t bench_lock_forward(void)
{
  if (dsm_nprocs() < 3) return (bench_result_t){ -1, -1 };
  return lock_from(1, 2, SETTLE_NS);
}

bench_result_t bench_sema(void)
{
  unsigned n = dsm_nprocs(), me = dsm_proc_id();
  if (n < 2) return (bench_result_t){ -1, -1 };
  unsigned a = id_at(n >= 3 ? 2 : 1), b = id_at(n >= 3 ? 2 : 0);
  if (me == 0) {
    dsm_sema_init(a, 0);
    dsm_sema_init(b, 0);
  }
  wk_clear();
  int64_t w0 = bench_wakeups();
  bench_result_t r = { 0, -1 };
  if (me == 0) {
    double t0 = now_ns();
    for (int i = 0; i < SEMA_REPS; i++) {
      dsm_sema_signal(a);
      dsm_sema_wait(b);
    }
    r.ns = (now_ns() - t0) / SEMA_REPS / 2;
  } else if (me == 1) {
    for (int i = 0; i < SEMA_REPS; i++) {
      dsm_sema_wait(a);
      dsm_sema_signal(b);
    }
  }
  /* The manager (rank 2) waits in this barrier meanwhile and serves the
   * semaphore; its wake-ups count too. */
  dsm_barrier(BARRIER_ID);
  wk_add(w0);
  dsm_barrier(BARRIER_ID);
  if (w0 >= 0)
    r.wakeups = wk_total() / (2.0 * SEMA_REPS);
  return r;
}
