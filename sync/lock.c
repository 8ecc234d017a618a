/*
 * lock.c — distributed locks (TreadMarks): a static manager per lock and a
 * distributed queue made of "last requester" pointers.
 *
 * The manager of lock id is rank id % nprocs. It remembers only the last
 * process that asked for the lock and forwards each new request to it: that
 * process is the requester's predecessor in the queue. The predecessor
 * answers the request (the grant goes straight to the requester) when it
 * releases the lock, or at once if it holds the lock idle. So consistency
 * data moves lazily: the grant carries the interval records the requester
 * lacks (it sent its known vector with the request), and only when the
 * acquire really reaches the releaser. A process that released the lock last
 * and saw no request since re-acquires it without any message.
 *
 * Holder side, per lock: have_token (this process is the current end of the
 * lock's history: the lock is here, held or idle), held (the application
 * holds it) and at most one successor: the manager forwards a request only
 * to the last requester and then makes the new requester the last, so each
 * place in the queue has one successor. A successor may arrive before the
 * token itself (its predecessor is still waiting): it waits in `next`.
 *
 * A try-acquire (omp_test_lock) goes the same way, but the predecessor
 * answers at once: yes with the lock if it holds it idle, else no. In the no
 * case the requester still took a place in the queue, so the predecessor
 * keeps it as a "phantom" successor and, at its release, sends the lock to it
 * as a one-way TOKEN that the requester's service thread keeps (idle) and
 * passes on to its own successor if one is waiting. The queue is never
 * broken and no request is ever retried. While that place is pending, the
 * process must not take a second one (it would then have two successors):
 * a plain acquire waits for the TOKEN instead of asking the manager, and a
 * further try fails at once.
 *
 * Condition variables (cond.c) put woken waiters into the same queue.
 *
 * Lingering. A holder that releases the lock while a successor waits passes
 * it at once, unless it has had the lock only briefly: then it keeps it
 * idle for up to DSM_LOCK_LINGER_US (50 us), and a re-acquire in that time
 * takes it again with no message, as if the request had not come yet; a
 * timer thread (the lock alarm) passes it on when the time is up. The
 * streak and hold bounds of the yield (below) bound lingering too, so the
 * successor waits at most DSM_LOCK_STREAK acquires or DSM_LOCK_HOLD_US.
 * Why: before the service thread ran at once when a request came
 * (dsm__short_slice), a request reaching a holder that was computing waited
 * for its slice to end, about a millisecond, in which the holder took the
 * lock again and again without a message. Served at once, each release
 * handed the lock over: an OpenMP atomic in a loop on two processes went
 * from 35 to 90-190 us, tsp's remote lock acquires from 200 to 1,000.
 * Lingering keeps the throughput and bounds the unfairness explicitly;
 * the streak bound is 8, not 16, because a turn's length follows the
 * holder's speed: the slowest process (under AddressSanitizer, eight
 * processes on two CPUs, the lock's manager) got a quarter of its fair
 * share of acquires with 16 (tests/sync/fairness).
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "profile.h"
#include "lrc.h"
#include "private_stack.h"
#include "sync.h"
#include "net/transport.h"
#include "lock.h"

struct succ {
  int present;
  int phantom;          /* a failed try: send the token one-way */
  unsigned rank;
  dsm__reqh_t h;
  uint32_t *known;
};

struct dsm__lk {
  unsigned id;
  struct dsm__lk *chain;
  /* holder side */
  int have_token, held;
  int phantoms;         /* failed tries whose TOKEN has not come (may dip to
                           -1: the TOKEN can overtake the "no") */
  int want;             /* the application waits for that TOKEN */
  struct succ next;
  dsm__carry_t *carry;  /* diffs made under the lock, for the next holder (dsm/carry.c) */
  uint64_t since;       /* when the lock last came here from elsewhere (0: not yet) */
  unsigned streak;      /* acquires without a message since then */
  uint64_t linger_until;/* idle here with a successor waiting, until then (0: not) */
  uint32_t cwaits;      /* with the token: waiters of its conditions not yet signalled */
  unsigned arrivals;    /* grants and TOKENs that brought the lock here */
  /* manager side */
  unsigned last;
  dsm__cwait_t *cwaiters;
};

