/*
 * cond.c — condition variables tied to a lock, kept by the lock's manager.
 *
 * The manager keeps one FIFO of waiters per lock (each entry names its
 * condition). Waking a waiter puts it at the end of the lock's queue (lock.c):
 * it becomes the lock's last requester and its predecessor will grant it the
 * lock, with the consistency data of the lock's chain, at its release. So the
 * woken process returns holding the lock and seeing every write made under it.
 *
 * dsm_cond_wait takes three messages:
 *   WAIT   joins the condition's queue (acknowledged) while the caller still
 *          holds the lock, so that anyone who signals after getting the lock
 *          from us finds us queued: no wake-up can be missed;
 *          then the lock is released as by dsm_lock_release;
 *   SLEEP  the request the lock grant will answer; the manager keeps it until
 *          a signal (or forwards it at once if one came in between).
 * A signal that finds the waiter before its SLEEP arrived reserves its place
 * in the lock's queue at once (prev), so FIFO order is the order of signals.
 * dsm_cond_signal / dsm_cond_broadcast are one acknowledged request each;
 * signalling an empty queue does nothing.
 *
 * A signaller that holds the lock usually needs no message at all. Every
 * WAIT is made by the lock's holder (the caller of dsm_cond_wait, or a
 * thread of the process that holds it, omp_llock.c) and acknowledged before
 * the lock moves on, and every signal by a holder likewise; so the number
 * of waiters the manager has queued and not yet signalled is known exactly
 * to whoever holds the lock, if it travels with the lock: the holder adds
 * one per WAIT, a signal's answer says how many are left, and grants and
 * TOKENs carry the count (lock.c). A holder that signals with the count at
 * zero sends nothing (`cond_signals_local`). A signal from a process that
 * does not hold the lock still goes to the manager and can only leave the
 * count too high, which costs a message, never a wake-up. QSORT's enqueue
 * signals on every push of work: on two processes, 870 round trips per
 * run, each made while holding the lock that the other process waited for.
 */
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "lrc.h"
#include "private_stack.h"
#include "sync.h"
#include "net/transport.h"
#include "lock.h"

/* Manager: hand a signalled waiter whose SLEEP is here to its predecessor,
 * or wake it if it takes the lock again itself. */
static void dispatch(dsm__lk_t *lk, unsigned lock, dsm__cwait_t *w)
{
  if (w->who & DSM__CV_NOLOCK)
    dsm__tp_reply(w->h, NULL, 0);
  else
    dsm__lk_route(lk, lock, w->prev, w->h, w->rank, w->known);
  free(w->known);
  free(w);
}

static void unlink_waiter(dsm__lk_t *lk, dsm__cwait_t *w)
{
  for (dsm__cwait_t **pp = dsm__lk_cwaiters(lk); *pp; pp = &(*pp)->next)
    if (*pp == w) {
      *pp = w->next;
      return;
    }
  DSM__ASSERT(0);
}

/* Called by lock.c's handler for ops >= DSM__CV_WAIT, without dsm__mu. */
void dsm__cond_handle(const dsm__msg_t *m, dsm__rd_t *r, unsigned op)
{
  unsigned cond = dsm__rd_u32(r), lock = dsm__rd_u32(r);
  uint32_t all = 0, who = 0;
  uint32_t *known = NULL;
  if (op == DSM__CV_SIGNAL)
    all = dsm__rd_u32(r);
  else
    who = dsm__rd_u32(r);
  if (op == DSM__CV_SLEEP) {
    known = malloc(dsm__nprocs * sizeof(uint32_t));
    if (!known || dsm__vt_decode(r, known) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "malformed COND request from rank %u", m->origin);
  }
  if (r->bad || dsm__lk_manager(lock) != dsm__rank || op > DSM__CV_SIGNAL)
    dsm__fatal(DSM__EXIT_FATAL, "malformed COND request from rank %u", m->origin);

  pthread_mutex_lock(&dsm__mu);
  dsm__lk_t *lk = dsm__lk_get(lock);
  dsm__cwait_t **head = dsm__lk_cwaiters(lk);
  int answer = 1;
  if (op == DSM__CV_WAIT) {
    dsm__cwait_t *w = calloc(1, sizeof *w), **pp = head;
    if (!w) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    w->cond = cond;
    w->rank = m->origin;
    w->who = who;
    while (*pp) {
      if ((*pp)->rank == m->origin && (*pp)->who == who)
        dsm__fatal(DSM__EXIT_FATAL, "rank %u waits on condition %u twice", m->origin, cond);
      pp = &(*pp)->next;
    }
    *pp = w;
  } else if (op == DSM__CV_SLEEP) {
    dsm__cwait_t *w = *head;
    while (w && (w->rank != m->origin || w->who != who)) w = w->next;
    if (!w || w->has_h)
      dsm__fatal(DSM__EXIT_FATAL, "condition %u: SLEEP from rank %u, which is not waiting",
                 cond, m->origin);
    w->has_h = 1;
    w->h = dsm__reqh(m);
    w->known = known;
    known = NULL;
    answer = 0;                  /* the lock grant is the answer */
    if (w->signalled) {
      unlink_waiter(lk, w);
      dispatch(lk, lock, w);
    }
  } else {
    dsm__cwait_t *w = *head, *nx;
    uint32_t left = 0;
    for (; w; w = nx) {
      nx = w->next;
      if (w->cond != cond || w->signalled)
        continue;
      w->signalled = 1;
      if (!(w->who & DSM__CV_NOLOCK))
        w->prev = dsm__lk_enqueue(lk, w->rank);
      if (w->has_h) {
        unlink_waiter(lk, w);
        dispatch(lk, lock, w);
      }
      if (!all)
        break;
    }
    /* The answer: how many waiters of the lock's conditions are left
     * unsignalled, for the count that travels with the lock. */
    for (w = *head; w; w = w->next)
      left += !w->signalled;
    answer = 0;
    pthread_mutex_unlock(&dsm__mu);
    dsm__tp_reply(dsm__reqh(m), &left, sizeof left);
    return;
  }
  pthread_mutex_unlock(&dsm__mu);
  free(known);
  if (answer)
    dsm__tp_reply(dsm__reqh(m), NULL, 0);
}

