/*
 * transport_udp_rpc.c — requests and replies over datagrams, exactly once.
 *
 * The origin of a request retransmits it until the reply comes back
 * (transport_udp_timers.c); the reply is the acknowledgement. The receiver
 * records every request it delivered in the reply cache (transport_cache.c),
 * so a duplicate is answered from the cache, re-forwarded to the same rank,
 * or, while its handler has not answered yet, told PENDING (which proves
 * the peer alive and slows the origin's retransmissions). A reply sent after
 * its handler returned (deferred: a lock grant, a barrier departure) carries
 * ACKREQ and is resent by its sender until acknowledged, because by then the
 * origin, told PENDING, retransmits only rarely.
 *
 * Also here: the way in, dsm__udp_on_datagram, which checks a datagram
 * (transport_udp_wire.c, then its source address) and hands it on by kind.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "transport_udp.h"

/* A multi-datagram request being reassembled. */
struct rpart {
  struct rpart *next;
  unsigned origin, src, type, flags, hops;
  uint64_t rid;
  struct partial p;
};

static struct rpart *rparts;

/* ACKs of partly received messages wait until the batch of datagrams being
 * handled is done (dsm__udp_acks_flush): one ACK per recvmmsg batch instead
 * of one per fragment. A 16 MiB PUSH is 274 fragments; an ACK each cost the
 * sender a wake-up and a receive, the receiver a send, each time. Under mu. */
#define ACKS_DUE 16
static struct ack_due {
  unsigned src, origin, type, tgt_rep, to_caller;
  uint64_t rid;
} acks_due[ACKS_DUE];
static unsigned nacks_due;

static void ack_later(unsigned src, unsigned origin, uint64_t rid, unsigned type, int tgt_rep,
                      int to_caller)
{
  for (unsigned i = 0; i < nacks_due; i++)
    if (acks_due[i].rid == rid && acks_due[i].origin == origin &&
        acks_due[i].tgt_rep == (unsigned)tgt_rep && acks_due[i].src == src)
      return;
  if (nacks_due == ACKS_DUE)
    dsm__udp_acks_flush();
  acks_due[nacks_due++] = (struct ack_due){ src, origin, type, (unsigned)tgt_rep,
                                            (unsigned)to_caller, rid };
}

/* Send the ACKs that wait, each with what its message holds now; a message
 * completed meanwhile was acknowledged (or needs none) already. */
void dsm__udp_acks_flush(void)
{
  unsigned n = nacks_due;
  nacks_due = 0;
  for (unsigned i = 0; i < n; i++) {
    const struct ack_due *a = &acks_due[i];
    const struct partial *part = NULL;
    if (a->tgt_rep) {
      struct call *c = dsm__udp_call_find(a->rid);
      if (c && !c->c.done && c->part && c->part->buf)
        part = c->part;
    } else {
      for (struct rpart *r = rparts; r; r = r->next)
        if (r->origin == a->origin && r->rid == a->rid) {
          part = &r->p;
          break;
        }
    }
    if (part)
      dsm__udp_send_ack(a->src, a->origin, a->rid, a->type, (int)a->tgt_rep, part,
                        (int)a->to_caller, 0);
  }
}

/* ---- calls (our requests) ------------------------------------------------------- */

struct call *dsm__udp_call_find(uint64_t rid)
{
  return (struct call *)dsm__tp_call_find(&U.core, rid);
}

void dsm__udp_call_complete(struct call *c, uint8_t *reply, size_t len)
{
  if (c->part) {
    dsm__udp_partial_free(c->part);
    free(c->part);
    c->part = NULL;
  }
  if (c->x) {
    dsm__udp_xfer_free(c->x);
    c->x = NULL;
  }
  dsm__tp_call_finish(&U.core, &c->c, reply, len);
}