#define NBUCKETS 256
static dsm__lk_t *buckets[NBUCKETS];
/* A TOKEN came; waited for on a transport event, so the TOKEN is handled
 * by the thread that wants it. */
static dsm__tp_event_t token_ev = DSM__TP_EVENT_INIT;
static dsm__tp_event_t handoff_ev = DSM__TP_EVENT_INIT;   /* a yield's lock went on */

unsigned dsm__lk_manager(unsigned id) { return id % dsm__nprocs; }
int dsm__lk_held(dsm__lk_t *lk) { return lk->held; }
dsm__cwait_t **dsm__lk_cwaiters(dsm__lk_t *lk) { return &lk->cwaiters; }
uint32_t *dsm__lk_cwaits(dsm__lk_t *lk) { return &lk->cwaits; }
unsigned dsm__lk_arrivals(dsm__lk_t *lk) { return lk->arrivals; }

dsm__lk_t *dsm__lk_get(unsigned id)
{
  unsigned b = (id * 2654435761u) >> 24;
  for (dsm__lk_t *lk = buckets[b]; lk; lk = lk->chain)
    if (lk->id == id)
      return lk;
  dsm__lk_t *lk = calloc(1, sizeof *lk);
  if (!lk) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  lk->id = id;
  /* Before anyone asks, the lock is idle at its manager. */
  lk->last = dsm__lk_manager(id);
  lk->have_token = lk->last == dsm__rank;
  lk->chain = buckets[b];
  buckets[b] = lk;
  return lk;
}

static uint32_t *vt_copy(const uint32_t *vt)
{
  uint32_t *c = malloc(dsm__nprocs * sizeof(uint32_t));
  if (!c) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  memcpy(c, vt, dsm__nprocs * sizeof(uint32_t));
  return c;
}

/* Grant reply / TOKEN payload: ok flag, the count of condition waiters
 * (cond.c), then the records the receiver lacks, then the diffs the lock
 * carries (they go with it). */
static void grant(dsm__lk_t *lk, dsm__reqh_t h, unsigned to, const uint32_t *known)
{
  dsm__buf_t b = { 0 };
  dsm__buf_u32(&b, 1);
  dsm__buf_u32(&b, lk->cwaits);
  dsm__diff_unhold();
  dsm__intervals_encode(&b, known);
  dsm__carry_encode(&b, &lk->carry, to);
  dsm__tp_reply(h, b.p, b.len);
  dsm__buf_free(&b);
}

/* The lock is here and idle and a successor waits: hand it over. */
static void pass_token(dsm__lk_t *lk, unsigned id)
{
  DSM__ASSERT(lk->have_token && !lk->held && lk->next.present);
  lk->linger_until = 0;
  struct succ n = lk->next;
  memset(&lk->next, 0, sizeof lk->next);
  DSM__DEBUG("lock %u: passed to rank %u%s", id, n.rank, n.phantom ? " (token)" : "");
  lk->have_token = 0;
  if (!n.phantom) {
    grant(lk, n.h, n.rank, n.known);
  } else if (n.rank == dsm__rank) {
    /* Our own failed try (cannot happen while a try of ours is pending,
     * since a further try then fails locally; kept for completeness). */
    lk->have_token = 1;
    lk->phantoms--;
    if (lk->want)
      dsm__tp_event_fire(&token_ev);
  } else {
    dsm__buf_t b = { 0 };
    dsm__buf_u32(&b, DSM__LK_TOKEN);
    dsm__buf_u32(&b, id);
    dsm__buf_u32(&b, lk->cwaits);
    dsm__diff_unhold();
    dsm__intervals_encode(&b, n.known);
    dsm__carry_encode(&b, &lk->carry, n.rank);
    dsm__tp_send(n.rank, DSM__MSG_LOCK, b.p, b.len);
    dsm__buf_free(&b);
  }
  free(n.known);
}

