/*
 * barrier.c — barriers with a centralized manager (rank 0).
 *
 * Arrival is a release: a process closes its interval and sends the manager
 * its own new interval records and what it knows (its vector time). The
 * manager answers every arrival when the last one of the team comes in; each
 * departure carries the records that process lacks, and is an acquire.
 * 2(n-1) messages per barrier. A reduction rides along: contributions come
 * with the arrivals and the manager combines them in rank order.
 * The protocol layer rides along too (dsm/collective.c): each arrival names
 * the process's intervals of the epoch, and each departure carries what the
 * manager concluded from all of them (pages whose home moves).
 *
 * Two processes: no manager. With rank 0 as manager, a barrier where
 * rank 0 arrives first costs two messages in series after rank 1 arrives
 * (its arrival, then the departure), each a wake-up of a sleeping thread on
 * the other CPU; the stencil of issue 13 paid ~90 us per barrier on both
 * ranks, a quarter of its sweep. So in a team of two each process sends the
 * other its arrival (one-way, PAIRBAR) and, holding both, computes its own
 * departure from them as a manager would: one message after the last
 * arrival, and nothing more. The manager's work is a function of the
 * arrivals and of state that every process keeps alike (the interval
 * records, the homes, the collected garbage), so both conclude the same.
 * The arrival is lazy (dsm__tp_send_lazy): the other takes it in when it
 * comes to the barrier itself, and if it is still computing, no thread of
 * its is woken for it.
 */
#include <stdlib.h>
#include <string.h>

#include "coll_msg.h"
#include "dsm_internal.h"
#include "profile.h"
#include "lrc.h"
#include "private_stack.h"
#include "sync.h"
#include "net/transport.h"


/* Manager state, under dsm__mu. */
enum arrival_kind {
  BY_REQUEST,            /* a BARRIER request: answer it */
  LOCAL,                 /* the manager's own arrival: no request to answer */
  PAIR_PEER,             /* the other of a pair: it departs by itself */
};
struct arrival {
  int present;
  enum arrival_kind kind;
  dsm__reqh_t h;
  uint32_t *known;
  uint8_t *red;
  size_t redlen;
  uint8_t *tail;         /* its interval records and the protocol's part, until all came */
  size_t tail_len;
};
static struct arrival *arr;
static unsigned narrived, cur_team;
static uint32_t cur_id, cur_redlen;
static uint32_t red_type, red_op;
static uint64_t red_count;

static uint32_t own_sent;   /* own intervals already shipped to the manager */

/* A barrier of two (see the top). pair_gen counts the pair barriers this
 * process entered; the peer can be one ahead (it left this one first), so
 * its arrivals are kept by generation parity. Under dsm__mu. */
struct pair_msg { uint8_t *p; size_t len; uint32_t gen; };
static uint32_t pair_gen;
static struct pair_msg pair_arr[2];
static dsm__tp_event_t pair_ev = DSM__TP_EVENT_INIT;

/* The manager's own departure, handed over without the transport. The
 * manager waits for it on an event, serving the network meanwhile, so the
 * last arrival is received and handled by the manager's own thread. */
static dsm__tp_event_t local_ev = DSM__TP_EVENT_INIT;
static dsm__buf_t local_reply;
static int local_done;

uint32_t dsm__barrier_own_sent(void) { return own_sent; }
void dsm__barrier_set_own_sent(uint32_t v) { own_sent = v; }

static void complete(void)
{
  /* Combine the reduction in rank order. */
  uint8_t *acc = NULL;
  size_t rlen = cur_redlen;
  if (rlen) {
    acc = malloc(rlen);
    if (!acc) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    memcpy(acc, arr[0].red, rlen);
    for (unsigned r = 1; r < cur_team; r++)
      if (dsm__red_combine((int)red_type, (int)red_op, acc, arr[r].red, red_count) < 0)
        dsm__fatal(DSM__EXIT_FATAL, "reduction: operator %u does not apply to type %u",
                   red_op, red_type);
  }
  /* The arrivals' interval records enter the store only now that the
   * manager has arrived too. Stored as they came, they were applied by the
   * manager's acquire of the barrier before (the others go on after a
   * departure and may arrive here again first) or by any acquire of its
   * between the two: its home pages then waited for diffs that their
   * writers hold until this departure (diff_send.c), which the manager,
   * stuck on such a page, never sent (water under 5% loss, 1 run in 30). */
  for (unsigned r = 0; r < cur_team; r++) {
    dsm__rd_t t = dsm__rd(arr[r].tail, arr[r].tail_len);
    if (dsm__intervals_decode(&t) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "malformed interval records from rank %u", r);
    dsm__coll_note(r, t.p + t.off, t.len - t.off);
    free(arr[r].tail);
    arr[r].tail = NULL;
  }
  dsm__buf_t coll = { 0 };
  dsm__coll_depart_encode(&coll, cur_team == dsm__nprocs, 1);
  for (unsigned r = 0; r < cur_team; r++) {
    dsm__buf_t b = { 0 };
    if (arr[r].kind == PAIR_PEER)
      goto next;          /* it holds both arrivals too and departs by itself */
    dsm__buf_u32(&b, (uint32_t)rlen);
    dsm__buf_put(&b, acc, rlen);
    dsm__intervals_encode(&b, arr[r].known);
    dsm__home_ride_put(&b, r);
    dsm__buf_put(&b, coll.p, coll.len);
    if (arr[r].kind == LOCAL) {
      local_reply = b;
      local_done = 1;
      dsm__tp_event_fire(&local_ev);
    } else {
      dsm__tp_reply(arr[r].h, b.p, b.len);
      dsm__buf_free(&b);
    }
  next:
    free(arr[r].known);
    free(arr[r].red);
    memset(&arr[r], 0, sizeof arr[r]);
  }
  free(acc);
  dsm__buf_free(&coll);
  narrived = 0;
}

