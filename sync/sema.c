/*
 * sema.c — counting semaphores with a static manager (rank id % nprocs).
 *
 * The manager holds the count and a FIFO of waiting processes. A wait is
 * one request and one reply, a signal one message:
 *   signal  a release, and one-way: the message carries every interval
 *           record the manager may lack (not only the signaller's own: a
 *           waiter must also see what the signaller had acquired from others
 *           before it signalled, and the manager is the only way the records
 *           travel). The signaller remembers what it sent, so records are
 *           seldom sent twice. The manager stores the records and wakes the
 *           first waiter or counts the signal. The signaller does not wait
 *           for it: nothing it does next depends on the manager having seen
 *           the signal (a wait of its own that overtakes the signal only
 *           waits for it), and the transport delivers the message even if
 *           the signaller exits at once. Since a signal's records follow on
 *           from those of the signaller's previous signal to that manager,
 *           and one-way messages may be handled in any order (by the service
 *           thread or by a waiter serving the socket), each carries a
 *           sequence number per (signaller, manager), and the manager holds
 *           one that comes early until those before it are in
 *           (tests/sync/sema_burst). A signal to a semaphore the signaller
 *           manages itself is counted on the spot.
 *   wait    an acquire: the request carries the waiter's known vector; the
 *           manager answers at once if the count is positive, else when a
 *           signal comes, with every record the waiter lacks.
 * dsm_sema_init(id, value) sets the count at the manager. It is not ordered
 * with other processes' operations: call it before anyone else uses the
 * semaphore (e.g. before a barrier). Waiters already queued are woken as far
 * as the new count allows.
 * In a job of one process everything is local; waiting on a zero count there
 * could never end and is an error.
 */
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "profile.h"
#include "lrc.h"
#include "private_stack.h"
#include "sync.h"
#include "net/transport.h"

enum { SEMA_INIT = 1, SEMA_WAIT, SEMA_SIGNAL };

struct waiter {
  dsm__reqh_t h;
  uint32_t *known;
  struct waiter *next;
};

struct sema {
  unsigned id;
  long count;
  struct waiter *head, **tail;
  struct sema *chain;
};

#define NBUCKETS 256
static struct sema *buckets[NBUCKETS];   /* under dsm__mu */
static uint32_t **sent_to;               /* sent_to[m]: records manager m holds */

/* Signals in order per (signaller, manager), all under dsm__mu. */
static uint32_t *sig_sent;               /* [manager]: last sequence number sent */
static uint32_t *sig_done;               /* [signaller]: last one applied here */
struct early {                           /* a signal that came before its turn */
  unsigned origin;
  uint32_t seq, id;
  uint8_t *rec;                          /* its interval records */
  size_t len;
  struct early *next;
};
static struct early *earlies;

static struct sema *sema_get(unsigned id)
{
  unsigned b = (id * 2654435761u) >> 24;
  for (struct sema *s = buckets[b]; s; s = s->chain)
    if (s->id == id)
      return s;
  struct sema *s = calloc(1, sizeof *s);
  if (!s) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  s->id = id;
  s->tail = &s->head;
  s->chain = buckets[b];
  buckets[b] = s;
  return s;
}

static unsigned manager(unsigned id) { return id % dsm__nprocs; }

static void answer_waiter(struct waiter *w)
{
  dsm__buf_t b = { 0 };
  dsm__diff_unhold();
  dsm__intervals_encode(&b, w->known);
  dsm__tp_reply(w->h, b.p, b.len);
  dsm__buf_free(&b);
  free(w->known);
  free(w);
}

/* Under dsm__mu: consume the count for as many waiters as it allows. */
static void wake(struct sema *s)
{
  while (s->count > 0 && s->head) {
    struct waiter *w = s->head;
    s->head = w->next;
    if (!s->head) s->tail = &s->head;
    s->count--;
    answer_waiter(w);
  }
}

/* Under dsm__mu: a signal's turn has come (its records follow on from what
 * we hold of its signaller's). */
static void signal_apply(unsigned origin, struct sema *s, dsm__rd_t *r)
{
  if (dsm__intervals_decode(r) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "malformed interval records in SEMA signal from rank %u",
               origin);
  sig_done[origin]++;
  s->count++;
  wake(s);
}

/* SEMA request: op, id, then INIT: value; WAIT: known vt; SIGNAL (one-way):
 * sequence number, records. */