void dsm__udp_call_start(struct call *c, unsigned dst, unsigned type, const void *req,
                         size_t len, unsigned *left, struct dsm__tp_waiter *w, int inline_self)
{
  DSM__ASSERT(dst < U.nprocs && type < DSM__MSG_COUNT && len <= DSM__TP_MAX_MSG);
  memset(c, 0, sizeof *c);
  dsm__tp_call_add(&U.core, &c->c, dst, type, left, w);
  c->t_sent = c->last_alive = dsm__now_ns();
  struct xfer *x = dsm__udp_xfer_new(dst, K_REQ, type, 0, U.self, c->c.rid, req, len);
  x->call = c;
  x->rto = dsm__udp_call_rto(dst, type);
  dsm__udp_own_add(x);
  c->x = x;
  if (dst != U.self) {
    DSM__STAT_MSG(sent, type, len);
    DSM__STAT_REQ(type);
  }
  dsm__udp_msg(1, DSM__TP_MSG_REQ, type, dst, U.self, c->c.rid, len);
  if (dst == U.self && inline_self)
    dsm__udp_timer_set(x, c->t_sent + x->rto);   /* the caller runs it: dsm__udp_call_inline */
  else
    dsm__udp_xfer_start(x, 1);
}

void dsm__udp_send_oneway_locked(unsigned dst, unsigned type, void *data, size_t len, int lazy)
{
  uint64_t rid = U.core.next_rid++;
  if (dst == U.self) {
    dsm__udp_local_enqueue(U.self, U.self, type, rid, 1, 0, data, len);
    free(data);
  } else {
    dsm__udp_msg(1, DSM__TP_MSG_ONEWAY, type, dst, U.self, rid, len);
    struct xfer *x = dsm__udp_xfer_new(dst, K_REQ, type, F_ONEWAY, U.self, rid, data, len);
    x->owned = data;
    if (lazy && U.lazy && x->nfrags == 1 && U.peers[dst].rknown) {
      x->flags |= F_LAZY;
      DSM__STAT_INC(lazy_sent);
    }
    dsm__udp_own_add(x);
    DSM__STAT_MSG(sent, type, len);
    DSM__STAT_REQ(type);
    dsm__udp_xfer_start(x, 1);
  }
}

/* ---- answering ------------------------------------------------------------------- */

void dsm__udp_reply_transmit(struct dsm__tp_centry *e, int again)
{
  if (e->oneway)
    return;
  if (e->origin == U.self) {
    struct call *c = dsm__udp_call_find(e->rid);
    if (c && !c->c.done)
      dsm__udp_call_complete(c, dsm__tp_dup(e->payload, e->len), e->len);
    return;
  }
  if (e->tx) {
    /* A multi-datagram reply still in flight: its own timer drives it. A
     * duplicate shows that the origin is missing pieces, so they go now;
     * unless the reply made progress within a round trip: then the
     * duplicate crossed it (a slow handler), and resending a fragment of
     * it at once only doubled the spurious traffic (issue 57). */
    struct xfer *x = e->tx;
    const struct rtt *est = &U.peers[x->peer].est;
    uint64_t now = dsm__now_ns(), rtt = est->srtt ? est->srtt + 4 * est->rttvar : x->rto;
    if (now - x->last_progress >= rtt) {
      x->deadline = now;
      dsm__udp_wake_role(SVC, 0);
    }
    return;
  }
  /* A deferred reply (a lock grant, a barrier departure, a semaphore
   * wake-up) whose origin was told PENDING is asked to be acknowledged and
   * resent on our timer until it is: that origin retransmits rarely (its
   * backoff reaches RTO_MAX), so a lost grant would otherwise cost up to a
   * second. An origin never told PENDING still retransmits on its normal
   * timeout, and its duplicate gets the reply again, as for any reply; no
   * timer here, so no wake-up of the thread that runs them either.
   * Bootstrap and shutdown answers have their own lingering instead. */
  int ack = e->deferred && e->told_pending && e->type != DSM__MSG_HELLO &&
            e->type != DSM__MSG_EXIT;
  unsigned flags = (ack ? F_ACKREQ : 0u) | (e->deferred ? F_DEFERRED : 0u) |
                   (again ? F_RESENT : 0u);
  struct xfer *x = dsm__udp_xfer_new(e->origin, K_REP, e->type, flags, e->origin, e->rid,
                                     e->payload, e->len);
  x->entry = e;
  x->orig = !again && !e->first_resent;
  if (x->nfrags == 1 && !ack) {
    dsm__udp_send_frag(x, 0, again);
    dsm__udp_xfer_free(x);
  } else {
    e->tx = x;
    dsm__udp_xfer_start(x, 1);
  }
}