/* BARRIER request: id, team, redlen, type, op, count(u64), red bytes, known
 * vt, own interval records, the protocol's arrival part. Called with dsm__mu
 * held, from the service thread (a request: h), for the manager's own
 * arrival, or for a pair's peer. */
static void arrival(unsigned origin, const void *data, size_t len, enum arrival_kind kind,
                    const dsm__reqh_t *h)
{
  dsm__rd_t r = dsm__rd(data, len);
  uint32_t id = dsm__rd_u32(&r), team = dsm__rd_u32(&r);
  uint32_t redlen = dsm__rd_u32(&r), type = dsm__rd_u32(&r), op = dsm__rd_u32(&r);
  uint64_t count = dsm__rd_u64(&r);
  const void *red = dsm__rd_take(&r, redlen);
  uint32_t *known = malloc(dsm__nprocs * sizeof(uint32_t));
  if (!known || dsm__vt_decode(&r, known) < 0 || r.bad || team == 0 || team > dsm__nprocs ||
      origin >= team)
    dsm__fatal(DSM__EXIT_FATAL, "malformed BARRIER request from rank %u", origin);
  if (narrived == 0) {
    cur_id = id;
    cur_team = team;
    red_type = type;
    red_op = op;
    red_count = count;
    cur_redlen = redlen;
  } else if (id != cur_id || team != cur_team) {
    dsm__fatal(DSM__EXIT_FATAL, "barrier mismatch: rank %u is at barrier %u (team of %u) "
               "while others are at barrier %u (team of %u)", origin, id, team, cur_id, cur_team);
  } else if (redlen != cur_redlen) {
    dsm__fatal(DSM__EXIT_FATAL, "reduction mismatch at barrier %u: rank %u contributes %u bytes",
               id, origin, redlen);
  }
  if (!arr) {
    arr = calloc(dsm__nprocs, sizeof *arr);
    if (!arr) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  }
  struct arrival *a = &arr[origin];
  DSM__ASSERT(!a->present);
  a->present = 1;
  a->kind = kind;
  if (h) a->h = *h;
  a->known = known;
  a->redlen = redlen;
  a->red = redlen ? malloc(redlen) : NULL;
  if (redlen) memcpy(a->red, red, redlen);
  a->tail_len = r.len - r.off;
  a->tail = malloc(a->tail_len ? a->tail_len : 1);
  if ((redlen && !a->red) || !a->tail) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  memcpy(a->tail, r.p + r.off, a->tail_len);
  if (++narrived == cur_team)
    complete();
}

static void on_barrier(const dsm__msg_t *m)
{
  dsm__reqh_t h = dsm__reqh(m);
  pthread_mutex_lock(&dsm__mu);
  arrival(m->origin, m->data, m->len, BY_REQUEST, &h);
  pthread_mutex_unlock(&dsm__mu);
}

static int pair_mode(void)
{
  static int on = -1;
  if (on < 0)   /* DSM_PAIR_BARRIER=0: rank 0 manages, as with more (for measuring) */
    on = (int)dsm__env_long("DSM_PAIR_BARRIER", 1, 0, 1);
  return on && dsm__nprocs == 2 && dsm__team == 2;
}

static void pair_keep(struct pair_msg *k, const dsm__rd_t *r, uint32_t gen)
{
  k->len = r->len - r->off;
  k->p = malloc(k->len ? k->len : 1);
  if (!k->p) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  memcpy(k->p, r->p + r->off, k->len);
  k->gen = gen;
}

/* PAIRBAR: generation, then an arrival as BARRIER carries it. Kept for the
 * barrier's own thread, which handles it. It may be for the barrier we are
 * in or the next (the peer left ours first), never further: the peer
 * leaves a barrier only with our arrival. */
