/*
 * omp_llock.c — OpenMP's locks, critical sections and the seed's condition
 * variables when a process runs several threads (dsm/threads.c).
 *
 * The DSM lock belongs to the process: its protocol (lock.c) counts one
 * holder per process. So the threads of a process first settle among
 * themselves who holds it, here, with a mutex and a condition variable,
 * and only the thread that takes it while the process does not hold it
 * asks the DSM. A thread that lets it go while another thread of the
 * process waits hands it over here without letting the process's DSM lock
 * go: no message, no interval closed, and the next thread sees the
 * previous one's writes through the hardware. After DSM__LLOCK_STREAK such
 * hand-overs in a row the DSM lock is let go (the DSM's own turns, lock.c,
 * then give another process a chance), so threads of one process cannot
 * keep it from the others.
 *
 * Condition variables: in a job of one process they are condition
 * variables of this process. Across processes every waiter waits at the
 * lock's manager (cond.c) whichever process signals, but is woken without
 * the lock and takes it again through this file, because the lock may be
 * held by a sibling thread by then.
 */
#include <pthread.h>
#include <stdlib.h>

#include "dsm_internal.h"
#include "lock.h"
#include "omp_team.h"

#define DSM__LLOCK_STREAK 8

struct lcond {
  unsigned cond;
  pthread_cond_t cv;        /* one process: its waiters, on mu */
  struct lcond *next;
};

struct llock {
  unsigned id;
  int busy;                 /* a thread of this process holds it */
  unsigned waiting;         /* threads of this process waiting for it */
  int dsm_held;             /* this process holds the DSM lock */
  unsigned streak;          /* hand-overs here since the DSM lock came */
  pthread_cond_t cv;
  struct lcond *conds;
  struct llock *chain;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct llock *buckets[256];

static struct llock *get(unsigned id)     /* under mu */
{
  unsigned b = (id * 2654435761u) >> 24;
  for (struct llock *l = buckets[b]; l; l = l->chain)
    if (l->id == id)
      return l;
  struct llock *l = dsm__xcalloc(1, sizeof *l);
  l->id = id;
  pthread_cond_init(&l->cv, NULL);
  l->chain = buckets[b];
  buckets[b] = l;
  return l;
}

static void take_local(struct llock *l)   /* under mu */
{
  l->waiting++;
  while (l->busy)
    pthread_cond_wait(&l->cv, &mu);
  l->waiting--;
  l->busy = 1;
}

void dsm__llock_acquire(unsigned id)
{
  pthread_mutex_lock(&mu);
  struct llock *l = get(id);
  take_local(l);
  int ask = !l->dsm_held && dsm__nprocs > 1;
  pthread_mutex_unlock(&mu);
  /* dsm_held is written only by the thread that holds the lock here. */
  if (ask) {
    dsm_lock_acquire(id);
    l->dsm_held = 1;
    l->streak = 0;
  }
}

int dsm__llock_try(unsigned id)
{
  pthread_mutex_lock(&mu);
  struct llock *l = get(id);
  if (l->busy) {
    pthread_mutex_unlock(&mu);
    return 0;
  }
  l->busy = 1;
  int ask = !l->dsm_held && dsm__nprocs > 1;
  pthread_mutex_unlock(&mu);
  if (ask) {
    if (!dsm__lock_try(id)) {
      pthread_mutex_lock(&mu);
      l->busy = 0;
      if (l->waiting)
        pthread_cond_signal(&l->cv);
      pthread_mutex_unlock(&mu);
      return 0;
    }
    l->dsm_held = 1;
    l->streak = 0;
  }
  return 1;
}

void dsm__llock_release(unsigned id)
{
  pthread_mutex_lock(&mu);
  struct llock *l = get(id);
  if (!l->busy)
    dsm__fatal(DSM__EXIT_FATAL, "lock %u released by a thread that does not hold it", id);
  if (l->waiting && (!l->dsm_held || l->streak < DSM__LLOCK_STREAK)) {
    /* A thread of this process waits: it is the next holder. */
    l->streak++;
    l->busy = 0;
    pthread_cond_signal(&l->cv);
    pthread_mutex_unlock(&mu);
    return;
  }
  pthread_mutex_unlock(&mu);
  if (l->dsm_held) {
    /* Still busy here: no thread of this process takes it until the DSM
     * lock is let go. */
    l->dsm_held = 0;
    dsm_lock_release(id);
  }
  pthread_mutex_lock(&mu);
  l->busy = 0;
  if (l->waiting)
    pthread_cond_signal(&l->cv);
  pthread_mutex_unlock(&mu);
}

static struct lcond *cget(struct llock *l, unsigned cond)   /* under mu */
{
  for (struct lcond *c = l->conds; c; c = c->next)
    if (c->cond == cond)
      return c;
  struct lcond *c = dsm__xcalloc(1, sizeof *c);
  c->cond = cond;
  pthread_cond_init(&c->cv, NULL);
  c->next = l->conds;
  l->conds = c;
  return c;
}

void dsm__llock_cond_wait(unsigned cond, unsigned id, unsigned who)
{
  if (dsm__nprocs > 1) {
    /* Queued at the manager while the lock is held, so a signal from
     * whoever holds it next finds this thread (cond.c). */
    dsm__cond_enqueue(cond, id, who);
    dsm__llock_release(id);
    dsm__cond_sleep(cond, id, who);
    dsm__llock_acquire(id);
    return;
  }
  pthread_mutex_lock(&mu);
  struct llock *l = get(id);
  if (!l->busy)
    dsm__fatal(DSM__EXIT_FATAL, "condition wait without holding lock %u", id);
  struct lcond *c = cget(l, cond);
  /* Waiting on the condition before the lock is free here: a signal,
   * which needs the lock, cannot come before. A signal wakes a thread
   * already waiting, never one that waits after it, as pthreads promise
   * (wake-ups counted as tokens were taken by a later waiter). */
  l->busy = 0;
  if (l->waiting)
    pthread_cond_signal(&l->cv);
  pthread_cond_wait(&c->cv, &mu);
  take_local(l);
  pthread_mutex_unlock(&mu);
}

void dsm__llock_cond_signal(unsigned cond, unsigned id, int all)
{
  if (dsm__nprocs > 1) {
    if (all)
      dsm_cond_broadcast(cond, id);
    else
      dsm_cond_signal(cond, id);
    return;
  }
  pthread_mutex_lock(&mu);
  struct lcond *c = cget(get(id), cond);
  if (all)
    pthread_cond_broadcast(&c->cv);
  else
    pthread_cond_signal(&c->cv);
  pthread_mutex_unlock(&mu);
}