void dsm__udp_forward_transmit(struct dsm__tp_centry *e, int again)
{
  if (e->fwd_dst == U.self) {
    if (!again)
      dsm__udp_local_enqueue(e->origin, U.self, e->type, e->rid, e->oneway, e->hops + 1,
                             e->payload, e->len);
    return;
  }
  if (e->tx) {
    if (again) {
      ((struct xfer *)e->tx)->deadline = dsm__now_ns();
      dsm__udp_wake_role(SVC, 0);
    }
    return;
  }
  /* A forward of a request that first came here resent is marked so: the
   * target's answer must not tell the origin its original arrived. */
  unsigned flags = (e->oneway ? F_ONEWAY : 0u) | (e->first_resent ? F_RESENT : 0u);
  struct xfer *x = dsm__udp_xfer_new(e->fwd_dst, K_REQ, e->type, flags, e->origin, e->rid,
                                     e->payload, e->len);
  x->entry = e;
  x->hops = e->hops + 1;
  if (x->nfrags == 1 && !e->oneway) {
    dsm__udp_send_frag(x, 0, again);
    dsm__udp_xfer_free(x);
  } else if (again && x->nfrags > 1) {
    /* The target probably has it all; ask before sending megabytes again. */
    struct hdr h = dsm__udp_hdr_make(K_PROBE, e->type, F_RESENT, e->fwd_dst, e->origin, e->rid);
    h.low = U.core.cache.low_seen[e->origin];
    h.hops = (uint8_t)(e->hops + 1);
    dsm__udp_send_dgram(e->fwd_dst, SVC, &h, NULL, 0, 1);
    dsm__udp_xfer_free(x);
  } else {
    e->tx = x;
    dsm__udp_xfer_start(x, 1);
  }
}

/* A request seen before: a retransmission (or a copy), hops its hop count. */
static void handle_dup(struct dsm__tp_centry *e, unsigned src, unsigned hops, int multi)
{
  DSM__STAT_INC(dup_requests);
  if (e->oneway) {
    if (e->state != DSM__TP_PENDING && src != U.self &&
        !dsm__udp_acks_now(src, e->origin, e->rid, 0, 0))
      dsm__udp_send_ack(src, e->origin, e->rid, e->type, 0, NULL, 0, 0);
    return;
  }
  switch (e->state) {
  case DSM__TP_ANSWERED:  dsm__udp_reply_transmit(e, 1); break;
  case DSM__TP_FORWARDED: dsm__udp_forward_transmit(e, 1); break;
  case DSM__TP_PENDING:
    if (e->origin != U.self) {
      struct hdr h = dsm__udp_hdr_make(K_PENDING, e->type, 0, e->origin, e->origin, e->rid);
      dsm__udp_send_dgram(e->origin, REPLY, &h, NULL, 0, 0);
      e->told_pending = 1;
    }
    if (multi && src != U.self)
      dsm__udp_send_ack(src, e->origin, e->rid, e->type, 0, NULL,
                        dsm__udp_acks_to_caller(hops, 0), 0);
    break;
  default: break;
  }
}

/* ---- delivering requests ----------------------------------------------------------- */

/* keep: where the malloc'd block holding data is, if the handler may take
 * it (dsm__tp_keep); the caller frees what is left there. */