struct cond_call { unsigned cond, lock; uint32_t all; };

static void wait_impl(void *p)
{
  struct cond_call a = *(struct cond_call *)p, *c = &a;   /* read before dsm__mu: see lock.c, acquire_impl */
  unsigned mgr = dsm__lk_manager(c->lock);
  pthread_mutex_lock(&dsm__mu);
  int held = dsm__lk_held(dsm__lk_get(c->lock));
  pthread_mutex_unlock(&dsm__mu);
  if (!held)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_cond_wait(%u, %u) by rank %u without holding lock %u",
               c->cond, c->lock, dsm__rank, c->lock);
  if (dsm__nprocs == 1)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_cond_wait(%u, %u) in a job of one process would wait "
               "forever", c->cond, c->lock);
  DSM__STAT_INC(cond_waits);

  uint32_t w[4] = { DSM__CV_WAIT, c->cond, c->lock, 0 };
  dsm__tp_call(mgr, DSM__MSG_COND, w, sizeof w, NULL, NULL);

  dsm__buf_t b = { 0 };
  pthread_mutex_lock(&dsm__mu);
  (*dsm__lk_cwaits(dsm__lk_get(c->lock)))++;     /* it goes with the lock */
  dsm__lk_release_locked(dsm__lk_get(c->lock), c->lock, 0);   /* the signaller wants it */
  dsm__buf_u32(&b, DSM__CV_SLEEP);
  dsm__buf_u32(&b, c->cond);
  dsm__buf_u32(&b, c->lock);
  dsm__buf_u32(&b, 0);
  dsm__vt_encode(&b, dsm__known);
  pthread_mutex_unlock(&dsm__mu);

  void *reply = NULL;
  size_t len = 0;
  dsm__tp_call(mgr, DSM__MSG_COND, b.p, b.len, &reply, &len);
  dsm__buf_free(&b);
  dsm__lk_take_grant(c->lock, reply, len, 0);
  free(reply);
  DSM__STAT_INC(lock_acquires);
  DSM__STAT_INC(lock_remote);
}

static void signal_impl(void *p)
{
  struct cond_call a = *(struct cond_call *)p, *c = &a;   /* read before dsm__mu: see lock.c, acquire_impl */
  pthread_mutex_lock(&dsm__mu);
  dsm__lk_t *lk = dsm__lk_get(c->lock);
  int held = dsm__lk_held(lk);
  unsigned gen = dsm__lk_arrivals(lk);
  if (held && *dsm__lk_cwaits(lk) == 0) {
    pthread_mutex_unlock(&dsm__mu);
    DSM__STAT_INC(cond_signals_local);
    return;                      /* nobody waits: see the top of the file */
  }
  pthread_mutex_unlock(&dsm__mu);
  uint32_t s[4] = { DSM__CV_SIGNAL, c->cond, c->lock, c->all };
  void *reply = NULL;
  size_t len = 0;
  dsm__tp_call(dsm__lk_manager(c->lock), DSM__MSG_COND, s, sizeof s, &reply, &len);
  uint32_t left = 0;
  if (len != sizeof left)
    dsm__fatal(DSM__EXIT_FATAL, "malformed answer to a signal of condition %u", c->cond);
  memcpy(&left, reply, sizeof left);
  free(reply);
  /* The lock is still here unless a sibling thread let it go meanwhile
   * (a signal from a thread that does not hold it, omp_llock.c); then the
   * count that came back with it is newer than this answer. Keeping a count
   * too high costs a message, never a wake-up. */
  pthread_mutex_lock(&dsm__mu);
  if (held && dsm__lk_held(lk) && dsm__lk_arrivals(lk) == gen)
    *dsm__lk_cwaits(lk) = left;
  pthread_mutex_unlock(&dsm__mu);
}

