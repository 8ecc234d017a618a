/*
 * transport_verbs_recv.c — what the completion queue reports: a message
 * received, a READ done, a SEND done (its buffer free again), or an error.
 *
 * A received message is a request (run its handler), a reply (finish the
 * call), an ACK of a one-way, a CREDIT, an RDONE (the peer fetched our
 * registered copy: release it), a chunk of a larger message, or a
 * descriptor of one offered by reference, which is fetched with one READ
 * and handled when the READ completes. The handler of an inline message
 * reads straight from the receive buffer, which is reposted when it returns.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "transport_verbs.h"

static void qp_failed(unsigned p, const char *what, enum ibv_wc_status st)
  __attribute__((noreturn));
static void qp_failed(unsigned p, const char *what, enum ibv_wc_status st)
{
  /* Retry exhaustion and flushes mean the peer (or the path to it) is gone;
   * anything else is a local or protocol error. */
  int lost = st == IBV_WC_RETRY_EXC_ERR || st == IBV_WC_WR_FLUSH_ERR;
  dsm__fatal(lost ? DSM__EXIT_PEER_LOST : DSM__EXIT_FATAL,
             "RDMA queue pair to rank %u failed on %s: %s", p, what, IBV.wc_status_str(st));
}

void dsm__verbs_dispatch(unsigned from, unsigned kind, unsigned type, unsigned flags,
                         unsigned origin, uint64_t rid, uint8_t *data, size_t len, int owned)
{
  if (type >= DSM__MSG_COUNT || origin >= V.nprocs)
    dsm__fatal(DSM__EXIT_FATAL, "malformed message from rank %u (type %u origin %u)", from, type,
               origin);
  if (kind == V_REP) {
    struct dsm__tp_call *c = dsm__tp_call_find(&V.core, rid);
    if (!c || c->done || origin != V.self)
      dsm__fatal(DSM__EXIT_FATAL, "rank %u answered request %llu, which is not outstanding",
                 from, (unsigned long long)rid);
    if (from != V.self)
      DSM__STAT_MSG(recv, c->type, len);
    dsm__tp_call_finish(&V.core, c, owned ? data : dsm__tp_dup(data, len), len);
    return;
  }
  if (kind == V_ACK) {
    DSM__ASSERT(V.oneways_out > 0);
    if (!--V.oneways_out)
      dsm__verbs_ctl_changed();
    if (owned) free(data);
    return;
  }
  DSM__ASSERT(kind == V_REQ);
  struct dsm__tp_cache *cache = &V.core.cache;
  int oneway = flags & F_ONEWAY;
  dsm__tp_cache_add(cache, origin, rid, type, from, oneway);
  dsm__tp_run_handler(&V.core, origin, from, type, rid, data, len, NULL);
  if (owned) free(data);
  if (oneway) {
    /* Done (unless forwarded, in which case the last handler acknowledges):
     * the origin counts it as delivered, which shutdown waits for. */
    struct dsm__tp_centry *e = dsm__tp_cache_find(cache, origin, rid);
    if (e) {
      dsm__tp_cache_remove(cache, e);
      dsm__verbs_enqueue(origin, V_ACK, type, 0, origin, rid, NULL, 0);
    }
  }
}

static void on_recv(unsigned p, unsigned slot, uint32_t byte_len)
{
  struct peer *pe = &V.peers[p];
  uint8_t *s = dsm__verbs_recv_slot(p, slot);
  struct vhdr h;
  if (byte_len < sizeof h)
    dsm__fatal(DSM__EXIT_FATAL, "short message (%u bytes) from rank %u", byte_len, p);
  memcpy(&h, s, sizeof h);
  if (h.len != byte_len - sizeof h)
    dsm__fatal(DSM__EXIT_FATAL, "message from rank %u: %u bytes received, header says %u", p,
               byte_len, (unsigned)(h.len + sizeof h));
  pe->credits += h.credits;
  uint8_t *pl = s + sizeof h;
  if (h.kind == V_CREDIT) {
    /* nothing else in it */
  } else if (h.kind == V_RDONE) {
    struct vdesc d;
    DSM__ASSERT(h.len == sizeof d);
    memcpy(&d, pl, sizeof d);
    struct pin *pn = (struct pin *)(uintptr_t)d.token;
    IBV.dereg_mr(pn->mr);
    V.pinned -= pn->len;
    V.npins--;
    free(pn->buf);
    free(pn);
    dsm__verbs_ctl_changed();
  } else if (h.flags & F_RDESC) {
    struct vdesc d;
    DSM__ASSERT(h.len == sizeof d && h.total <= DSM__TP_MAX_MSG);
    memcpy(&d, pl, sizeof d);
    struct rd *r = calloc(1, sizeof *r);
    DSM__ASSERT(r);
    r->peer = p; r->kind = h.kind; r->type = h.type; r->flags = h.flags & ~F_RDESC;
    r->origin = h.origin; r->rid = h.rid; r->token = d.token; r->raddr = d.addr;
    r->rkey = d.rkey; r->len = h.total;
    r->buf = malloc(r->len);
    DSM__ASSERT(r->buf);
    r->mr = IBV.reg_mr(V.pd, r->buf, r->len, IBV_ACCESS_LOCAL_WRITE);
    if (!r->mr)
      dsm__fatal(DSM__EXIT_FATAL, "ibv_reg_mr of %zu bytes: %s", r->len, strerror(errno));
    dsm__verbs_queue_read(r);
  } else if (h.flags & F_CHUNK) {
    /* Chunks of one message arrive back to back: the sender's queue is
     * FIFO and RC keeps order. */
    if (h.off == 0) {
      DSM__ASSERT(!pe->part && h.total <= DSM__TP_MAX_MSG);
      pe->part = malloc(h.total);
      DSM__ASSERT(pe->part);
      pe->part_total = h.total;
      pe->part_got = 0;
      pe->part_h = h;
    }
    DSM__ASSERT(pe->part && h.off == pe->part_got && h.off + h.len <= pe->part_total);
    memcpy(pe->part + h.off, pl, h.len);
    pe->part_got += h.len;
    if (pe->part_got == pe->part_total) {
      uint8_t *buf = pe->part;
      struct vhdr ph = pe->part_h;
      pe->part = NULL;
      dsm__verbs_post_recv(p, slot);   /* before the handler runs, which may take long */
      pe->owed++;
      dsm__verbs_dispatch(p, ph.kind, ph.type, ph.flags & ~F_CHUNK, ph.origin, ph.rid, buf,
                          ph.total, 1);
      dsm__verbs_pump(p);
      return;
    }
  } else {
    /* Inline: the handler reads straight from the receive buffer, which is
     * reposted when it returns. */
    dsm__verbs_dispatch(p, h.kind, h.type, h.flags, h.origin, h.rid, pl, h.len, 0);
  }
  dsm__verbs_post_recv(p, slot);
  pe->owed++;
  dsm__verbs_pump(p);
}