/* resent: the copy (or a fragment of it) that arrived first was a
 * retransmission. */
static void deliver(unsigned origin, unsigned from, unsigned type, uint64_t rid, int oneway,
                    unsigned hops, int resent, const void *data, size_t len, void **keep)
{
  struct dsm__tp_cache *cache = &U.core.cache;
  struct dsm__tp_centry *e = dsm__tp_cache_find(cache, origin, rid);
  if (e) {
    /* A forwarded request visiting us again (hops > e->hops): a new visit. */
    e->state = DSM__TP_PENDING;
    e->from = from;
  } else {
    e = dsm__tp_cache_add(cache, origin, rid, type, from, oneway);
  }
  e->hops = hops;
  e->first_resent = resent;
  dsm__udp_msg(0, oneway ? DSM__TP_MSG_ONEWAY : DSM__TP_MSG_REQ, type, from, origin, rid, len);
  dsm__tp_run_handler(&U.core, origin, from, type, rid, data, len, keep);
  if (oneway) {
    e = dsm__tp_cache_find(cache, origin, rid);
    if (e && e->state == DSM__TP_PENDING)
      e->state = DSM__TP_ANSWERED;
    if (from != U.self)
      dsm__udp_ack_oneway(from, origin, rid, type, !resent);
  } else if ((e = dsm__tp_cache_find(cache, origin, rid)) && e->state == DSM__TP_PENDING) {
    e->deferred = 1;    /* answered later: see dsm__udp_reply_transmit */
  }
}

void dsm__udp_local_enqueue(unsigned origin, unsigned from, unsigned type, uint64_t rid,
                            int oneway, unsigned hops, const void *data, size_t len)
{
  struct dsm__tp_local l = { .type = type, .flags = oneway ? F_ONEWAY : 0, .origin = origin,
                             .from = from, .hops = hops, .rid = rid,
                             .data = dsm__tp_dup(data, len), .len = len };
  dsm__tp_local_push(&U.core, &l);
  dsm__udp_wake_role(SVC, 0);
}

/* The cache entries and partial requests the origin no longer needs. */
static void prune(unsigned origin, uint64_t low)
{
  struct dsm__tp_cache *cache = &U.core.cache;
  dsm__tp_cache_prune(cache, origin, low);
  for (struct rpart **pp = &rparts; *pp;) {
    struct rpart *r = *pp;
    if (r->origin == origin && r->rid < cache->low_seen[origin]) {
      *pp = r->next;
      dsm__udp_partial_free(&r->p);
      free(r);
    } else {
      pp = &r->next;
    }
  }
}

void dsm__udp_run_local(const struct dsm__tp_waiter *me)
{
  if (U.core.lq_head)
    prune(U.self, dsm__udp_own_low());
  struct dsm__tp_local *l;
  while (U.role[SVC].owner == me && (l = dsm__tp_local_pop(&U.core))) {
    struct dsm__tp_centry *e = dsm__tp_cache_find(&U.core.cache, l->origin, l->rid);
    if (e && l->hops <= e->hops)
      handle_dup(e, U.self, l->hops, 0);
    else {
      void *block = l->data;
      l->data = NULL;
      deliver(l->origin, l->from, l->type, l->rid, l->flags & F_ONEWAY, l->hops, 0, block,
              l->len, &block);
      free(block);
    }
    free(l->data);
    free(l);
  }
}

void dsm__udp_call_inline(struct call *c, const void *req, size_t len)
{
  prune(U.self, dsm__udp_own_low());
  deliver(U.self, U.self, c->c.type, c->c.rid, 0, 0, 0, req, len, NULL);
}

/* ---- receiving ------------------------------------------------------------------------ */

static void bad(const char *why, const struct sockaddr_in *from)
{
  DSM__STAT_INC(bad_datagrams);
  DSM__DEBUG("dropped datagram from %s:%u: %s", inet_ntoa(from->sin_addr), ntohs(from->sin_port),
             why);
}

