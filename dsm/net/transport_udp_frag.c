/*
 * transport_udp_frag.c — messages longer than one datagram.
 *
 * An outgoing message (struct xfer) is cut into fragments of the peer's
 * fragment size. A multi-datagram message is acknowledged by its receiver
 * with ACKs carrying the count of fragments held from the start and a bitmap
 * of what it holds after that; the sender keeps a window of unacknowledged
 * fragments in flight, resends a hole as soon as a later fragment was
 * acknowledged and the hole's own ACK is overdue (fast retransmit), and on a
 * timeout (transport_udp_timers.c) resends only what is missing. A
 * single-datagram message needs none of this: the reply, or a duplicate
 * request, is its acknowledgement.
 *
 * The receiving side is struct partial: a buffer and a bitmap per message
 * being reassembled.
 *
 * Also here: the hash of messages in flight (ACKs find their message by
 * peer, origin, rid and kind) and the list of our own requests in flight.
 */
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "transport_udp.h"

static struct xfer *xbucket[DSM__TP_NBUCKET];
static struct xfer *own_head, *own_tail;

/* ---- messages in flight -------------------------------------------------------- */

struct xfer *dsm__udp_xfer_find(unsigned peer, unsigned origin, uint64_t rid, unsigned kind)
{
  for (struct xfer *x = xbucket[dsm__tp_hash(origin, rid)]; x; x = x->hnext)
    if (x->peer == peer && x->origin == origin && x->rid == rid && x->kind == kind)
      return x;
  return NULL;
}

struct xfer *dsm__udp_xfer_new(unsigned peer, unsigned kind, unsigned type, unsigned flags,
                               unsigned origin, uint64_t rid, const void *data, size_t len)
{
  DSM__ASSERT(peer == U.self || U.peers[peer].known);
  struct xfer *x = calloc(1, sizeof *x);
  DSM__ASSERT(x);
  x->peer = peer; x->kind = kind; x->type = type; x->flags = flags;
  x->origin = origin; x->rid = rid; x->data = data; x->len = len;
  x->fsz = peer == U.self ? FSZ_LO : U.peers[peer].fsz;
  x->nfrags = len ? (uint32_t)((len + x->fsz - 1) / x->fsz) : 1;
  if (x->nfrags > 1) {
    size_t words = (x->nfrags + 63) / 64;
    x->acked = calloc(words, sizeof *x->acked);
    x->sent_at = calloc(x->nfrags, sizeof *x->sent_at);
    x->resent = calloc(words, sizeof *x->resent);
    DSM__ASSERT(x->acked && x->sent_at && x->resent);
    x->window = U.window_bytes / x->fsz;
    if (x->window < 4) x->window = 4;
    if (x->window > ACK_BITS / 2) x->window = ACK_BITS / 2;
  }
  x->rto = peer == U.self ? RTO_INIT : U.peers[peer].rto;
  x->last_progress = dsm__now_ns();
  unsigned b = dsm__tp_hash(origin, rid);
  x->hnext = xbucket[b];
  xbucket[b] = x;
  x->hashed = 1;
  return x;
}

void dsm__udp_xfer_free(struct xfer *x)
{
  dsm__udp_timer_clear(x);
  if (x->hashed) {
    struct xfer **pp = &xbucket[dsm__tp_hash(x->origin, x->rid)];
    while (*pp != x) pp = &(*pp)->hnext;
    *pp = x->hnext;
  }
  int own = x->own;
  if (own) {
    if (x->oprev) x->oprev->onext = x->onext; else own_head = x->onext;
    if (x->onext) x->onext->oprev = x->oprev; else own_tail = x->oprev;
  }
  if (x->entry && x->entry->tx == x)
    x->entry->tx = NULL;
  free(x->acked);
  free(x->sent_at);
  free(x->resent);
  free(x->owned);
  free(x);
  if (own && !own_head)
    dsm__udp_ctl_changed();   /* shutdown waits for one-ways to drain */
}

void dsm__udp_own_add(struct xfer *x)
{
  x->own = 1;
  x->oprev = own_tail;
  if (own_tail) own_tail->onext = x; else own_head = x;
  own_tail = x;
}

uint64_t dsm__udp_own_low(void)
{
  return own_head ? own_head->rid : U.core.next_rid;
}

int dsm__udp_own_busy(void)
{
  return own_head != NULL;
}

/* ---- sending fragments ------------------------------------------------------------- */

int dsm__udp_frag_acked(const struct xfer *x, uint32_t i)
{
  return (x->acked[i / 64] >> (i % 64)) & 1;
}