static void on_pairbar(const dsm__msg_t *m)
{
  dsm__rd_t r = dsm__rd(m->data, m->len);
  uint32_t gen = dsm__rd_u32(&r);
  pthread_mutex_lock(&dsm__mu);
  struct pair_msg *k = &pair_arr[gen & 1];
  if (r.bad || dsm__nprocs != 2 || m->origin == dsm__rank || k->p || gen - pair_gen > 1u)
    dsm__fatal(DSM__EXIT_FATAL, "unexpected PAIRBAR from rank %u (barrier %u; we are at %u)",
               m->origin, gen, pair_gen);
  pair_keep(k, &r, gen);
  dsm__tp_event_fire(&pair_ev);
  pthread_mutex_unlock(&dsm__mu);
}

static void pair_free(struct pair_msg *k)
{
  free(k->p);
  *k = (struct pair_msg){ 0 };
}

/* Our arrival b (after its 4-byte PAIRBAR head) and the peer's, both here:
 * be the manager for ourselves. Returns our departure. Under dsm__mu. */
static dsm__buf_t pair_manage(const dsm__buf_t *b, struct pair_msg *peer)
{
  arrival(dsm__rank, b->p + 4, b->len - 4, LOCAL, NULL);
  arrival(1 - dsm__rank, peer->p, peer->len, PAIR_PEER, NULL);
  DSM__ASSERT(local_done);
  local_done = 0;
  dsm__buf_t out = local_reply;
  memset(&local_reply, 0, sizeof local_reply);
  pair_free(peer);
  return out;
}

struct barrier_call { unsigned id; dsm__red_t *red; };

/* Our arrival into b (a BARRIER request, or with pair its PAIRBAR head
 * first), after the collective's release. Under dsm__mu. */
static void arrival_encode(dsm__buf_t *b, const struct barrier_call *c, size_t rlen, int pair,
                           unsigned peer)
{
  if (pair) {
    pair_gen++;
    dsm__buf_u32(b, pair_gen);
  }
  dsm__buf_u32(b, c->id);
  dsm__buf_u32(b, dsm__team);
  dsm__buf_u32(b, (uint32_t)rlen);
  dsm__buf_u32(b, c->red ? (uint32_t)c->red->type : 0);
  dsm__buf_u32(b, c->red ? (uint32_t)c->red->op : 0);
  dsm__buf_u64(b, c->red ? c->red->count : 0);
  if (rlen) dsm__buf_put(b, c->red->in, rlen);
  dsm__vt_encode(b, dsm__known);
  dsm__own_intervals_encode(b, own_sent);
  own_sent = dsm__known[dsm__rank];
  /* Our pushes ride to the process that takes this arrival: the manager,
   * or the other of a pair. */
  dsm__coll_arrive_encode(b, !pair ? 0 : peer);
}

/* A barrier of two: send our arrival b, wait for the peer's, and compute
 * our departure from both. */
static dsm__buf_t pair_depart(const dsm__buf_t *b, unsigned peer)
{
  uint64_t t0 = dsm__now_ns();
  /* Sent even when the peer's arrival is already here (it came by a
   * resend, or while we were still in the barrier before): the peer
   * needs ours, and each computes its departure at the same time,
   * instead of one after the other as when the last to arrive managed
   * the barrier for both and sent the other its departure (dsmbench's
   * barrier of two: 0.33-0.56x the UDP round trip, against 0.63-0.71x
   * with a last arrival that managed whenever it could). */
  dsm__tp_send_lazy(peer, DSM__MSG_PAIRBAR, b->p, b->len);
  pthread_mutex_lock(&dsm__mu);
  struct pair_msg *pa = &pair_arr[pair_gen & 1];
  while (!pa->p) {
    pthread_mutex_unlock(&dsm__mu);
    dsm__tp_event_wait(&pair_ev);
    pthread_mutex_lock(&dsm__mu);
  }
  DSM__ASSERT(pa->gen == pair_gen);
  dsm__buf_t mine = pair_manage(b, pa);
  DSM__STAT_INC(pair_barriers);
  pthread_mutex_unlock(&dsm__mu);
  dsm__blocked_since(t0);
  return mine;
}

/* The manager arrives without a message and waits for the last one. */
static dsm__buf_t manager_depart(const dsm__buf_t *b)
{
  uint64_t t0 = dsm__now_ns();
  pthread_mutex_lock(&dsm__mu);
  arrival(0, b->p, b->len, LOCAL, NULL);
  while (!local_done) {
    pthread_mutex_unlock(&dsm__mu);
    dsm__tp_event_wait(&local_ev);
    pthread_mutex_lock(&dsm__mu);
  }
  local_done = 0;
  dsm__buf_t mine = local_reply;
  memset(&local_reply, 0, sizeof local_reply);
  pthread_mutex_unlock(&dsm__mu);
  dsm__blocked_since(t0);
  return mine;
}