void dsm_cond_wait(unsigned cond, unsigned lock)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_cond_wait called before dsm_startup");
  dsm__flush_settle();   /* a flush that waited happens before we wait (flush.c) */
  struct cond_call c = { cond, lock, 0 };
  dsm__on_private_stack(wait_impl, &c);
}

static void signal_common(unsigned cond, unsigned lock, int all)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_cond_signal called before dsm_startup");
  if (dsm__nprocs == 1)
    return;                      /* nobody can be waiting */
  struct cond_call c = { cond, lock, (uint32_t)all };
  dsm__on_private_stack(signal_impl, &c);
}

void dsm_cond_signal(unsigned cond, unsigned lock) { signal_common(cond, lock, 0); }
void dsm_cond_broadcast(unsigned cond, unsigned lock) { signal_common(cond, lock, 1); }

/* ---- the wait of one thread among several in the process ------------------------
 *
 * With several threads per process (sync/omp/omp_llock.c) the process may hold
 * the lock for a sibling while this thread waits, so the waiter does not
 * get the lock with its wake-up: it joins the queue while the lock is held
 * (enqueue), lets the lock go by the OpenMP layer's rules, sleeps until
 * signalled, and takes the lock again like any acquirer, which brings what
 * the signaller wrote. who is the thread's local number. */
struct cond_nl { unsigned cond, lock, who; };

static void enqueue_impl(void *p)
{
  struct cond_nl a = *(struct cond_nl *)p, *c = &a;   /* read before dsm__mu (lock.c, acquire_impl) */
  uint32_t w[4] = { DSM__CV_WAIT, c->cond, c->lock, c->who | DSM__CV_NOLOCK };
  DSM__STAT_INC(cond_waits);
  pthread_mutex_lock(&dsm__mu);
  int held = dsm__lk_held(dsm__lk_get(c->lock));
  pthread_mutex_unlock(&dsm__mu);
  /* (The process holds the lock for the thread that waits: omp_llock.c
   * enqueues only under it. The count of waiters relies on that.) */
  if (!held)
    dsm__fatal(DSM__EXIT_FATAL, "condition %u: a thread of rank %u waits without the process "
               "holding lock %u", c->cond, dsm__rank, c->lock);
  dsm__tp_call(dsm__lk_manager(c->lock), DSM__MSG_COND, w, sizeof w, NULL, NULL);
  pthread_mutex_lock(&dsm__mu);
  (*dsm__lk_cwaits(dsm__lk_get(c->lock)))++;
  pthread_mutex_unlock(&dsm__mu);
}

static void sleep_impl(void *p)
{
  struct cond_nl a = *(struct cond_nl *)p, *c = &a;   /* read before dsm__mu (lock.c, acquire_impl) */
  dsm__buf_t b = { 0 };
  dsm__buf_u32(&b, DSM__CV_SLEEP);
  dsm__buf_u32(&b, c->cond);
  dsm__buf_u32(&b, c->lock);
  dsm__buf_u32(&b, c->who | DSM__CV_NOLOCK);
  pthread_mutex_lock(&dsm__mu);
  dsm__vt_encode(&b, dsm__known);
  pthread_mutex_unlock(&dsm__mu);
  /* The signal may come from a thread of this process: let it in. */
  unsigned g = dsm__gate_drop();
  dsm__tp_call(dsm__lk_manager(c->lock), DSM__MSG_COND, b.p, b.len, NULL, NULL);
  dsm__gate_take(g);
  dsm__buf_free(&b);
}

void dsm__cond_enqueue(unsigned cond, unsigned lock, unsigned who)
{
  struct cond_nl c = { cond, lock, who };
  dsm__on_private_stack(enqueue_impl, &c);
}

void dsm__cond_sleep(unsigned cond, unsigned lock, unsigned who)
{
  struct cond_nl c = { cond, lock, who };
  dsm__on_private_stack(sleep_impl, &c);
}