static void on_read_done(struct rd *r)
{
  struct peer *pe = &V.peers[r->peer];
  pe->sq_out--;
  pe->reads_out--;
  DSM__STAT_INC(rdma_reads);
  DSM__STAT_ADD(rdma_bytes_read, r->len);
  if (r->batch) {
    /* A one-sided READ: its caller copies it out of the landing arena. */
    if (!--r->batch->left)
      dsm__tp_wake(r->batch->w);
    free(r);
    dsm__verbs_pump((unsigned)(pe - V.peers));
    return;
  }
  IBV.dereg_mr(r->mr);
  /* Release the sender's copy first: it is no longer needed. */
  struct vdesc d = { 0, r->token, 0, 0 };
  dsm__verbs_enqueue(r->peer, V_RDONE, r->type, 0, V.self, 0, dsm__tp_dup(&d, sizeof d),
                     sizeof d);
  dsm__verbs_dispatch(r->peer, r->kind, r->type, r->flags, r->origin, r->rid, r->buf, r->len, 1);
  free(r);
  dsm__verbs_pump((unsigned)(pe - V.peers));
}

static void on_wc(const struct ibv_wc *wc)
{
  uint64_t tag = wc->wr_id & TAG_MASK;
  unsigned p = (unsigned)((wc->wr_id >> 20) & 0xffff), i = (unsigned)(wc->wr_id & 0xfffff);
  if (tag == 0)
    p = ((struct rd *)(uintptr_t)wc->wr_id)->peer;
  if (wc->status != IBV_WC_SUCCESS) {
    if (V.exiting)
      return;      /* peers tear their queue pairs down at the end */
    qp_failed(p, tag == TAG_RECV ? "a receive" : tag == TAG_SEND ? "a send" : "an RDMA READ",
              wc->status);
  }
  if (tag == TAG_RECV) {
    on_recv(p, i, wc->byte_len);
  } else if (tag == TAG_SEND) {
    struct peer *pe = &V.peers[p];
    pe->free_slots[pe->nfree++] = i;
    pe->sq_out--;
    V.sends_done++;
    dsm__verbs_pump(p);
  } else {
    on_read_done((struct rd *)(uintptr_t)wc->wr_id);
  }
}

int dsm__verbs_drain_cq(const struct dsm__tp_waiter *me)
{
  int total = 0, more = 1;
  /* A handler runs without mu, and the queue may change hands meanwhile.
   * Completions are begun in the order the CQ gave them, whoever begins
   * them: every server takes the next one from the shared `taken` list, and
   * only the owner refills it. A server that lost the role still helps
   * empty the list, so nothing taken waits for an owner that sleeps. */
  for (;;) {
    if (V.taken_next == V.taken_n) {
      if (!more || V.role.owner != me)
        break;
      int n = ibv_poll_cq(V.cq, (int)(sizeof V.taken / sizeof V.taken[0]), V.taken);
      if (n < 0)
        dsm__fatal(DSM__EXIT_FATAL, "ibv_poll_cq failed");
      V.taken_next = 0;
      V.taken_n = (unsigned)n;
      /* A short batch emptied the CQ: return to the requests to self. */
      more = n == (int)(sizeof V.taken / sizeof V.taken[0]);
      if (!n)
        break;
    }
    struct ibv_wc wc = V.taken[V.taken_next++];
    on_wc(&wc);
    total++;
  }
  return total;
}