/* A request reached its predecessor in the queue (this process). */
static void holder_request(dsm__lk_t *lk, unsigned id, dsm__reqh_t h, unsigned origin,
                           const uint32_t *known, int try)
{
  if (lk->next.present)
    dsm__fatal(DSM__EXIT_FATAL, "lock %u: rank %u got a second successor (rank %u after %u)",
               id, dsm__rank, origin, lk->next.rank);
  /* (want: the TOKEN is here but our application has not woken to take it.) */
  if (lk->have_token && !lk->held && !lk->want) {
    lk->have_token = 0;
    grant(lk, h, origin, known);
    dsm__tp_event_fire(&handoff_ev);   /* a yield may wait for it to go */
    return;
  }
  lk->next.present = 1;
  lk->next.phantom = try;
  lk->next.rank = origin;
  lk->next.h = h;
  lk->next.known = vt_copy(known);
  if (try) {
    uint32_t no = 0;
    dsm__tp_reply(h, &no, sizeof no);
  }
}

unsigned dsm__lk_enqueue(dsm__lk_t *lk, unsigned rank)
{
  unsigned prev = lk->last;
  lk->last = rank;
  return prev;
}

static void route(dsm__lk_t *lk, unsigned id, unsigned prev, dsm__reqh_t h, unsigned origin,
                  const uint32_t *known, int try)
{
  if (prev == dsm__rank) {
    holder_request(lk, id, h, origin, known, try);
    return;
  }
  dsm__buf_t b = { 0 };
  dsm__buf_u32(&b, DSM__LK_HREQ);
  dsm__buf_u32(&b, id);
  dsm__buf_u32(&b, (uint32_t)try);
  dsm__vt_encode(&b, known);
  dsm__tp_forward(h, prev, b.p, b.len);
  dsm__buf_free(&b);
}

void dsm__lk_route(dsm__lk_t *lk, unsigned id, unsigned prev, dsm__reqh_t h, unsigned origin,
                   const uint32_t *known)
{
  route(lk, id, prev, h, origin, known, 0);
}

/* LOCK and COND requests. Payload: op, then per op. */
static void on_lock(const dsm__msg_t *m)
{
  dsm__rd_t r = dsm__rd(m->data, m->len);
  unsigned op = dsm__rd_u32(&r);
  if (op >= DSM__CV_WAIT) {
    dsm__cond_handle(m, &r, op);
    return;
  }
  unsigned id = dsm__rd_u32(&r);
  uint32_t *known = malloc(dsm__nprocs * sizeof(uint32_t));
  if (!known) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  pthread_mutex_lock(&dsm__mu);
  dsm__lk_t *lk = dsm__lk_get(id);
  DSM__DEBUG("lock %u: op %u from rank %u via %u rid %llu (last %u, token %d, held %d, "
             "phantoms %d, want %d, next %d)", id, op, m->origin, m->from,
             (unsigned long long)m->rid, lk->last, lk->have_token, lk->held, lk->phantoms,
             lk->want, lk->next.present);
  switch (op) {
  case DSM__LK_YIELD: {
    /* The idle holder asks whether anyone is waiting: nobody is if no
     * request came since its own last one. Nothing is queued here either
     * way. (Queueing the holder's request behind itself would give one
     * process two places, and a successor's request reaching it could not
     * say which one it follows.) */
    if (dsm__lk_manager(id) != dsm__rank)
      dsm__fatal(DSM__EXIT_FATAL, "malformed LOCK request from rank %u", m->origin);
    uint32_t answer = lk->last == m->origin ? 2 : 3;
    pthread_mutex_unlock(&dsm__mu);
    free(known);
    dsm__tp_reply(dsm__reqh(m), &answer, sizeof answer);
    return;
  }
  case DSM__LK_ACQ:
  case DSM__LK_TRY:
    if (dsm__vt_decode(&r, known) < 0 || r.bad || dsm__lk_manager(id) != dsm__rank)
      dsm__fatal(DSM__EXIT_FATAL, "malformed LOCK request from rank %u", m->origin);
    route(lk, id, dsm__lk_enqueue(lk, m->origin), dsm__reqh(m), m->origin, known,
          op == DSM__LK_TRY);
    break;
  case DSM__LK_HREQ: {
    uint32_t try = dsm__rd_u32(&r);
    if (dsm__vt_decode(&r, known) < 0 || r.bad)
      dsm__fatal(DSM__EXIT_FATAL, "malformed forwarded LOCK request from rank %u", m->from);
    holder_request(lk, id, dsm__reqh(m), m->origin, known, try != 0);
    break;
  }
  case DSM__LK_TOKEN:
    lk->cwaits = dsm__rd_u32(&r);
    lk->arrivals++;
    if (r.bad || dsm__intervals_decode(&r) < 0 || dsm__carry_decode(&r, &lk->carry) < 0 || lk->have_token)
      dsm__fatal(DSM__EXIT_FATAL, "malformed lock TOKEN from rank %u", m->origin);
    lk->have_token = 1;
    lk->since = dsm__now_ns();
    lk->phantoms--;
    if (lk->want)
      dsm__tp_event_fire(&token_ev);
    else if (lk->next.present && !lk->held)
      pass_token(lk, id);
    break;
  default:
    dsm__fatal(DSM__EXIT_FATAL, "unknown LOCK operation %u from rank %u", op, m->origin);
  }
  pthread_mutex_unlock(&dsm__mu);
  free(known);
  if (op == DSM__LK_TOKEN)
    dsm__tp_reply(dsm__reqh(m), NULL, 0);
}

