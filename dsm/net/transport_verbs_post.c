/*
 * transport_verbs_post.c — putting messages on the queue pairs.
 *
 * One registered arena holds, for every peer, nrecv receive buffers and
 * nsend send buffers of slot_sz bytes. A sender holds one credit per
 * receive buffer it knows the peer has posted; every SEND uses one. The
 * receiver reposts a buffer once the message in it is handled and reports
 * it in the `credits` field of its next message to that peer, or in a
 * CREDIT message when half a window is owed and nothing else goes that way.
 * Data messages never take the last credit: it is kept for CREDIT messages,
 * so two peers that filled each other's buffers can always tell each other
 * about reposted ones. Messages without credit wait in a per-peer FIFO,
 * from any thread, without blocking it; completions (transport_verbs_recv.c)
 * pump the queue as credits and buffers come back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "transport_verbs.h"

uint8_t *dsm__verbs_recv_slot(unsigned p, unsigned i)
{
  return V.arena + ((size_t)p * V.nrecv + i) * V.slot_sz;
}

static uint8_t *send_slot(unsigned p, unsigned i)
{
  return V.arena + (size_t)V.nprocs * V.nrecv * V.slot_sz + ((size_t)p * V.nsend + i) * V.slot_sz;
}

static size_t max_inline(void) { return V.slot_sz - sizeof(struct vhdr); }

void dsm__verbs_post_recv(unsigned p, unsigned i)
{
  struct ibv_sge sge = { (uintptr_t)dsm__verbs_recv_slot(p, i), (uint32_t)V.slot_sz,
                         V.arena_mr->lkey };
  struct ibv_recv_wr wr = { .wr_id = TAG_RECV | ((uint64_t)p << 20) | i, .sg_list = &sge,
                            .num_sge = 1 }, *bad;
  int e = ibv_post_recv(V.peers[p].qp, &wr, &bad);
  if (e)
    dsm__fatal(DSM__EXIT_FATAL, "ibv_post_recv toward rank %u: %s", p, strerror(e));
}

/* Post one SEND of header + payload from a free send buffer (the caller
 * checked credits, a free buffer and send queue room). */
static void post_send(unsigned p, struct vhdr *h, const void *a, size_t an)
{
  struct peer *pe = &V.peers[p];
  DSM__ASSERT(pe->nfree && pe->sq_out < V.sq_depth);
  unsigned i = pe->free_slots[--pe->nfree];
  h->credits = pe->owed;
  pe->owed = 0;
  h->len = (uint32_t)an;
  uint8_t *s = send_slot(p, i);
  memcpy(s, h, sizeof *h);
  if (an) memcpy(s + sizeof *h, a, an);
  struct ibv_sge sge = { (uintptr_t)s, (uint32_t)(sizeof *h + an), V.arena_mr->lkey };
  struct ibv_send_wr wr = { .wr_id = TAG_SEND | ((uint64_t)p << 20) | i, .sg_list = &sge,
                            .num_sge = 1, .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED },
                     *bad;
  int e = ibv_post_send(pe->qp, &wr, &bad);
  if (e)
    dsm__fatal(DSM__EXIT_FATAL, "ibv_post_send toward rank %u: %s", p, strerror(e));
  pe->sq_out++;
  V.sends_posted++;
  DSM__STAT_INC(verbs_sends);
}

static void post_read(struct rd *r)
{
  struct peer *pe = &V.peers[r->peer];
  struct ibv_sge sge = { (uintptr_t)r->buf, (uint32_t)r->len, r->mr->lkey };
  /* A fenced READ starts only after the earlier READs of the queue pair
   * completed: a responder may otherwise execute them concurrently, and
   * onesided.c's sequence-word checks need "before" to mean before. */
  struct ibv_send_wr wr = { .wr_id = (uintptr_t)r, .sg_list = &sge, .num_sge = 1,
                            .opcode = IBV_WR_RDMA_READ,
                            .send_flags = IBV_SEND_SIGNALED | (r->fence ? IBV_SEND_FENCE : 0) },
                     *bad;
  wr.wr.rdma.remote_addr = r->raddr;
  wr.wr.rdma.rkey = r->rkey;
  int e = ibv_post_send(pe->qp, &wr, &bad);
  if (e)
    dsm__fatal(DSM__EXIT_FATAL, "RDMA READ toward rank %u: %s", r->peer, strerror(e));
  pe->sq_out++;
  pe->reads_out++;
}

/* Can the head message go now? Data messages leave the last credit unused:
 * it is kept for a CREDIT message, so two peers that have each filled the
 * other's buffers can always tell each other about reposted ones. */