void dsm__udp_send_frag(struct xfer *x, uint32_t i, int retrans)
{
  unsigned flags = x->flags | (retrans ? F_RESENT : 0u);
  if (x->kind == K_REP && x->orig && !retrans)
    flags |= F_ORIG;
  struct hdr h = dsm__udp_hdr_make(x->kind, x->type, flags, x->peer, x->origin, x->rid);
  if (retrans)
    x->resends++;
  /* The receiver of a message of several datagrams acknowledges what it
   * holds only when asked, or when it sees a hole (one lost below one
   * that came): asked on a resend, and every half window of fragments
   * while more follow, so the window moves on before it is used up. (It
   * used to after every batch it read: one or more ACKs per message, each
   * a wake-up here, where the whole message fit in half a window and
   * nothing waited for them.) */
  uint32_t nn = i + 1, half = x->window / 2 ? x->window / 2 : 1;
  if (x->nfrags > 1 && (retrans || (nn < x->nfrags && nn % half == 0)))
    h.flags |= F_WANTACK;
  h.fsz = x->fsz;
  h.hops = (uint8_t)x->hops;
  h.total = (uint32_t)x->len;
  h.off = i * x->fsz;
  if (x->kind == K_REQ)
    h.low = x->origin == U.self ? dsm__udp_own_low() : U.core.cache.low_seen[x->origin];
  else if (x->entry)
    h.low = dsm__now_ns() - x->entry->t_arrive;
  size_t n = x->len - h.off < x->fsz ? x->len - h.off : x->fsz;
  /* A lazy one-way's first copy waits in the reply socket; a resend goes
   * where the service thread hears it (F_LAZY in transport_udp.h). */
  int to = x->kind == K_REP || ((x->flags & F_LAZY) && !retrans) ? REPLY : SVC;
  dsm__udp_send_dgram(x->peer, to, &h, x->data + h.off, n, retrans);
  if (x->sent_at) {
    x->sent_at[i] = dsm__now_ns();
    if (retrans)
      x->resent[i / 64] |= 1ull << (i % 64);
  }
}

void dsm__udp_fill_window(struct xfer *x)
{
  while (x->next_new < x->nfrags && x->next_new - x->nacked < x->window &&
         x->next_new < x->low_unacked + x->window)
    dsm__udp_send_frag(x, x->next_new++, 0);
}

void dsm__udp_xfer_start(struct xfer *x, int timed)
{
  uint64_t now = dsm__now_ns();
  x->last_progress = now;
  if (x->peer == U.self) {
    dsm__udp_local_enqueue(x->origin, U.self, x->type, x->rid, x->flags & F_ONEWAY, x->hops,
                           x->data, x->len);
  } else if (x->nfrags == 1) {
    dsm__udp_send_frag(x, 0, 0);
  } else {
    dsm__udp_fill_window(x);
    timed = 1;
  }
  if (timed)
    dsm__udp_timer_set(x, now + x->rto);
}

/* ---- reassembly ---------------------------------------------------------------------- */

int dsm__udp_partial_init(struct partial *p, uint32_t total, uint32_t fsz)
{
  p->total = total;
  p->fsz = fsz;
  p->nfrags = (total + fsz - 1) / fsz;
  p->ngot = p->cum = p->high = 0;
  p->buf = malloc(total);
  p->have = calloc((p->nfrags + 63) / 64, sizeof *p->have);
  if (!p->buf || !p->have) {
    free(p->buf);
    free(p->have);
    return -1;
  }
  return 0;
}

void dsm__udp_partial_free(struct partial *p)
{
  free(p->buf);
  free(p->have);
}

int dsm__udp_partial_wants_ack(const struct partial *p, unsigned flags)
{
  return (flags & F_WANTACK) || p->high > p->cum;
}

int dsm__udp_partial_add(struct partial *p, uint32_t off, const uint8_t *data, size_t n,
                         unsigned flags)
{
  uint32_t i = off / p->fsz;
  if (!((p->have[i / 64] >> (i % 64)) & 1)) {
    memcpy(p->buf + off, data, n);
    p->have[i / 64] |= 1ull << (i % 64);
    p->ngot++;
    if (flags & F_RESENT)
      p->nresent++;
    if (i + 1 > p->high)
      p->high = i + 1;
    while (p->cum < p->nfrags && ((p->have[p->cum / 64] >> (p->cum % 64)) & 1))
      p->cum++;
    return p->ngot == p->nfrags;
  }
  return 0;
}

/* ---- ACKs -------------------------------------------------------------------------- */