static void on_request(const struct hdr *h, const uint8_t *p, size_t n)
{
  struct dsm__tp_cache *cache = &U.core.cache;
  unsigned origin = h->origin;
  int multi = h->total > h->fsz;
  if (h->kind == K_REQ && h->low > cache->low_seen[origin])
    prune(origin, h->low);
  if (h->rid < cache->low_seen[origin])
    return;   /* a stale copy of something the origin already has */
  struct dsm__tp_centry *e = dsm__tp_cache_find(cache, origin, h->rid);
  if (e && (h->hops <= e->hops || h->kind == K_PROBE)) {
    if (h->kind == K_REQ && multi && !e->oneway) {
      /* A late fragment of a request we have whole: the sender missed our
       * COMPLETE. Say it again; its PROBE will ask for the answer. */
      dsm__udp_send_ack(h->src, origin, h->rid, h->type, 0, NULL,
                        dsm__udp_acks_to_caller(h->hops, 0), 0);
      return;
    }
    handle_dup(e, h->src, h->hops, multi);
    return;
  }
  struct rpart *r = NULL, **rp;
  for (rp = &rparts; (r = *rp); rp = &r->next)
    if (r->origin == origin && r->rid == h->rid)
      break;
  if (r && r->hops != h->hops) {
    if (r->hops > h->hops)
      return;   /* a stale copy from an earlier hop */
    *rp = r->next;
    dsm__udp_partial_free(&r->p);
    free(r);
    r = NULL;
  }
  int to_caller = dsm__udp_acks_to_caller(h->hops, h->flags & F_ONEWAY);
  if (h->kind == K_PROBE) {
    /* Unknown: we never saw the whole request. Show what we hold so the
     * sender resends the rest (an empty bitmap if we hold nothing). */
    if (r)
      dsm__udp_send_ack(h->src, origin, h->rid, h->type, 0, &r->p, to_caller, 0);
    return;
  }
  if (!multi) {
    deliver(origin, h->src, h->type, h->rid, h->flags & F_ONEWAY, h->hops, h->flags & F_RESENT, p,
            n, NULL);
    return;
  }
  if (!r) {
    r = calloc(1, sizeof *r);
    if (!r || dsm__udp_partial_init(&r->p, h->total, h->fsz)) {
      free(r);
      DSM__DEBUG("no memory for a %u-byte request", h->total);
      return;   /* the sender will retry */
    }
    r->origin = origin; r->rid = h->rid; r->src = h->src; r->type = h->type; r->flags = h->flags;
    r->hops = h->hops;
    r->next = rparts;
    rparts = r;
  }
  if (r->p.total != h->total || r->p.fsz != h->fsz || r->type != h->type)
    return;
  r->src = h->src;
  if (!dsm__udp_partial_add(&r->p, h->off, p, n, h->flags)) {
    if (dsm__udp_partial_wants_ack(&r->p, h->flags))
      ack_later(h->src, origin, h->rid, h->type, 0, to_caller);
    return;
  }
  for (struct rpart **pp = &rparts; *pp; pp = &(*pp)->next)
    if (*pp == r) { *pp = r->next; break; }
  if (!(r->flags & F_ONEWAY))   /* stop its fragments */
    dsm__udp_send_ack(h->src, origin, h->rid, h->type, 0, NULL,
                      dsm__udp_acks_to_caller(r->hops, 0), !r->p.nresent);
  void *block = r->p.buf;
  r->p.buf = NULL;
  deliver(origin, h->src, r->type, r->rid, r->flags & F_ONEWAY, r->hops, r->p.nresent > 0, block,
          r->p.total, &block);
  free(block);
  dsm__udp_partial_free(&r->p);
  free(r);
}

/* The first datagram of a reply to call c, sent by its replier after
 * service ns: what it tells of the timeouts. */