static int can_post(const struct peer *pe, unsigned need_credits)
{
  return pe->credits >= need_credits && pe->nfree && pe->sq_out < V.sq_depth;
}

static void send_credit_if_due(unsigned p)
{
  struct peer *pe = &V.peers[p];
  if (pe->owed >= (V.nrecv + 1) / 2 && can_post(pe, 1)) {
    struct vhdr h = { .kind = V_CREDIT, .origin = V.self };
    pe->credits--;
    post_send(p, &h, NULL, 0);
  }
}

/* Register our copy of m for the peer to READ and send the descriptor; the
 * copy stays untouched until the peer's RDONE, so the READ can never see it
 * change. */
static void post_by_ref(unsigned p, struct vhdr *h, struct omsg *m)
{
  struct ibv_mr *mr = IBV.reg_mr(V.pd, m->data, m->len, IBV_ACCESS_REMOTE_READ);
  if (!mr)
    dsm__fatal(DSM__EXIT_FATAL, "ibv_reg_mr of %zu bytes for rank %u: %s", m->len, p,
               strerror(errno));
  struct pin *pn = calloc(1, sizeof *pn);
  DSM__ASSERT(pn);
  pn->buf = m->data;
  pn->len = m->len;
  pn->mr = mr;
  m->data = NULL;       /* owned by the pin now */
  struct vdesc d = { (uintptr_t)pn->buf, (uintptr_t)pn, mr->rkey, 0 };
  h->flags |= F_RDESC;
  h->total = (uint32_t)m->len;
  V.peers[p].credits--;
  post_send(p, h, &d, sizeof d);
  V.npins++;
}

void dsm__verbs_pump(unsigned p)
{
  struct peer *pe = &V.peers[p];
  while (pe->rdq_head && pe->reads_out < V.nread && pe->sq_out < V.sq_depth) {
    struct rd *r = pe->rdq_head;
    pe->rdq_head = r->next;
    if (!pe->rdq_head) pe->rdq_tail = NULL;
    post_read(r);
  }
  while (pe->qhead && can_post(pe, 2)) {
    struct omsg *m = pe->qhead;
    struct vhdr h = { .kind = (uint8_t)m->kind, .type = (uint8_t)m->type,
                      .flags = (uint8_t)m->flags, .origin = m->origin, .rid = m->rid };
    if (m->len <= max_inline()) {
      pe->credits--;
      post_send(p, &h, m->data, m->len);
    } else if (m->by_ref) {
      post_by_ref(p, &h, m);
    } else {
      size_t n = m->len - m->sent < max_inline() ? m->len - m->sent : max_inline();
      h.flags |= F_CHUNK;
      h.total = (uint32_t)m->len;
      h.off = (uint32_t)m->sent;
      pe->credits--;
      post_send(p, &h, m->data + m->sent, n);
      m->sent += n;
      if (m->sent < m->len)
        continue;
    }
    pe->qhead = m->next;
    if (!pe->qhead) pe->qtail = NULL;
    free(m->data);
    free(m);
  }
  if (pe->qhead)
    DSM__STAT_INC(credit_stalls);
  send_credit_if_due(p);
  if (!pe->qhead && !pe->rdq_head && !pe->sq_out)
    dsm__verbs_ctl_changed();   /* shutdown waits for the queues to drain */
}

void dsm__verbs_queue_read(struct rd *r)
{
  struct peer *pe = &V.peers[r->peer];
  if (pe->rdq_tail) pe->rdq_tail->next = r; else pe->rdq_head = r;
  pe->rdq_tail = r;
}

void dsm__verbs_enqueue(unsigned dst, unsigned kind, unsigned type, unsigned flags,
                        unsigned origin, uint64_t rid, uint8_t *data, size_t len)
{
  if (dst == V.self) {
    struct dsm__tp_local l = { .kind = kind, .type = type, .flags = flags, .origin = origin,
                               .from = V.self, .rid = rid, .data = data, .len = len };
    dsm__tp_local_push(&V.core, &l);
    dsm__tp_wake(V.role.owner);
    return;
  }
  struct omsg *m = calloc(1, sizeof *m);
  DSM__ASSERT(m);
  m->kind = kind; m->type = type; m->flags = flags; m->origin = origin; m->rid = rid;
  m->data = data; m->len = len;
  if (len > max_inline() && V.use_read && V.pinned + len <= V.pin_cap) {
    m->by_ref = 1;
    V.pinned += len;
  }
  struct peer *pe = &V.peers[dst];
  if (pe->qtail) pe->qtail->next = m; else pe->qhead = m;
  pe->qtail = m;
  dsm__verbs_pump(dst);
}
