/*
 * omp_team.c — the threads of one process in a parallel region.
 *
 * With dsmrun --threads T (dsm/threads.c) a team is spread over processes,
 * T threads each: process r runs threads r*T .. r*T+T-1 of the team (fewer
 * in the last one of a smaller team). The DSM forks and joins processes
 * (forkjoin.c); inside a process this file forks and joins its threads,
 * and runs the barrier of its threads, whose last arrival does the
 * process's part of the team's barrier (one DSM barrier per process, not
 * per thread). The threads share the process's pages through the
 * hardware, so nothing here sends a message, and the mutexes order their
 * writes as a shared-memory runtime's would.
 *
 * The workers (threads 1..T-1 of a process) are started at the first region
 * that needs them and then wait between regions on a condition variable:
 * they block, never spin (a job of 8 processes may share 2 cores).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "lrc.h"
#include "omp_team.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;     /* a region for the workers */
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;   /* the last worker finished */
static uint64_t gen;                  /* regions started, under mu */
static void (*body)(void *, unsigned);
static void *body_arg;
static unsigned nrun;                 /* threads of the current region, 0 included */
static unsigned running;              /* workers still in it */
static unsigned nworkers;             /* started so far (threads 1..nworkers) */

static void *worker_main(void *p)
{
  unsigned me = (unsigned)(uintptr_t)p;
  dsm__fault_thread_init();
  uint64_t seen = 0;
  pthread_mutex_lock(&mu);
  for (;;) {
    while (gen == seen)
      pthread_cond_wait(&go, &mu);
    seen = gen;
    if (me >= nrun)
      continue;
    void (*b)(void *, unsigned) = body;
    void *a = body_arg;
    pthread_mutex_unlock(&mu);
    b(a, me);
    pthread_mutex_lock(&mu);
    if (--running == 0) {
      /* Signalled after the mutex is let go: a master woken while we
       * still hold it would block on it and need a second wake-up. */
      pthread_mutex_unlock(&mu);
      pthread_cond_signal(&done);
      pthread_mutex_lock(&mu);
    }
  }
  return NULL;
}

void dsm__team_run(void (*b)(void *, unsigned), void *a, unsigned n)
{
  if (n <= 1) {
    b(a, 0);
    return;
  }
  pthread_mutex_lock(&mu);
  while (nworkers < n - 1) {
    pthread_attr_t at;
    pthread_attr_init(&at);
    /* Region bodies get the stack a program expects of a thread: its
     * OMP_STACKSIZE, as libgomp gives its workers (issue 56: it was read
     * nowhere), else 16 MiB (2 MiB was too small for the apps' recursive
     * sorts); DSM_THREAD_STACK_MB wins. */
    pthread_attr_setstacksize(&at, dsm__omp_stack_size("DSM_THREAD_STACK_MB", 16, 0));
    pthread_t t;
    int e = pthread_create(&t, &at, worker_main, (void *)(uintptr_t)(nworkers + 1));
    pthread_attr_destroy(&at);
    if (e)
      dsm__fatal(DSM__EXIT_FATAL, "cannot start OpenMP thread %u of this process: %s",
                 nworkers + 1, strerror(e));
    pthread_detach(t);
    nworkers++;
  }
  body = b;
  body_arg = a;
  nrun = n;
  running = n - 1;
  gen++;
  pthread_mutex_unlock(&mu);
  pthread_cond_broadcast(&go);   /* after the unlock: see worker_main */
  b(a, 0);
  pthread_mutex_lock(&mu);
  while (running)
    pthread_cond_wait(&done, &mu);
  pthread_mutex_unlock(&mu);
}

/* ---- the barrier of a process's threads ------------------------------------------ */

static pthread_mutex_t bmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t bcv = PTHREAD_COND_INITIALIZER;
static unsigned arrived;
static uint64_t bgen;

void dsm__team_lock(void) { pthread_mutex_lock(&bmu); }
void dsm__team_unlock(void) { pthread_mutex_unlock(&bmu); }

void dsm__team_barrier(unsigned n, void (*last)(void *), void *arg)
{
  if (n <= 1) {
    if (last)
      last(arg);
    return;
  }
  pthread_mutex_lock(&bmu);
  uint64_t g = bgen;
  if (++arrived < n) {
    uint64_t t0 = dsm__now_ns();
    while (bgen == g)
      pthread_cond_wait(&bcv, &bmu);
    pthread_mutex_unlock(&bmu);
    dsm__my_blocked_ns += dsm__now_ns() - t0;   /* waiting, not computing (omp_width.c) */
    return;
  }
  /* Everyone else is here and waits for bgen to move: the last arrival
   * does the process's part (it may take the network's time) without the
   * mutex, then lets them go. */
  arrived = 0;
  pthread_mutex_unlock(&bmu);
  if (last)
    last(arg);
  pthread_mutex_lock(&bmu);
  bgen++;
  pthread_mutex_unlock(&bmu);
  pthread_cond_broadcast(&bcv);   /* after the unlock: see worker_main */
}