static void reply_heard(struct call *c, const struct hdr *h, uint64_t now)
{
  /* The request's resends were spurious if this answers the original. */
  if (c->x)
    dsm__udp_judge_resends(c->x, h->flags & F_ORIG);
  /* A round trip, the replier's service time taken out: clean if nothing
   * was resent, or if this answers the original (Karn's rule, with
   * F_ORIG standing in for TCP's timestamps). */
  if ((!c->retransmitted || (h->flags & F_ORIG)) && h->src == c->c.dst &&
      h->low < now - c->t_sent)
    dsm__udp_peer_sample(c->c.dst, now - c->t_sent - h->low);
  if (!(h->flags & (F_DEFERRED | F_RESENT)))
    dsm__udp_service_sample(c->c.type, h->low);
}

static void on_reply(const struct hdr *h, const uint8_t *p, size_t n)
{
  int multi = h->total > h->fsz;
  struct call *c = dsm__udp_call_find(h->rid);
  if (!c || c->c.done) {
    /* Our COMPLETE may still be waiting to ride: then the replier did not
     * wait for it, and it goes now, as it was to. */
    if ((multi || (h->flags & F_ACKREQ)) && !dsm__udp_acks_now(h->src, h->origin, h->rid, 1, 0))
      dsm__udp_send_ack(h->src, h->origin, h->rid, h->type, 1, NULL, 0, 0);
    return;
  }
  uint64_t now = dsm__now_ns();
  c->last_alive = now;
  if (!multi) {
    if (h->flags & F_ACKREQ)
      dsm__udp_send_ack(h->src, h->origin, h->rid, h->type, 1, NULL, 0,
                        !(h->flags & F_RESENT));
    reply_heard(c, h, now);
    DSM__STAT_MSG(recv, c->c.type, n);
    dsm__udp_msg(0, DSM__TP_MSG_REP, c->c.type, h->src, U.self, h->rid, n);
    dsm__udp_call_complete(c, dsm__tp_dup(p, n), n);
    return;
  }
  if (!c->part) {
    c->part = calloc(1, sizeof *c->part);
    if (!c->part || dsm__udp_partial_init(c->part, h->total, h->fsz)) {
      free(c->part);
      c->part = NULL;
      return;
    }
    reply_heard(c, h, now);
  }
  if (c->part->total != h->total || c->part->fsz != h->fsz)
    return;
  if (!dsm__udp_partial_add(c->part, h->off, p, n, h->flags)) {
    if (dsm__udp_partial_wants_ack(c->part, h->flags))
      ack_later(h->src, h->origin, h->rid, h->type, 1, 0);
    return;
  }
  /* Nothing waits for this COMPLETE (the replier frees the reply when it
   * comes): it rides in our next datagram to the replier, mostly our next
   * request, rather than waking the replier's service thread now. */
  dsm__udp_ack_reply(h->src, h->rid, h->type, !c->part->nresent);
  uint8_t *buf = c->part->buf;
  c->part->buf = NULL;
  DSM__STAT_MSG(recv, c->c.type, h->total);
  dsm__udp_msg(0, DSM__TP_MSG_REP, c->c.type, h->src, U.self, h->rid, h->total);
  dsm__udp_call_complete(c, buf, h->total);
}

static void on_pending(const struct hdr *h)
{
  struct call *c = dsm__udp_call_find(h->rid);
  if (!c || c->c.done || !c->x)
    return;
  uint64_t now = dsm__now_ns();
  c->last_alive = now;
  /* Deferred (a barrier, a lock held elsewhere): the replier, having told
   * us so, sends the reply until we acknowledge it (dsm__udp_reply_transmit,
   * F_ACKREQ), so asking again only says that we still wait. It waits a
   * quarter of a second at once: doubling from the round trip, a process
   * that waited 0.4 s for a barrier's last member asked its manager three
   * times, and each time woke the manager's service thread, which at 16
   * processes is 15 wake-ups per resend round (2026-12-07). */
  uint64_t cap = dsm__udp_rto_cap(c->x);
  uint64_t rto = c->x->rto * 2 < RTO_PENDING ? RTO_PENDING : c->x->rto * 2;
  c->x->rto = rto > cap ? cap : rto;
  dsm__udp_timer_set(c->x, now + c->x->rto);
}