void dsm__lk_end_interval(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&dsm__mu);
  dsm__release();
  pthread_mutex_unlock(&dsm__mu);
}

void dsm__lk_take_grant(unsigned id, const void *reply, size_t len, int released)
{
  dsm__rd_t r = dsm__rd(reply, len);
  if (dsm__rd_u32(&r) != 1)
    dsm__fatal(DSM__EXIT_FATAL, "malformed grant of lock %u", id);
  uint32_t cwaits = dsm__rd_u32(&r);
  if (r.bad)
    dsm__fatal(DSM__EXIT_FATAL, "malformed grant of lock %u", id);
  pthread_mutex_lock(&dsm__mu);
  dsm__lk_t *lk = dsm__lk_get(id);
  lk->cwaits = cwaits;
  lk->arrivals++;
  if (dsm__intervals_decode(&r) < 0 || dsm__carry_decode(&r, &lk->carry) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "malformed interval records in the grant of lock %u", id);
  if (released)
    dsm__acquire_after_release();
  else
    dsm__acquire();
  dsm__carry_apply(lk->carry);
  DSM__ASSERT(!lk->have_token && !lk->held);
  lk->have_token = 1;
  lk->held = 1;
  lk->since = dsm__now_ns();
  lk->streak = 0;
  pthread_mutex_unlock(&dsm__mu);
}

struct lock_call { unsigned id; int try; int ok; };

/* The bounds of a streak of acquires without a message (see acquire_impl). */
static uint64_t hold_ns(void)
{
  static uint64_t ns;
  if (!ns)
    ns = (uint64_t)dsm__env_long("DSM_LOCK_HOLD_US", 1000, 1, 60000000) * 1000;
  return ns;
}

static unsigned streak_max(void)
{
  static unsigned max;
  if (!max)
    max = (unsigned)dsm__env_long("DSM_LOCK_STREAK", 8, 1, 1 << 30);
  return max;
}

static uint64_t linger_ns(void)
{
  static long us = -1;
  if (us < 0)
    us = dsm__env_long("DSM_LOCK_LINGER_US", 50, 0, 1000000);
  return (uint64_t)us * 1000;
}

/* ---- the lock alarm: passes on the locks whose lingering is over ---------------------- */

static pthread_cond_t alarm_cv;
static uint64_t alarm_at;        /* earliest lingering deadline (0: none); under dsm__mu */
static int alarm_running;