/* Take our departure: the reduction's result, records, then the
 * protocol's part. */
static void departure(const struct barrier_call *c, size_t rlen, const void *reply,
                      size_t reply_len)
{
  dsm__rd_t r = dsm__rd(reply, reply_len);
  uint32_t got = dsm__rd_u32(&r);
  const void *res = dsm__rd_take(&r, got);
  if (r.bad || got != rlen)
    dsm__fatal(DSM__EXIT_FATAL, "malformed barrier departure");
  dsm__coll_lag();
  pthread_mutex_lock(&dsm__mu);
  if (dsm__intervals_decode(&r) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "malformed interval records in barrier departure");
  /* Pushes ride in a departure only from the manager, rank 0 (a pair's
   * come inside the arrivals). The departure is decoded whole before any
   * of it is applied. */
  dsm__coll_ride_t ride;
  dsm__coll_depart_t dep;
  if (!dsm__coll_ride_read(&ride, &r) ||
      !dsm__coll_depart_read(&dep, &r, dsm__nprocs, dsm__npages) || r.off != r.len ||
      dsm__pushed_ride_take(0, &ride) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "malformed barrier departure");
  dsm__coll_depart_pushes(&dep);
  pthread_mutex_unlock(&dsm__mu);
  dsm__pushed_wait();
  pthread_mutex_lock(&dsm__mu);
  dsm__acquire_after_release();
  dsm__coll_depart_apply(&dep);
  pthread_mutex_unlock(&dsm__mu);
  /* The result is stored after the acquire: the departure's acquire does
   * not look at hot pages again (dsm__acquire_after_release), and the
   * result may be one. */
  if (rlen) memcpy(c->red->out, res, rlen);
}

static void barrier_impl(void *arg)
{
  /* The call, the reduction and its input are read before dsm__mu is
   * taken: they may lie on a shared stack (lock.c, acquire_impl, says
   * why). The result is written after it is let go (departure). */
  struct barrier_call call = *(struct barrier_call *)arg, *c = &call;
  dsm__red_t red;
  void *in = NULL;
  size_t rlen = 0;
  if (c->red) {
    red = *c->red;
    rlen = dsm__red_size(red.type) * red.count;
    if (!rlen)
      dsm__fatal(DSM__EXIT_FATAL, "reduction of unknown type %d", red.type);
    in = malloc(rlen);
    if (!in) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    memcpy(in, red.in, rlen);
    red.in = in;
    c->red = &red;
  }
  int pair = pair_mode();
  unsigned peer = 1 - dsm__rank;
  dsm__buf_t b = { 0 };
  pthread_mutex_lock(&dsm__mu);
  /* (Counted before the release, whose own calls may read the socket.) */
  if (pair && pair_arr[(pair_gen + 1) & 1].p)
    DSM__STAT_INC(pair_found);
  dsm__coll_release(dsm__team);
  arrival_encode(&b, c, rlen, pair, peer);
  pthread_mutex_unlock(&dsm__mu);

  void *reply = NULL;
  size_t reply_len = 0;
  if (pair || dsm__rank == 0) {
    dsm__buf_t mine = pair ? pair_depart(&b, peer) : manager_depart(&b);
    reply = mine.p;
    reply_len = mine.len;
  } else {
    dsm__tp_call(0, DSM__MSG_BARRIER, b.p, b.len, &reply, &reply_len);
  }
  dsm__buf_free(&b);
  departure(c, rlen, reply, reply_len);
  free(reply);
  free(in);
  dsm__distribute_apply();
  DSM__STAT_INC(barriers);
}

void dsm__barrier_red(unsigned id, dsm__red_t *red)
{
  dsm__flush_settle();   /* a flush that waited happens before we wait (flush.c) */
  if (dsm__nprocs == 1 || dsm__team == 1) {
    if (red)
      memcpy(red->out, red->in, dsm__red_size(red->type) * red->count);
    DSM__STAT_INC(barriers);
    return;
  }
  struct barrier_call c = { id, red };
  uint64_t t0 = dsm__prof_on ? dsm__now_ns() : 0;
  dsm__on_private_stack(barrier_impl, &c);
  if (t0)
    dsm__prof_span("barrier", t0, dsm__now_ns(), id);
}

void dsm_barrier(unsigned id)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_barrier called before dsm_startup");
  dsm__barrier_red(id, NULL);
}

void dsm__barrier_init(void)
{
  dsm__tp_handle(DSM__MSG_BARRIER, on_barrier);
  dsm__tp_handle(DSM__MSG_PAIRBAR, on_pairbar);
}