static void on_abort(const struct hdr *h, const uint8_t *p, size_t n)
{
  if (U.shutting_down == 2)
    return;    /* we are done; a late failure elsewhere is not ours */
  char why[ABORT_MAX + 1];
  size_t m = n > ABORT_MAX ? ABORT_MAX : n;
  for (size_t i = 0; i < m; i++)
    why[i] = p[i] < 32 || p[i] > 126 ? '?' : (char)p[i];
  why[m] = 0;
  /* util.c reads the reason and stops this process, saying why. */
  dsm__peer_stopped(h->src, why);
}

/* What may arrive on each socket; anything else was not sent by a member of
 * the job (or went to the wrong port), and the thread reading replies must
 * never run a handler. */
static int kind_fits(unsigned kind, int which)
{
  if (which == REPLY)
    return kind == K_REP || kind == K_PENDING || kind == K_ACK;
  return kind != K_REP && kind != K_PENDING;
}

void dsm__udp_on_datagram(uint8_t *b, size_t len, const struct sockaddr_in *from, int which)
{
  struct hdr h;
  size_t tn;
  const char *why = dsm__udp_check(b, len, &h, &tn);
  if (!why && !kind_fits(h.kind, which))
    why = which == REPLY ? "a request on the reply socket" : "a reply on the service socket";
  if (why) {
    bad(why, from);
    return;
  }
  size_t n = len - HDR_LEN - MAC_LEN - tn;
  const uint8_t *p = b + HDR_LEN;
  struct peer *pe = &U.peers[h.src];
  if (!pe->known || pe->addr.sin_addr.s_addr != from->sin_addr.s_addr ||
      pe->addr.sin_port != from->sin_port) {
    /* The master learns addresses from HELLO, the one datagram that may come
     * from an unknown source; the MAC vouches that it comes from our job. */
    if (U.self == 0 && h.kind == K_REQ && h.type == DSM__MSG_HELLO && !dsm__peers_known) {
      dsm__udp_set_peer(h.src, from);
    } else {
      bad("unknown source address", from);
      return;
    }
  }
  if ((why = dsm__udp_check_geometry(&h, n))) {
    bad(why, from);
    return;
  }
  uint64_t now = dsm__now_ns();
  pe->last_heard = now;
  U.last_recv = now;
  DSM__STAT_INC(datagrams_recv);
  if (h.flags & F_RESENT)
    DSM__STAT_INC(resends_heard);
  /* Riding ACKs first: each as if it had come in an ACK of its own. */
  for (size_t at = 0; at + 1 < tn; at += ACK_RIDE_LEN) {
    uint64_t id = get64(p + n + at);
    int rep = (id & ACK_RIDE_REP) != 0;
    unsigned f = F_COMPLETE | (rep ? F_TGT_REP : 0u) | ((id & ACK_RIDE_ORIG) ? F_ORIG : 0u);
    struct hdr a = { .magic = MAGIC, .kind = K_ACK, .type = h.type, .flags = (uint8_t)f,
                     .src = h.src, .dst = U.self, .origin = rep ? h.src : U.self,
                     .rid = id & ~(ACK_RIDE_REP | ACK_RIDE_ORIG) };
    dsm__udp_on_ack(&a, NULL, 0);
  }
  switch (h.kind) {
  case K_REQ:
  case K_PROBE:   on_request(&h, p, n); break;
  case K_REP:     on_reply(&h, p, n); break;
  case K_ACK:     dsm__udp_on_ack(&h, p, n); break;
  case K_PENDING: on_pending(&h); break;
  case K_ABORT:   on_abort(&h, p, n); break;
  }
}