static void on_sema(const dsm__msg_t *m)
{
  dsm__rd_t r = dsm__rd(m->data, m->len);
  uint32_t op = dsm__rd_u32(&r), id = dsm__rd_u32(&r);
  if (r.bad || manager(id) != dsm__rank)
    dsm__fatal(DSM__EXIT_FATAL, "malformed SEMA request from rank %u", m->origin);
  pthread_mutex_lock(&dsm__mu);
  struct sema *s = sema_get(id);
  switch (op) {
  case SEMA_INIT: {
    int32_t v = (int32_t)dsm__rd_u32(&r);
    if (r.bad) dsm__fatal(DSM__EXIT_FATAL, "malformed SEMA request from rank %u", m->origin);
    s->count = v;
    wake(s);
    break;
  }
  case SEMA_WAIT: {
    struct waiter *w = calloc(1, sizeof *w);
    uint32_t *known = malloc(dsm__nprocs * sizeof(uint32_t));
    if (!w || !known) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    if (dsm__vt_decode(&r, known) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "malformed SEMA request from rank %u", m->origin);
    w->h = dsm__reqh(m);
    w->known = known;
    *s->tail = w;
    s->tail = &w->next;
    wake(s);
    pthread_mutex_unlock(&dsm__mu);
    return;                      /* answered by wake(), now or later */
  }
  case SEMA_SIGNAL: {            /* one-way: nothing to answer */
    uint32_t seq = dsm__rd_u32(&r);
    if (r.bad || seq <= sig_done[m->origin])
      dsm__fatal(DSM__EXIT_FATAL, "malformed SEMA signal from rank %u", m->origin);
    if (seq != sig_done[m->origin] + 1) {
      struct early *e = calloc(1, sizeof *e);
      if (!e || !(e->rec = malloc(r.len - r.off ? r.len - r.off : 1)))
        dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
      e->origin = m->origin;
      e->seq = seq;
      e->id = id;
      e->len = r.len - r.off;
      memcpy(e->rec, r.p + r.off, e->len);
      e->next = earlies;
      earlies = e;
      DSM__STAT_INC(sema_early);
      pthread_mutex_unlock(&dsm__mu);
      return;
    }
    signal_apply(m->origin, s, &r);
    /* The ones that came early and are next in line now. */
    for (struct early **pp = &earlies; *pp;) {
      struct early *e = *pp;
      if (e->origin != m->origin || e->seq != sig_done[m->origin] + 1) {
        pp = &e->next;
        continue;
      }
      *pp = e->next;
      dsm__rd_t er = dsm__rd(e->rec, e->len);
      signal_apply(e->origin, sema_get(e->id), &er);
      free(e->rec);
      free(e);
      pp = &earlies;              /* its successor may sit before it */
    }
    pthread_mutex_unlock(&dsm__mu);
    return;
  }
  default:
    dsm__fatal(DSM__EXIT_FATAL, "unknown SEMA operation %u from rank %u", op, m->origin);
  }
  pthread_mutex_unlock(&dsm__mu);
  dsm__tp_reply(dsm__reqh(m), NULL, 0);
}

struct sema_call { unsigned id; int value; };

static void init_impl(void *p)
{
  struct sema_call a = *(struct sema_call *)p, *c = &a;   /* before dsm__mu (lock.c, acquire_impl) */
  uint32_t req[3] = { SEMA_INIT, c->id, (uint32_t)c->value };
  dsm__tp_call(manager(c->id), DSM__MSG_SEMA, req, sizeof req, NULL, NULL);
}

static void wait_impl(void *p)
{
  struct sema_call a = *(struct sema_call *)p, *c = &a;   /* before dsm__mu (lock.c, acquire_impl) */
  dsm__buf_t b = { 0 };
  pthread_mutex_lock(&dsm__mu);
  dsm__buf_u32(&b, SEMA_WAIT);
  dsm__buf_u32(&b, c->id);
  dsm__vt_encode(&b, dsm__known);
  pthread_mutex_unlock(&dsm__mu);
  void *reply = NULL;
  size_t len = 0;
  /* The signal may come from a thread of this process (dsm/threads.c). */
  unsigned g = dsm__gate_drop();
  dsm__tp_call(manager(c->id), DSM__MSG_SEMA, b.p, b.len, &reply, &len);
  dsm__gate_take(g);
  dsm__buf_free(&b);
  dsm__rd_t r = dsm__rd(reply, len);
  pthread_mutex_lock(&dsm__mu);
  if (dsm__intervals_decode(&r) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "malformed interval records in the wake-up of semaphore %u",
               c->id);
  dsm__acquire();
  pthread_mutex_unlock(&dsm__mu);
  free(reply);
}