void dsm__udp_send_ack(unsigned dst, unsigned origin, uint64_t rid, unsigned type, int tgt_rep,
                       const struct partial *p, int to_caller, int orig)
{
  uint8_t buf[8 + ACK_BITS / 8];
  struct hdr h = dsm__udp_hdr_make(K_ACK, type, (tgt_rep ? F_TGT_REP : 0) |
                                   (p ? 0 : F_COMPLETE | (orig ? F_ORIG : 0)), dst, origin, rid);
  size_t n = 0;
  if (p) {
    /* Bits only up to the highest fragment held: in the usual in-order
     * case the ACK is just the count. */
    uint32_t nbits = p->high > p->cum ? p->high - p->cum : 0;
    if (nbits > ACK_BITS) nbits = ACK_BITS;
    put32(buf, p->cum);
    put32(buf + 4, nbits);
    memset(buf + 8, 0, (nbits + 7) / 8);
    for (uint32_t b = 0; b < nbits; b++) {
      uint32_t i = p->cum + b;
      if ((p->have[i / 64] >> (i % 64)) & 1)
        buf[8 + b / 8] |= (uint8_t)(1u << (b % 8));
    }
    n = 8 + (nbits + 7) / 8;
  }
  dsm__udp_send_dgram(dst, to_caller ? REPLY : SVC, &h, buf, n, 0);
}

/* Mark fragment i acknowledged; 1 if it was not before. */
static int ack_one(struct xfer *x, uint32_t i)
{
  if (dsm__udp_frag_acked(x, i))
    return 0;
  x->acked[i / 64] |= 1ull << (i % 64);
  x->nacked++;
  return 1;
}

void dsm__udp_on_ack(const struct hdr *h, const uint8_t *p, size_t n)
{
  unsigned kind = (h->flags & F_TGT_REP) ? K_REP : K_REQ;
  struct xfer *x = dsm__udp_xfer_find(h->src, h->origin, h->rid, kind);
  if (!x)
    return;
  uint64_t now = dsm__now_ns();
  x->last_progress = now;
  if (h->flags & F_COMPLETE) {
    dsm__udp_judge_resends(x, h->flags & F_ORIG);
    if (x->call) {
      /* The request is all there; from now on only probe for the reply. */
      x->delivered = 1;
      x->call->last_alive = now;
      x->rto = dsm__udp_call_rto(x->peer, x->type);
      dsm__udp_timer_set(x, now + x->rto);
    } else {
      dsm__udp_xfer_free(x);
    }
    return;
  }
  if (x->nfrags == 1 || n < 8)
    return;
  uint32_t cum = get32(p), nbits = get32(p + 4);
  if (cum > x->nfrags || nbits > x->nfrags - cum || n < 8 + (size_t)(nbits + 7) / 8)
    return;
  uint32_t before = x->nacked, high = 0, sample = UINT32_MAX;
  for (uint32_t i = x->low_unacked; i < cum; i++)
    if (ack_one(x, i))
      sample = i;
  for (uint32_t b = 0; b < nbits; b++) {
    uint32_t i = cum + b;
    if ((p[8 + b / 8] >> (b % 8)) & 1) {
      high = i;
      if (ack_one(x, i))
        sample = i;
    }
  }
  /* A window of large fragments takes longer to drain than a small request
   * takes to answer, so each message keeps its own RTT estimate from the
   * fragments it got ACKs for (never from resent ones: Karn's rule). */
  if (sample != UINT32_MAX && !((x->resent[sample / 64] >> (sample % 64)) & 1) &&
      x->sent_at[sample])
    dsm__udp_rtt_sample(&x->est, now - x->sent_at[sample]);
  while (x->low_unacked < x->nfrags && dsm__udp_frag_acked(x, x->low_unacked))
    x->low_unacked++;
  if (x->nacked > before) {
    x->rto = dsm__udp_xfer_rto(x);   /* progress resets the backoff */
    dsm__udp_timer_set(x, now + x->rto);
  }
  /* Fast retransmit: a hole below a fragment that arrived was lost, if it
   * was sent long enough ago for its ACK to have come back. */
  uint64_t thresh = x->est.srtt ? x->est.srtt + x->est.rttvar : U.rto_min;
  if (thresh < 300000) thresh = 300000;
  for (uint32_t i = x->low_unacked; i < high && i < x->next_new; i++)
    if (!dsm__udp_frag_acked(x, i) && now - x->sent_at[i] > thresh) {
      DSM__DEBUG("fast retransmit of fragment %u of %u to rank %u (high %u)", i, x->nfrags,
                 x->peer, high);
      dsm__udp_send_frag(x, i, 1);
    }
  dsm__udp_fill_window(x);
}