static void *alarm_main(void *arg)
{
  (void)arg;
  dsm__short_slice();
  pthread_mutex_lock(&dsm__mu);
  for (;;) {
    if (!alarm_at) {
      pthread_cond_wait(&alarm_cv, &dsm__mu);
      continue;
    }
    uint64_t now = dsm__now_ns();
    if (now < alarm_at) {
      struct timespec ts = { (time_t)(alarm_at / 1000000000u), (long)(alarm_at % 1000000000u) };
      pthread_cond_timedwait(&alarm_cv, &dsm__mu, &ts);
      continue;
    }
    alarm_at = 0;
    for (unsigned b = 0; b < NBUCKETS; b++)
      for (dsm__lk_t *lk = buckets[b]; lk; lk = lk->chain) {
        if (!lk->linger_until)
          continue;
        if (lk->linger_until <= now) {
          lk->linger_until = 0;
          if (lk->have_token && !lk->held && lk->next.present)
            pass_token(lk, lk->id);
        } else if (!alarm_at || lk->linger_until < alarm_at) {
          alarm_at = lk->linger_until;
        }
      }
  }
  return NULL;
}

/* Under dsm__mu. */
static void alarm_arm(uint64_t at)
{
  if (!alarm_running) {
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);   /* dsm__now_ns's clock */
    pthread_cond_init(&alarm_cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_t t;
    if (pthread_create(&t, NULL, alarm_main, NULL))
      dsm__fatal(DSM__EXIT_FATAL, "cannot start the lock alarm thread");
    pthread_detach(t);
    alarm_running = 1;
  }
  if (!alarm_at || at < alarm_at) {
    alarm_at = at;
    pthread_cond_signal(&alarm_cv);
  }
}

/* A yield (see acquire_impl), with the lock here and idle. Entered and left
 * under dsm__mu, which is let go while the manager answers and while the
 * lock goes on. Returns 1 if someone asked after our last request: the lock
 * has then gone to it, and we queue up behind it. */
static int yield_turn(dsm__lk_t *lk, unsigned id)
{
  /* While we ask, a successor's request that reaches us waits in `next`
   * (want) instead of taking the lock from under the answer. */
  DSM__STAT_INC(lock_yields);
  lk->want = 1;
  uint32_t req[2] = { DSM__LK_YIELD, id };
  pthread_mutex_unlock(&dsm__mu);
  if (dsm__lk_manager(id) == dsm__rank) {
    /* We manage the lock, so the question is answered on this thread,
     * from what our service thread has handled: a request that came in
     * while we ran may still wait in the socket, its service thread
     * runnable on our CPU (dsm/bind.c) but not running. Let it run. */
    sched_yield();
  }
  void *reply = NULL;
  size_t len = 0;
  dsm__tp_call(dsm__lk_manager(id), DSM__MSG_LOCK, req, sizeof req, &reply, &len);
  uint32_t answer = 0;
  if (len == 4) memcpy(&answer, reply, 4);
  free(reply);
  if (answer != 2 && answer != 3)
    dsm__fatal(DSM__EXIT_FATAL, "malformed answer to a yield of lock %u", id);
  pthread_mutex_lock(&dsm__mu);
  lk->want = 0;
  lk->streak = 0;
  lk->since = dsm__now_ns();
  DSM__ASSERT(lk->have_token && !lk->held);
  if (answer == 2)
    return 0;
  /* Someone asked after our last request: its request comes (or came)
   * here, and it goes first. Only once the lock has gone to it do we ask
   * again: until then a request reaching us could be meant for either of
   * our two places in the queue. */
  if (lk->next.present)
    pass_token(lk, id);
  uint64_t t0 = dsm__now_ns();
  while (lk->have_token) {
    pthread_mutex_unlock(&dsm__mu);
    dsm__tp_event_wait(&handoff_ev);
    pthread_mutex_lock(&dsm__mu);
  }
  dsm__blocked_since(t0);
  lk->since = 0;
  return 1;
}

/* The lock is here and idle: take it with no message. Entered under
 * dsm__mu, which it lets go. */