static void signal_impl(void *p)
{
  struct sema_call a = *(struct sema_call *)p, *c = &a;   /* before dsm__mu (lock.c, acquire_impl) */
  unsigned mgr = manager(c->id);
  pthread_mutex_lock(&dsm__mu);
  dsm__release();
  dsm__diff_unhold();
  if (mgr == dsm__rank) {
    /* The records are in our store already; a waiter gets them from it. */
    struct sema *s = sema_get(c->id);
    s->count++;
    wake(s);
    pthread_mutex_unlock(&dsm__mu);
    return;
  }
  dsm__buf_t b = { 0 };
  dsm__buf_u32(&b, SEMA_SIGNAL);
  dsm__buf_u32(&b, c->id);
  dsm__buf_u32(&b, ++sig_sent[mgr]);
  dsm__intervals_encode(&b, sent_to[mgr]);
  /* Whatever we hold now, the manager will hold once the signal lands. */
  for (unsigned q = 0; q < dsm__nprocs; q++)
    if (dsm__known[q] > sent_to[mgr][q]) sent_to[mgr][q] = dsm__known[q];
  pthread_mutex_unlock(&dsm__mu);
  dsm__tp_send(mgr, DSM__MSG_SEMA, b.p, b.len);
  dsm__buf_free(&b);
}

/* One process: the count is all there is, and with several threads
 * (dsm/threads.c) a waiter sleeps until a sibling signals. The threads
 * share the memory, so the mutex orders what they wrote. */
static pthread_cond_t local_cv = PTHREAD_COND_INITIALIZER;

static void local_op(unsigned id, int op, int value)
{
  pthread_mutex_lock(&dsm__mu);
  struct sema *s = sema_get(id);
  if (op == SEMA_INIT) {
    s->count = value;
    pthread_cond_broadcast(&local_cv);
  } else if (op == SEMA_SIGNAL) {
    s->count++;
    pthread_cond_broadcast(&local_cv);
  } else if (dsm__threads > 1) {
    while (s->count <= 0)
      pthread_cond_wait(&local_cv, &dsm__mu);
    s->count--;
  } else if (s->count > 0) {
    s->count--;
  } else {
    dsm__fatal(DSM__EXIT_FATAL, "dsm_sema_wait(%u) on a zero count in a job of one process "
               "would wait forever", id);
  }
  pthread_mutex_unlock(&dsm__mu);
}

void dsm_sema_init(unsigned id, int value)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_sema_init called before dsm_startup");
  if (value < 0)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_sema_init(%u, %d): negative initial value", id, value);
  if (dsm__nprocs == 1) {
    local_op(id, SEMA_INIT, value);
    return;
  }
  struct sema_call c = { id, value };
  dsm__on_private_stack(init_impl, &c);
}

void dsm_sema_wait(unsigned id)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_sema_wait called before dsm_startup");
  dsm__flush_settle();   /* a flush that waited happens before we wait (flush.c) */
  DSM__STAT_INC(sema_waits);
  uint64_t t0 = dsm__prof_on ? dsm__now_ns() : 0;
  if (dsm__nprocs == 1) {
    local_op(id, SEMA_WAIT, 0);
    return;
  }
  struct sema_call c = { id, 0 };
  dsm__on_private_stack(wait_impl, &c);
  if (t0)
    dsm__prof_span("semaphore", t0, dsm__now_ns(), id);
}

void dsm_sema_signal(unsigned id)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_sema_signal called before dsm_startup");
  if (dsm__nprocs == 1) {
    local_op(id, SEMA_SIGNAL, 0);
    return;
  }
  struct sema_call c = { id, 0 };
  dsm__on_private_stack(signal_impl, &c);
}

void dsm__sema_init(void);
void dsm__sema_init(void)
{
  sent_to = calloc(dsm__nprocs, sizeof *sent_to);
  sig_sent = calloc(dsm__nprocs, sizeof *sig_sent);
  sig_done = calloc(dsm__nprocs, sizeof *sig_done);
  if (!sent_to || !sig_sent || !sig_done) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  for (unsigned m = 0; m < dsm__nprocs; m++) {
    sent_to[m] = calloc(dsm__nprocs, sizeof(uint32_t));
    if (!sent_to[m]) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  }
  dsm__tp_handle(DSM__MSG_SEMA, on_sema);
}
