/*
 * transport_udp_timers.c — what happens when an ACK or a reply does not
 * come: retransmission with exponential backoff, the verdict that a peer is
 * gone, and keepalive PINGs that give every peer something to answer.
 *
 * A message (struct xfer) with a deadline sits in one of two lists: our
 * calls' requests in the REPLY list, whose timers the thread reading
 * replies runs (it is the thread waiting for them), everything else (one-
 * ways, forwards, replies sent reliably) in the SVC list, run by whoever
 * serves the service socket. Each fires its due timers only after it has
 * read everything queued on its socket, so an ACK or reply waiting there
 * never lets a timer fire spuriously. The lists are unsorted: they hold the
 * calls and messages in flight, a handful.
 */
#include "dsm_internal.h"
#include "transport_udp.h"

static struct xfer *timers[2];

static int list_of(const struct xfer *x)
{
  return x->call ? REPLY : SVC;
}

void dsm__udp_timer_set(struct xfer *x, uint64_t deadline)
{
  int l = list_of(x);
  x->deadline = deadline;
  if (!x->timed) {
    x->tprev = NULL;
    x->tnext = timers[l];
    if (timers[l]) timers[l]->tprev = x;
    timers[l] = x;
    x->timed = 1;
  }
  dsm__udp_wake_role(l, deadline);
}

void dsm__udp_timer_clear(struct xfer *x)
{
  if (!x->timed) return;
  int l = list_of(x);
  if (l == SVC)
    dsm__udp_tfd_dropped(x->deadline);
  if (x->tprev) x->tprev->tnext = x->tnext; else timers[l] = x->tnext;
  if (x->tnext) x->tnext->tprev = x->tprev;
  x->timed = 0;
}

static void on_timeout(struct xfer *x, uint64_t now)
{
  struct call *c = x->call;
  uint64_t alive = x->last_progress;
  if (c && c->last_alive > alive) alive = c->last_alive;
  if (x->peer != U.self && U.peers[x->peer].last_heard > alive) alive = U.peers[x->peer].last_heard;
  if (x->peer != U.self && now - alive > U.timeout_ns) {
    if (c && c->c.type == DSM__MSG_EXIT) {
      /* The master answered everyone and left; our answer was lost. */
      dsm__udp_call_complete(c, NULL, 0);
      return;
    }
    if (c || (x->flags & F_ONEWAY))
      dsm__fatal(DSM__EXIT_PEER_LOST, "rank %u did not answer for %d s", x->peer,
                 (int)(U.timeout_ns / 1000000000u));
    dsm__udp_xfer_free(x);   /* a reply or forward nobody collects any more */
    return;
  }
  if (c && c->part && now - c->last_alive < x->rto) {
    /* The reply is streaming in; its sender's timers cover it. */
    dsm__udp_timer_set(x, now + x->rto);
    return;
  }
  if (c) c->retransmitted = 1;
  if (x->peer == U.self) {
    /* A request to ourselves cannot be lost, but if we forwarded it the
     * target may have lost it: re-forward like a remote duplicate would. */
    struct dsm__tp_centry *e = dsm__tp_cache_find(&U.core.cache, x->origin, x->rid);
    if (e && e->state == DSM__TP_FORWARDED)
      dsm__udp_forward_transmit(e, 1);
  } else if (x->nfrags == 1) {
    if (x->flags & F_ACKREQ)
      DSM__STAT_INC(reply_resends);
    dsm__udp_send_frag(x, 0, 1);
  } else if (x->delivered) {
    struct hdr h = dsm__udp_hdr_make(K_PROBE, x->type, x->flags | F_RESENT, x->peer, x->origin,
                                     x->rid);
    h.low = x->origin == U.self ? dsm__udp_own_low() : U.core.cache.low_seen[x->origin];
    dsm__udp_send_dgram(x->peer, SVC, &h, NULL, 0, 1);
    x->resends++;
  } else {
    /* Resend the newest unacknowledged fragment in flight, asking for an
     * ACK (a probe): the receiver's bitmap then shows the holes, and those
     * go again at once (fast retransmit, dsm__udp_on_ack). Resending every
     * one in flight cost a whole window (2 MiB) each time a slow receiver,
     * not a lost datagram, let the timer run out. */
    uint32_t probe = UINT32_MAX;
    for (uint32_t i = x->next_new; i-- > x->low_unacked;)
      if (!dsm__udp_frag_acked(x, i)) {
        probe = i;
        break;
      }
    if (probe != UINT32_MAX)
      dsm__udp_send_frag(x, probe, 1);
    DSM__DEBUG("timeout: probed fragment %u of %u to rank %u (rto %llu us, acked %u)", probe,
               x->nfrags, x->peer, (unsigned long long)x->rto / 1000, x->nacked);
    if (x->next_new == x->low_unacked)
      dsm__udp_fill_window(x);
  }
  uint64_t cap = dsm__udp_rto_cap(x);
  x->rto = x->rto * 2 > cap ? cap : x->rto * 2;
  dsm__udp_timer_set(x, now + x->rto);
}

uint64_t dsm__udp_timers_next(int which)
{
  uint64_t next = UINT64_MAX;
  for (struct xfer *x = timers[which]; x; x = x->tnext)
    if (x->deadline < next)
      next = x->deadline;
  return next;
}

uint64_t dsm__udp_timers_run(int which, uint64_t now, uint64_t next)
{
  for (struct xfer *x = timers[which], *nx; x; x = nx) {
    nx = x->tnext;
    if (x->deadline <= now) {
      on_timeout(x, now);
      nx = timers[which];   /* the list may have changed; deadlines moved forward */
      now = dsm__now_ns();
    } else if (x->deadline < next) {
      next = x->deadline;
    }
  }
  return next;
}

/* Liveness without waiting: a peer this process has not heard from for a
 * third of the liveness timeout gets a one-way PING. A live peer's transport
 * acknowledges it even while its program computes; a stopped or cut-off peer
 * stays silent, and the unacknowledged PING then ends the job after
 * DSM_TIMEOUT like any other request would ("rank N did not answer"). Without
 * this, a barrier manager waiting for a stopped member's arrival, or slaves
 * waiting for a fork from a stopped master, would wait forever: nobody has a
 * request outstanding to the silent process. Idle cost: at most one small
 * datagram pair per peer every DSM_TIMEOUT/3 seconds. */
static uint64_t keepalive_due;

uint64_t dsm__udp_keepalive_next(void)
{
  return keepalive_due ? keepalive_due : UINT64_MAX;
}

void dsm__udp_keepalive(uint64_t now, uint64_t *next)
{
  uint64_t due = keepalive_due;
  if (!dsm__peers_known || U.shutting_down || U.core.svc_stop)
    return;
  uint64_t period = U.timeout_ns / 3;
  if (!due)
    due = now + period;
  if (now >= due) {
    for (unsigned p = 0; p < U.nprocs; p++)
      if (p != U.self && now - U.peers[p].last_heard > period)
        dsm__udp_send_oneway_locked(p, DSM__MSG_PING, NULL, 0, 0);
    due = now + period;
  }
  keepalive_due = due;
  if (due < *next)
    *next = due;
}