static void take_here(dsm__lk_t *lk, struct lock_call *c)
{
  /* (Or it came with a TOKEN, whose records the service thread stored:
   * apply them.) */
  lk->held = 1;
  lk->streak++;
  lk->linger_until = 0;     /* taken again while lingering */
  if (!lk->since)
    lk->since = dsm__now_ns();
  dsm__acquire();
  dsm__carry_apply(lk->carry);
  pthread_mutex_unlock(&dsm__mu);
  DSM__STAT_INC(lock_acquires);
  c->ok = 1;
}

/* Wait for the TOKEN that our failed try's place in the queue brings, and
 * take the lock. Entered under dsm__mu, which it lets go. */
static void take_after_failed_try(dsm__lk_t *lk, struct lock_call *c)
{
  uint64_t t0 = dsm__now_ns();
  lk->want = 1;
  while (!lk->have_token) {
    pthread_mutex_unlock(&dsm__mu);
    dsm__tp_event_wait(&token_ev);
    pthread_mutex_lock(&dsm__mu);
  }
  lk->want = 0;
  dsm__blocked_since(t0);
  lk->held = 1;
  dsm__acquire();              /* the TOKEN's records are in the store */
  dsm__carry_apply(lk->carry);
  pthread_mutex_unlock(&dsm__mu);
  DSM__STAT_INC(lock_acquires);
  DSM__STAT_INC(lock_remote);
  c->ok = 1;
}

/* Ask the lock's manager for a place in the queue, and wait for the grant
 * (or, for a try, the "no"). Entered under dsm__mu, which it lets go. */
static void acquire_remote(struct lock_call *c)
{
  DSM__ASSERT(dsm__nprocs > 1);
  dsm__buf_t b = { 0 };
  dsm__buf_u32(&b, c->try ? DSM__LK_TRY : DSM__LK_ACQ);
  dsm__buf_u32(&b, c->id);
  dsm__vt_encode(&b, dsm__known);
  pthread_mutex_unlock(&dsm__mu);

  void *reply = NULL;
  size_t len = 0;
  /* The holder may be waiting for a thread of this process (dsm/threads.c):
   * the gate is let go until the grant comes. The OpenMP layer keeps the
   * process's other threads out of this lock meanwhile (omp_llock.c). */
  unsigned g = dsm__gate_drop();
  /* The acquire ends the open interval (dsm/interval.c), and with its
   * diffs to make and send that is the larger part of its own work once
   * the grant is in: 170-270 us of ~430 us for qsort's rank 1 on this VM.
   * It needs nothing from the grant, so it runs while the request
   * travels and the holder answers. Not with other threads in the
   * process: they may write between it and the grant. */
  int overlap = dsm__threads == 1;
  if (overlap)
    dsm__tp_call_overlap(dsm__lk_manager(c->id), DSM__MSG_LOCK, b.p, b.len, &reply, &len,
                         dsm__lk_end_interval, NULL);
  else
    dsm__tp_call(dsm__lk_manager(c->id), DSM__MSG_LOCK, b.p, b.len, &reply, &len);
  dsm__gate_take(g);
  dsm__buf_free(&b);
  DSM__STAT_INC(lock_remote);
  uint32_t ok = 0;
  if (len >= 4) memcpy(&ok, reply, 4);
  c->ok = ok == 1;
  if (c->ok) {
    dsm__lk_take_grant(c->id, reply, len, overlap);
    DSM__STAT_INC(lock_acquires);
  } else {
    pthread_mutex_lock(&dsm__mu);
    dsm__lk_get(c->id)->phantoms++;
    pthread_mutex_unlock(&dsm__mu);
  }
  free(reply);
}

static void acquire_call(struct lock_call *c)
{
  pthread_mutex_lock(&dsm__mu);
  dsm__lk_t *lk = dsm__lk_get(c->id);
  if (lk->held) {
    pthread_mutex_unlock(&dsm__mu);
    if (c->try) {
      c->ok = 0;
      return;
    }
    dsm__fatal(DSM__EXIT_FATAL, "rank %u acquires lock %u, which it already holds "
               "(DSM locks are not recursive)", dsm__rank, c->id);
  }
  /* Released here last and nobody asked since: take it again with no
   * message (TreadMarks). But a request may be on its way here through the
   * manager, and a process that takes the lock again and again faster than
   * that would starve the others (its critical sections need no message
   * now that diffs travel with the lock). So after DSM_LOCK_STREAK such
   * acquires in a row, or DSM_LOCK_HOLD_US of them, it asks the manager
   * whether anyone is waiting (a yield): one round trip per streak when
   * nobody is, and a fair turn for whoever is. */
  if (lk->have_token && !lk->since)
    lk->since = dsm__now_ns();
  int ask = 0;   /* someone asked after us: queue up behind it */
  if (lk->have_token && !c->try && dsm__nprocs > 1 &&
      (dsm__now_ns() - lk->since > hold_ns() || lk->streak >= streak_max()) &&
      !lk->next.present && lk->phantoms <= 0)
    ask = yield_turn(lk, c->id);
  if (lk->have_token && !ask) {
    take_here(lk, c);
    return;
  }
  if (lk->phantoms > 0 && !ask) {
    /* Our failed try holds a place in the queue: wait for it to come. */
    if (c->try) {
      pthread_mutex_unlock(&dsm__mu);
      c->ok = 0;
      return;
    }
    take_after_failed_try(lk, c);
    return;
  }
  acquire_remote(c);
}

/* The call's struct is on its caller's stack, which is shared memory: a
 * page of it can turn inaccessible at any time (the service thread gives
 * a page to a process that writes it first, first_touch.c), and a fault
 * taken while holding dsm__mu waits for dsm__mu forever. So the request
 * is copied onto the private stack before dsm__mu is taken, and the answer
 * written back after it is let go (a task test of the compiler corpus hung
 * so on 4 processes, 2026-12-07). Every *_impl of sync/ reads its argument
 * this way. */
static void acquire_impl(void *p)
{
  struct lock_call c = *(struct lock_call *)p;
  acquire_call(&c);
  ((struct lock_call *)p)->ok = c.ok;
}

void dsm__lk_release_locked(dsm__lk_t *lk, unsigned id, int linger)
{
  if (!lk->held)
    dsm__fatal(DSM__EXIT_FATAL, "rank %u releases lock %u, which it does not hold",
               dsm__rank, id);
  lk->held = 0;
  dsm__release_carrying(&lk->carry);
  if (!lk->next.present)
    return;
  uint64_t now = dsm__now_ns();
  if (linger && linger_ns() && lk->since && now - lk->since < hold_ns() &&
      lk->streak < streak_max()) {
    lk->linger_until = now + linger_ns();
    alarm_arm(lk->linger_until);
    return;
  }
  pass_token(lk, id);
}

static void release_impl(void *p)
{
  unsigned id = *(unsigned *)p;
  pthread_mutex_lock(&dsm__mu);
  dsm__lk_release_locked(dsm__lk_get(id), id, 1);
  pthread_mutex_unlock(&dsm__mu);
}

void dsm_lock_acquire(unsigned id)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_lock_acquire called before dsm_startup");
  dsm__flush_settle();   /* a flush that waited happens before we wait (flush.c) */
  struct lock_call c = { id, 0, 0 };
  uint64_t t0 = dsm__prof_on ? dsm__now_ns() : 0;
  dsm__on_private_stack(acquire_impl, &c);
  if (t0)
    dsm__prof_span("lock", t0, dsm__now_ns(), id);
}

int dsm__lock_try(unsigned id)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "omp_test_lock called before dsm_startup");
  dsm__flush_settle();   /* a flush that waited happens before we wait (flush.c) */
  struct lock_call c = { id, 1, 0 };
  dsm__on_private_stack(acquire_impl, &c);
  return c.ok;
}

void dsm_lock_release(unsigned id)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_lock_release called before dsm_startup");
  dsm__on_private_stack(release_impl, &id);
}

void dsm__lock_init(void);
void dsm__lock_init(void)
{
  dsm__tp_handle(DSM__MSG_LOCK, on_lock);
  dsm__tp_handle(DSM__MSG_COND, on_lock);
}
