/*
 * ibv_standin.c — a stand-in for libibverbs that models an RDMA NIC between
 * processes of one host, for testing the verbs transport where no RDMA
 * device exists. Loaded by libdsm through DSM_VERBS_LIB.
 *
 * What it models, and how honestly:
 *   - One device "standin0", one port, RoCE-like (link layer Ethernet, so
 *     peers are addressed by GID; LID 0). The GID encodes the process id,
 *     which is how one "NIC" finds another: every process that opens the
 *     device runs a NIC thread listening on the abstract Unix socket
 *     "@ompdsm-standin-<pid>".
 *   - Queue pairs go RESET -> INIT -> RTR -> RTS with the attribute masks
 *     real RC queue pairs need; a queue pair only connects at RTR, to the
 *     remote queue pair number and GID given, and the responder checks that
 *     the connection comes from exactly that queue pair and that every
 *     request carries the next expected PSN (starting at rq_psn).
 *   - SEND consumes the responder's next posted RECV, in order. No posted
 *     RECV is a receiver-not-ready: the requester gets
 *     IBV_WC_RNR_RETRY_EXC_ERR (as with rnr_retry 0) and its queue pair goes
 *     to the error state, so a flow-control bug is caught, not hidden.
 *     A SEND larger than the RECV buffer fails on both sides.
 *   - RDMA READ is served by the target process's NIC thread, never by its
 *     application code: it checks the rkey (registered, REMOTE_READ, same
 *     protection domain as the queue pair, in bounds) and copies from the
 *     target's memory. A bad rkey or range completes the READ with
 *     IBV_WC_REM_ACCESS_ERR and moves the requester's queue pair to error.
 *   - Reads execute one after another at the responder (one legal order).
 *     A work request posted with IBV_SEND_FENCE, and everything posted after
 *     it, stays off the wire until every earlier READ of its queue pair has
 *     completed. With STANDIN_SLOW_READ=1 a READ copies the target's memory
 *     one cache line at a time, last line first, yielding between lines, so
 *     the target's program can change the bytes under it: a READ is not a
 *     snapshot, and code that treats it as one reads torn data.
 *   - lkeys of every local scatter/gather entry are checked at post time
 *     (IBV_WC_LOC_PROT_ERR on mismatch).
 *   - Send-queue completions come in posting order, after the responder has
 *     acknowledged (SEND) or answered (READ); receive completions carry
 *     wr_id, opcode, byte_len, qp_num and src_qp.
 *   - A completion channel's fd becomes readable only when its CQ is armed
 *     (ibv_req_notify_cq) and a completion arrives afterwards; arming with
 *     completions already queued raises no event, as on hardware.
 *   - A dead peer (connection closed) turns the queue pair to error: the
 *     oldest outstanding request completes with IBV_WC_RETRY_EXC_ERR and
 *     everything else, receives included, with IBV_WC_WR_FLUSH_ERR. A peer
 *     that dies while nothing is outstanding is noticed by the next request,
 *     like retry exhaustion on a real fabric.
 *   - A CQ overrun aborts the process (on hardware it is a fatal async
 *     error).
 * Not modelled: packetization/MTU, timing, multiple ports, SRQ, atomics,
 * inline data, memory windows, async events. One global lock serializes
 * the stand-in; that is slow but simple, and speed is not what it tests.
 */
#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#undef ibv_query_port
#undef ibv_reg_mr

#define EXPORT __attribute__((visibility("default")))

/* The responder's NIC reads the target's memory by DMA, outside the CPU's
 * memory model and concurrently with the target's program: that race is
 * what RDMA READ is, and the code above it must validate what it reads
 * (onesided.c's sequence words). Under ThreadSanitizer those reads are
 * ignored; the NIC's writes (into posted receives and READ landing buffers)
 * stay checked, since completions must order them before their use. */
#if defined(__SANITIZE_THREAD__)
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
#define DMA_READ_BEGIN() AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
#define DMA_READ_END()   AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
#else
#define DMA_READ_BEGIN() ((void)0)
#define DMA_READ_END()   ((void)0)
#endif

/* ---- frames between stand-in NICs ------------------------------------------------ */

enum { FR_HELLO = 1, FR_SEND, FR_READ_REQ, FR_ACK, FR_READ_RESP, FR_NAK };
enum { NAK_RNR = 1, NAK_ACCESS, NAK_INV_REQ, NAK_PSN };

struct frame {
  uint32_t op, psn, len, syndrome;
  uint64_t raddr;
  uint32_t rkey, src_qpn, dst_qpn, src_pid;
};

struct outbuf {
  struct outbuf *next;
  size_t len, off;
  uint8_t data[];
};

/* ---- objects ---------------------------------------------------------------------- */

struct smr {
  struct ibv_mr mr;
  int access;
  struct smr *next;
};

struct schan {
  struct ibv_comp_channel ch;
  int wfd;
};

struct scq {
  struct ibv_cq cq;
  struct ibv_wc *ring;
  int cap, head, count, armed;
  struct schan *ch;
};

struct pwr {          /* an outstanding send-queue work request */
  uint64_t wr_id;
  int opcode, signaled;
  uint32_t psn, len;
  struct ibv_sge *sg;
  int nsg;
  int fence;          /* IBV_SEND_FENCE: waits for the earlier READs */
  int held;           /* not on the wire yet (behind a fence) */
  struct frame f;     /* what goes on the wire when it is released */
  uint8_t *payload;   /* a held SEND's data, copied at post time */
};

struct rwr {          /* a posted receive */
  uint64_t wr_id;
  struct ibv_sge *sg;
  int nsg;
};

struct sqp {
  struct ibv_qp qp;
  struct sqp *next;
  int access;
  uint32_t dest_qpn, remote_pid, sq_psn, rq_psn;
  int out_fd, in_fd;            /* requests/responses we emit; frames we receive */
  struct outbuf *oq, *oq_tail;
  uint8_t *ib; size_t ib_len, ib_cap;   /* partial incoming frame */
  struct pwr *pend; int np, pcap;       /* send queue, oldest first */
  struct rwr *rq; int nr, rcap;          /* receive queue, oldest first */
  int peer_gone;
  uint32_t max_send, max_recv;
  int nheld;          /* work requests held behind a fence */
};

struct conn {         /* accepted connection waiting for its HELLO */
  struct conn *next;
  int fd;
  uint8_t buf[sizeof(struct frame)];
  size_t got;
};

static pthread_mutex_t G = PTHREAD_MUTEX_INITIALIZER;
static struct ibv_device dev;
static int nic_started, listen_fd = -1, wake_fd = -1;
static pthread_t nic;
static struct smr *mrs;
static struct sqp *qps;
static struct conn *conns;
static uint32_t next_qpn = 0x100, next_key;

static void nic_wake(void)
{
  uint64_t one = 1;
  ssize_t w = write(wake_fd, &one, sizeof one);
  (void)w;
}

/* ---- completions --------------------------------------------------------------------- */

static void cq_push(struct ibv_cq *c, const struct ibv_wc *wc)
{
  struct scq *q = (struct scq *)c;
  if (q->count == q->cap) {
    fprintf(stderr, "ibv_standin: completion queue overrun (%d entries)\n", q->cap);
    abort();
  }
  q->ring[(q->head + q->count) % q->cap] = *wc;
  q->count++;
  if (q->armed && q->ch) {
    q->armed = 0;
    void *p = c;
    ssize_t w = write(q->ch->wfd, &p, sizeof p);
    (void)w;
  }
}

static void complete_send(struct sqp *q, struct pwr *w, enum ibv_wc_status st, uint32_t len)
{
  if (!w->signaled && st == IBV_WC_SUCCESS)
    return;
  struct ibv_wc wc = { .wr_id = w->wr_id, .status = st, .qp_num = q->qp.qp_num, .byte_len = len };
  wc.opcode = w->opcode == IBV_WR_RDMA_READ ? IBV_WC_RDMA_READ : IBV_WC_SEND;
  cq_push(q->qp.send_cq, &wc);
}

static void pop_pend(struct sqp *q)
{
  free(q->pend[0].sg);
  free(q->pend[0].payload);
  if (q->pend[0].held) q->nheld--;
  memmove(q->pend, q->pend + 1, (size_t)(q->np - 1) * sizeof *q->pend);
  q->np--;
}

/* The queue pair enters the error state: the first outstanding request (if
 * any) gets `first`, everything else is flushed. */
static void qp_error(struct sqp *q, enum ibv_wc_status first)
{
  if (q->qp.state == IBV_QPS_ERR)
    return;
  q->qp.state = IBV_QPS_ERR;
  for (int i = 0; q->np; i++) {
    complete_send(q, &q->pend[0], i == 0 ? first : IBV_WC_WR_FLUSH_ERR, 0);
    pop_pend(q);
  }
  for (int i = 0; i < q->nr; i++) {
    struct ibv_wc wc = { .wr_id = q->rq[i].wr_id, .status = IBV_WC_WR_FLUSH_ERR,
                         .opcode = IBV_WC_RECV, .qp_num = q->qp.qp_num };
    cq_push(q->qp.recv_cq, &wc);
    free(q->rq[i].sg);
  }
  q->nr = 0;
}

/* ---- memory keys ------------------------------------------------------------------------ */

static struct smr *mr_by_lkey(uint32_t lkey)
{
  for (struct smr *m = mrs; m; m = m->next)
    if (m->mr.lkey == lkey) return m;
  return NULL;
}

static struct smr *mr_by_rkey(uint32_t rkey)
{
  for (struct smr *m = mrs; m; m = m->next)
    if (m->mr.rkey == rkey) return m;
  return NULL;
}

static int sge_ok(struct ibv_pd *pd, const struct ibv_sge *s, int need_write)
{
  struct smr *m = mr_by_lkey(s->lkey);
  if (!m || m->mr.pd != pd) return 0;
  if (need_write && !(m->access & IBV_ACCESS_LOCAL_WRITE)) return 0;
  uintptr_t a = (uintptr_t)m->mr.addr;
  return s->addr >= a && s->addr + s->length <= a + m->mr.length;
}

/* ---- outgoing frames ----------------------------------------------------------------------- */

static int flush_out(struct sqp *q);

static void emit(struct sqp *q, const struct frame *f, const void *data, size_t n)
{
  if (q->out_fd < 0)
    return;
  struct outbuf *o = malloc(sizeof *o + sizeof *f + n);
  if (!o) abort();
  o->next = NULL;
  o->len = sizeof *f + n;
  o->off = 0;
  memcpy(o->data, f, sizeof *f);
  if (n) memcpy(o->data + sizeof *f, data, n);
  int was_empty = !q->oq;
  if (q->oq_tail) q->oq_tail->next = o; else q->oq = o;
  q->oq_tail = o;
  /* Straight onto the wire when nothing is queued before it (non-blocking);
   * the NIC thread finishes whatever does not fit. */
  if (was_empty)
    flush_out(q);
  if (q->oq)
    nic_wake();
}

static void peer_dead(struct sqp *q)
{
  if (q->out_fd >= 0) { close(q->out_fd); q->out_fd = -1; }
  if (q->in_fd >= 0) { close(q->in_fd); q->in_fd = -1; }
  while (q->oq) { struct outbuf *o = q->oq; q->oq = o->next; free(o); }
  q->oq_tail = NULL;
  q->peer_gone = 1;
  if (q->np)
    qp_error(q, IBV_WC_RETRY_EXC_ERR);
}

static int flush_out(struct sqp *q)
{
  while (q->oq) {
    struct outbuf *o = q->oq;
    ssize_t w = send(q->out_fd, o->data + o->off, o->len - o->off, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (w < 0) {
      if (errno == EAGAIN || errno == EINTR) return 0;
      peer_dead(q);
      return -1;
    }
    o->off += (size_t)w;
    if (o->off < o->len) return 0;
    q->oq = o->next;
    if (!q->oq) q->oq_tail = NULL;
    free(o);
  }
  return 0;
}

/* ---- incoming frames (the responder and the requester's completion side) ---------------- */

/* STANDIN_SLOW_READ=1: READs are served slowly and back to front. */
static int slow_read(void)
{
  static int v = -1;
  if (v < 0) {
    const char *e = getenv("STANDIN_SLOW_READ");
    v = e && *e == '1';
  }
  return v;
}

/* Put the held work requests on the wire that their fences now allow, in
 * posting order (a held one holds back everything after it). */
static void release_held(struct sqp *q)
{
  int reads_before = 0;
  for (int i = 0; i < q->np && q->nheld; i++) {
    struct pwr *w = &q->pend[i];
    if (w->held) {
      if (w->fence && reads_before)
        return;
      w->held = 0;
      q->nheld--;
      emit(q, &w->f, w->payload, w->opcode == IBV_WR_SEND ? w->len : 0);
      free(w->payload);
      w->payload = NULL;
    }
    if (w->opcode == IBV_WR_RDMA_READ)
      reads_before = 1;
  }
}

static void nak(struct sqp *q, uint32_t psn, uint32_t syn)
{
  struct frame f = { .op = FR_NAK, .psn = psn, .syndrome = syn };
  emit(q, &f, NULL, 0);
}

static void on_frame(struct sqp *q, const struct frame *f, const uint8_t *data)
{
  if (q->qp.state == IBV_QPS_ERR)
    return;
  switch (f->op) {
  case FR_SEND:
  case FR_READ_REQ:
    if (f->psn != q->rq_psn) {
      nak(q, f->psn, NAK_PSN);
      return;
    }
    if (f->op == FR_SEND) {
      if (!q->nr) {
        nak(q, f->psn, NAK_RNR);   /* the PSN is not consumed: a retry would reuse it */
        return;
      }
      struct rwr r = q->rq[0];
      size_t cap = 0;
      for (int i = 0; i < r.nsg; i++) cap += r.sg[i].length;
      if (f->len > cap) {
        memmove(q->rq, q->rq + 1, (size_t)(q->nr - 1) * sizeof *q->rq);
        q->nr--;
        struct ibv_wc wc = { .wr_id = r.wr_id, .status = IBV_WC_LOC_LEN_ERR,
                             .opcode = IBV_WC_RECV, .qp_num = q->qp.qp_num };
        cq_push(q->qp.recv_cq, &wc);
        free(r.sg);
        nak(q, f->psn, NAK_INV_REQ);
        qp_error(q, IBV_WC_WR_FLUSH_ERR);
        return;
      }
      memmove(q->rq, q->rq + 1, (size_t)(q->nr - 1) * sizeof *q->rq);
      q->nr--;
      size_t off = 0;
      for (int i = 0; i < r.nsg && off < f->len; i++) {
        size_t n = f->len - off < r.sg[i].length ? f->len - off : r.sg[i].length;
        memcpy((void *)(uintptr_t)r.sg[i].addr, data + off, n);
        off += n;
      }
      free(r.sg);
      q->rq_psn = (q->rq_psn + 1) & 0xffffff;
      struct ibv_wc wc = { .wr_id = r.wr_id, .status = IBV_WC_SUCCESS, .opcode = IBV_WC_RECV,
                           .byte_len = f->len, .qp_num = q->qp.qp_num, .src_qp = q->dest_qpn };
      cq_push(q->qp.recv_cq, &wc);
      struct frame a = { .op = FR_ACK, .psn = f->psn };
      emit(q, &a, NULL, 0);
    } else {
      /* The target's NIC reads the target's memory; its program is not
       * involved and cannot be asked. */
      struct smr *m = mr_by_rkey(f->rkey);
      uintptr_t a = m ? (uintptr_t)m->mr.addr : 0;
      if (!m || m->mr.pd != q->qp.pd || !(m->access & IBV_ACCESS_REMOTE_READ) ||
          !(q->access & IBV_ACCESS_REMOTE_READ) || f->raddr < a ||
          f->raddr + f->len > a + m->mr.length || f->raddr + f->len < f->raddr) {
        nak(q, f->psn, NAK_ACCESS);
        return;
      }
      q->rq_psn = (q->rq_psn + 1) & 0xffffff;
      struct frame r = { .op = FR_READ_RESP, .psn = f->psn, .len = f->len };
      if (slow_read()) {
        /* A NIC reads a READ's bytes in no promised order and not at one
         * instant: copy cache lines last to first, letting the target's
         * program run between them, so a reader that trusts one READ to
         * be a snapshot sees torn data. */
        uint8_t *tmp = malloc(f->len ? f->len : 1);
        if (!tmp) abort();
        const uint8_t *src = (const uint8_t *)(uintptr_t)f->raddr;
        for (size_t end = f->len; end > 0;) {
          size_t start = end > 64 ? end - 64 : 0;
          DMA_READ_BEGIN();
          memcpy(tmp + start, src + start, end - start);
          DMA_READ_END();
          end = start;
          sched_yield();
        }
        emit(q, &r, tmp, f->len);
        free(tmp);
      } else {
        DMA_READ_BEGIN();
        emit(q, &r, (const void *)(uintptr_t)f->raddr, f->len);
        DMA_READ_END();
      }
    }
    return;
  case FR_ACK:
  case FR_READ_RESP:
  case FR_NAK: {
    if (!q->np || q->pend[0].psn != f->psn) {
      fprintf(stderr, "ibv_standin: qp %u: response for psn %u out of order\n", q->qp.qp_num,
              f->psn);
      qp_error(q, IBV_WC_BAD_RESP_ERR);
      return;
    }
    struct pwr *w = &q->pend[0];
    if (f->op == FR_NAK) {
      enum ibv_wc_status st = f->syndrome == NAK_RNR ? IBV_WC_RNR_RETRY_EXC_ERR :
                              f->syndrome == NAK_ACCESS ? IBV_WC_REM_ACCESS_ERR :
                              f->syndrome == NAK_INV_REQ ? IBV_WC_REM_INV_REQ_ERR :
                              IBV_WC_RETRY_EXC_ERR;
      qp_error(q, st);
      return;
    }
    if ((f->op == FR_ACK) != (w->opcode == IBV_WR_SEND) ||
        (f->op == FR_READ_RESP && f->len != w->len)) {
      qp_error(q, IBV_WC_BAD_RESP_ERR);
      return;
    }
    if (f->op == FR_READ_RESP) {
      size_t off = 0;
      for (int i = 0; i < w->nsg; i++) {
        memcpy((void *)(uintptr_t)w->sg[i].addr, data + off, w->sg[i].length);
        off += w->sg[i].length;
      }
    }
    complete_send(q, w, IBV_WC_SUCCESS, w->opcode == IBV_WR_RDMA_READ ? w->len : 0);
    pop_pend(q);
    if (q->nheld)
      release_held(q);
    return;
  }
  default:
    qp_error(q, IBV_WC_BAD_RESP_ERR);
  }
}

/* Read what the connection has; process each whole frame. */
static void read_in(struct sqp *q)
{
  for (;;) {
    size_t need = sizeof(struct frame);
    if (q->ib_len >= need) {
      struct frame f;
      memcpy(&f, q->ib, sizeof f);
      need += f.op == FR_SEND || f.op == FR_READ_RESP ? f.len : 0;
    }
    if (need > q->ib_cap) {
      q->ib = realloc(q->ib, need);
      if (!q->ib) abort();
      q->ib_cap = need;
    }
    if (q->ib_len < need) {
      ssize_t r = recv(q->in_fd, q->ib + q->ib_len, need - q->ib_len, MSG_DONTWAIT);
      if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
        peer_dead(q);
        return;
      }
      if (r < 0) return;
      q->ib_len += (size_t)r;
      continue;
    }
    struct frame f;
    memcpy(&f, q->ib, sizeof f);
    if (need > sizeof f || f.op != FR_SEND) {
      on_frame(q, &f, q->ib + sizeof f);
      q->ib_len = 0;
    } else {
      on_frame(q, &f, q->ib + sizeof f);
      q->ib_len = 0;
    }
    if (q->in_fd < 0) return;
  }
}

/* A connection's HELLO names the queue pair it is for; it is accepted only
 * from the queue pair and process that one was told about at RTR. */
static int on_hello(struct conn *c)
{
  struct frame f;
  memcpy(&f, c->buf, sizeof f);
  struct sqp *q = qps;
  while (q && q->qp.qp_num != f.dst_qpn) q = q->next;
  if (q && f.op == FR_HELLO && q->qp.state < IBV_QPS_RTR && q->qp.state != IBV_QPS_ERR)
    return 0;       /* not connected yet on this side: the packets wait */
  if (f.op != FR_HELLO || !q || q->in_fd >= 0 || q->qp.state == IBV_QPS_ERR ||
      q->dest_qpn != f.src_qpn || q->remote_pid != f.src_pid) {
    close(c->fd);   /* the requester sees its connection die: retry exhausted */
    return 1;
  }
  q->in_fd = c->fd;
  return 1;
}

static void *nic_main(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&G);
  for (;;) {
    size_t n = 2;
    for (struct conn *c = conns; c; c = c->next) n++;
    for (struct sqp *q = qps; q; q = q->next) n += 2;
    struct pollfd *fds = calloc(n, sizeof *fds);
    if (!fds) abort();
    size_t k = 0;
    fds[k++] = (struct pollfd){ wake_fd, POLLIN, 0 };
    fds[k++] = (struct pollfd){ listen_fd, POLLIN, 0 };
    for (struct conn *c = conns; c; c = c->next)
      fds[k++] = (struct pollfd){ c->got < sizeof c->buf ? c->fd : -1, POLLIN, 0 };
    for (struct sqp *q = qps; q; q = q->next) {
      /* A queue pair below RTR does not take packets yet; they wait. */
      fds[k++] = (struct pollfd){ q->qp.state >= IBV_QPS_RTR ? q->in_fd : -1, POLLIN, 0 };
      fds[k++] = (struct pollfd){ q->oq ? q->out_fd : -1, POLLOUT, 0 };
    }
    pthread_mutex_unlock(&G);
    int r = poll(fds, (nfds_t)k, -1);
    pthread_mutex_lock(&G);
    if (r < 0) { free(fds); continue; }
    if (fds[0].revents) {
      uint64_t v;
      ssize_t rd = read(wake_fd, &v, sizeof v);
      (void)rd;
    }
    if (fds[1].revents & POLLIN) {
      int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (fd >= 0) {
        struct conn *c = calloc(1, sizeof *c);
        if (!c) abort();
        c->fd = fd;
        c->next = conns;
        conns = c;
      }
    }
    /* Accepted connections: by fd, since the list may have changed. */
    for (size_t i = 2; i < k; i++) {
      if (!fds[i].revents) continue;
      struct conn **cp = &conns;
      while (*cp && (*cp)->fd != fds[i].fd) cp = &(*cp)->next;
      if (*cp && fds[i].events == POLLIN) {
        struct conn *c = *cp;
        ssize_t g = recv(c->fd, c->buf + c->got, sizeof c->buf - c->got, MSG_DONTWAIT);
        if (g <= 0 && !(g < 0 && errno == EAGAIN)) {
          *cp = c->next; close(c->fd); free(c);
          continue;
        }
        if (g > 0) c->got += (size_t)g;
        continue;
      }
      for (struct sqp *q = qps; q; q = q->next) {
        if (fds[i].fd == q->in_fd && fds[i].events == POLLIN && q->in_fd >= 0)
          read_in(q);
        else if (fds[i].fd == q->out_fd && fds[i].events == POLLOUT && q->out_fd >= 0) {
          if (fds[i].revents & (POLLERR | POLLHUP)) peer_dead(q); else flush_out(q);
        }
      }
    }
    /* Whole HELLOs whose queue pair may have reached RTR since. */
    for (struct conn **cp = &conns; *cp;) {
      struct conn *c = *cp;
      if (c->got == sizeof c->buf && on_hello(c)) {
        *cp = c->next;
        free(c);
      } else {
        cp = &c->next;
      }
    }
    for (struct sqp *q = qps; q; q = q->next)
      if (q->oq && q->out_fd >= 0)
        flush_out(q);
    free(fds);
  }
  return NULL;
}

static int start_nic(void)
{
  if (nic_started) return 0;
  wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (wake_fd < 0 || listen_fd < 0) return -1;
  struct sockaddr_un a = { .sun_family = AF_UNIX };
  int len = snprintf(a.sun_path + 1, sizeof a.sun_path - 1, "ompdsm-standin-%d", (int)getpid());
  if (bind(listen_fd, (struct sockaddr *)&a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len)) ||
      listen(listen_fd, 256))
    return -1;
  next_key = ((uint32_t)getpid() * 2654435761u) | 1;
  if (pthread_create(&nic, NULL, nic_main, NULL)) return -1;
  pthread_detach(nic);
  nic_started = 1;
  return 0;
}

/* ---- the device ------------------------------------------------------------------------ */

EXPORT struct ibv_device **ibv_get_device_list(int *num)
{
  const char *nd = getenv("STANDIN_NO_DEVICE");
  int n = nd && *nd == '1' ? 0 : 1;
  struct ibv_device **l = calloc(2, sizeof *l);
  if (!l) { errno = ENOMEM; return NULL; }
  if (n) {
    snprintf(dev.name, sizeof dev.name, "standin0");
    snprintf(dev.dev_name, sizeof dev.dev_name, "uverbs0");
    dev.node_type = IBV_NODE_CA;
    dev.transport_type = IBV_TRANSPORT_IB;
    l[0] = &dev;
  }
  if (num) *num = n;
  return l;
}

EXPORT void ibv_free_device_list(struct ibv_device **list) { free(list); }

EXPORT const char *ibv_get_device_name(struct ibv_device *d) { return d->name; }

EXPORT const char *ibv_wc_status_str(enum ibv_wc_status st)
{
  switch (st) {
  case IBV_WC_SUCCESS: return "success";
  case IBV_WC_LOC_LEN_ERR: return "local length error";
  case IBV_WC_LOC_PROT_ERR: return "local protection error";
  case IBV_WC_WR_FLUSH_ERR: return "Work Request Flushed Error";
  case IBV_WC_BAD_RESP_ERR: return "bad response error";
  case IBV_WC_REM_INV_REQ_ERR: return "remote invalid request error";
  case IBV_WC_REM_ACCESS_ERR: return "remote access error";
  case IBV_WC_RETRY_EXC_ERR: return "transport retry counter exceeded";
  case IBV_WC_RNR_RETRY_EXC_ERR: return "RNR retry counter exceeded";
  default: return "other error";
  }
}

static int sa_poll_cq(struct ibv_cq *c, int n, struct ibv_wc *wc);
static int sa_req_notify(struct ibv_cq *c, int solicited);
static int sa_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);
static int sa_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad);

EXPORT struct ibv_context *ibv_open_device(struct ibv_device *d)
{
  pthread_mutex_lock(&G);
  int e = start_nic();
  pthread_mutex_unlock(&G);
  if (e) { errno = EIO; return NULL; }
  struct ibv_context *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->device = d;
  c->cmd_fd = c->async_fd = -1;
  c->num_comp_vectors = 1;
  c->ops.poll_cq = sa_poll_cq;
  c->ops.req_notify_cq = sa_req_notify;
  c->ops.post_send = sa_post_send;
  c->ops.post_recv = sa_post_recv;
  pthread_mutex_init(&c->mutex, NULL);
  return c;
}

EXPORT int ibv_close_device(struct ibv_context *c) { free(c); return 0; }

EXPORT int ibv_query_port(struct ibv_context *c, uint8_t port, struct _compat_ibv_port_attr *pa)
{
  (void)c;
  if (port != 1) return EINVAL;
  /* Callers pass a full struct ibv_port_attr (the verbs.h wrapper does). */
  struct ibv_port_attr *a = (struct ibv_port_attr *)pa;
  memset(a, 0, sizeof *a);
  a->state = IBV_PORT_ACTIVE;
  a->max_mtu = a->active_mtu = IBV_MTU_4096;
  a->gid_tbl_len = 1;
  a->max_msg_sz = 1u << 31;
  a->lid = 0;
  a->link_layer = IBV_LINK_LAYER_ETHERNET;
  return 0;
}

EXPORT int ibv_query_device(struct ibv_context *c, struct ibv_device_attr *a)
{
  (void)c;
  memset(a, 0, sizeof *a);
  snprintf(a->fw_ver, sizeof a->fw_ver, "standin");
  a->max_qp = 1 << 16;
  a->max_qp_wr = 1 << 14;
  a->max_sge = 16;
  a->max_cqe = 1 << 20;
  a->max_mr_size = UINT64_MAX;
  a->max_qp_rd_atom = a->max_qp_init_rd_atom = 16;
  a->phys_port_cnt = 1;
  return 0;
}

EXPORT int ibv_query_gid(struct ibv_context *c, uint8_t port, int index, union ibv_gid *gid)
{
  (void)c;
  if (port != 1 || index != 0) return -1;
  /* fe80::"SNDN":pid — the pid is how NICs find each other. */
  memset(gid, 0, sizeof *gid);
  gid->raw[0] = 0xfe; gid->raw[1] = 0x80;
  memcpy(gid->raw + 8, "SNDN", 4);
  uint32_t pid = (uint32_t)getpid();
  memcpy(gid->raw + 12, &pid, 4);
  return 0;
}

EXPORT struct ibv_pd *ibv_alloc_pd(struct ibv_context *c)
{
  struct ibv_pd *pd = calloc(1, sizeof *pd);
  if (pd) pd->context = c;
  return pd;
}

EXPORT int ibv_dealloc_pd(struct ibv_pd *pd)
{
  pthread_mutex_lock(&G);
  for (struct smr *m = mrs; m; m = m->next)
    if (m->mr.pd == pd) { pthread_mutex_unlock(&G); return EBUSY; }
  pthread_mutex_unlock(&G);
  free(pd);
  return 0;
}

EXPORT struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t len, int access)
{
  struct smr *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  pthread_mutex_lock(&G);
  m->mr.context = pd->context;
  m->mr.pd = pd;
  m->mr.addr = addr;
  m->mr.length = len;
  next_key = next_key * 1664525u + 1013904223u;
  m->mr.lkey = next_key;
  next_key = next_key * 1664525u + 1013904223u;
  m->mr.rkey = next_key;
  m->access = access;
  m->next = mrs;
  mrs = m;
  pthread_mutex_unlock(&G);
  return &m->mr;
}

EXPORT int ibv_dereg_mr(struct ibv_mr *mr)
{
  pthread_mutex_lock(&G);
  for (struct smr **mp = &mrs; *mp; mp = &(*mp)->next)
    if (&(*mp)->mr == mr) {
      struct smr *m = *mp;
      *mp = m->next;
      free(m);
      pthread_mutex_unlock(&G);
      return 0;
    }
  pthread_mutex_unlock(&G);
  return EINVAL;
}

EXPORT struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *c)
{
  struct schan *ch = calloc(1, sizeof *ch);
  int p[2];
  if (!ch || pipe2(p, O_CLOEXEC)) { free(ch); return NULL; }
  ch->ch.context = c;
  ch->ch.fd = p[0];
  ch->wfd = p[1];
  return &ch->ch;
}

EXPORT int ibv_destroy_comp_channel(struct ibv_comp_channel *c)
{
  struct schan *ch = (struct schan *)c;
  close(ch->ch.fd);
  close(ch->wfd);
  free(ch);
  return 0;
}

EXPORT struct ibv_cq *ibv_create_cq(struct ibv_context *c, int cqe, void *cq_context,
                                    struct ibv_comp_channel *channel, int comp_vector)
{
  (void)comp_vector;
  struct scq *q = calloc(1, sizeof *q);
  if (!q || cqe <= 0) { free(q); return NULL; }
  q->ring = calloc((size_t)cqe, sizeof *q->ring);
  if (!q->ring) { free(q); return NULL; }
  q->cap = cqe;
  q->ch = (struct schan *)channel;
  q->cq.context = c;
  q->cq.channel = channel;
  q->cq.cq_context = cq_context;
  q->cq.cqe = cqe;
  return &q->cq;
}

EXPORT int ibv_destroy_cq(struct ibv_cq *c)
{
  struct scq *q = (struct scq *)c;
  free(q->ring);
  free(q);
  return 0;
}

EXPORT int ibv_get_cq_event(struct ibv_comp_channel *c, struct ibv_cq **cq, void **ctx)
{
  void *p;
  ssize_t r = read(c->fd, &p, sizeof p);
  if (r != sizeof p) return -1;
  *cq = p;
  *ctx = (*cq)->cq_context;
  return 0;
}

EXPORT void ibv_ack_cq_events(struct ibv_cq *cq, unsigned n)
{
  pthread_mutex_lock(&G);
  cq->comp_events_completed += n;
  pthread_mutex_unlock(&G);
}

static int sa_poll_cq(struct ibv_cq *c, int n, struct ibv_wc *wc)
{
  struct scq *q = (struct scq *)c;
  pthread_mutex_lock(&G);
  int k = 0;
  while (k < n && q->count) {
    wc[k++] = q->ring[q->head];
    q->head = (q->head + 1) % q->cap;
    q->count--;
  }
  pthread_mutex_unlock(&G);
  return k;
}

static int sa_req_notify(struct ibv_cq *c, int solicited)
{
  (void)solicited;
  pthread_mutex_lock(&G);
  ((struct scq *)c)->armed = 1;
  pthread_mutex_unlock(&G);
  return 0;
}

/* ---- queue pairs --------------------------------------------------------------------------- */

EXPORT struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a)
{
  if (a->qp_type != IBV_QPT_RC || !a->send_cq || !a->recv_cq || a->srq) { errno = EINVAL; return NULL; }
  struct sqp *q = calloc(1, sizeof *q);
  if (!q) return NULL;
  pthread_mutex_lock(&G);
  q->qp.context = pd->context;
  q->qp.qp_context = a->qp_context;
  q->qp.pd = pd;
  q->qp.send_cq = a->send_cq;
  q->qp.recv_cq = a->recv_cq;
  q->qp.qp_num = next_qpn++;
  q->qp.state = IBV_QPS_RESET;
  q->qp.qp_type = IBV_QPT_RC;
  q->out_fd = q->in_fd = -1;
  q->max_send = a->cap.max_send_wr;
  q->max_recv = a->cap.max_recv_wr;
  q->next = qps;
  qps = q;
  pthread_mutex_unlock(&G);
  return &q->qp;
}

EXPORT int ibv_destroy_qp(struct ibv_qp *qp)
{
  struct sqp *q = (struct sqp *)qp;
  pthread_mutex_lock(&G);
  for (struct sqp **pp = &qps; *pp; pp = &(*pp)->next)
    if (*pp == q) { *pp = q->next; break; }
  if (q->out_fd >= 0) close(q->out_fd);
  if (q->in_fd >= 0) close(q->in_fd);
  while (q->oq) { struct outbuf *o = q->oq; q->oq = o->next; free(o); }
  for (int i = 0; i < q->np; i++) free(q->pend[i].sg);
  for (int i = 0; i < q->nr; i++) free(q->rq[i].sg);
  free(q->pend); free(q->rq); free(q->ib);
  nic_wake();
  pthread_mutex_unlock(&G);
  free(q);
  return 0;
}

static int connect_out(struct sqp *q)
{
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  struct sockaddr_un a = { .sun_family = AF_UNIX };
  int len = snprintf(a.sun_path + 1, sizeof a.sun_path - 1, "ompdsm-standin-%u", q->remote_pid);
  if (connect(fd, (struct sockaddr *)&a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len))) {
    /* Nobody there: like a path to nowhere, noticed when a request retries out. */
    close(fd);
    q->peer_gone = 1;
    return 0;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  q->out_fd = fd;
  struct frame h = { .op = FR_HELLO, .src_qpn = q->qp.qp_num, .dst_qpn = q->dest_qpn,
                     .src_pid = (uint32_t)getpid() };
  emit(q, &h, NULL, 0);
  return 0;
}

EXPORT int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask)
{
  struct sqp *q = (struct sqp *)qp;
  int rc = 0;
  pthread_mutex_lock(&G);
  if (!(mask & IBV_QP_STATE)) { rc = EINVAL; goto out; }
  enum ibv_qp_state cur = qp->state, to = a->qp_state;
  if (to == IBV_QPS_ERR) {
    qp_error(q, IBV_WC_WR_FLUSH_ERR);
  } else if (to == IBV_QPS_RESET) {
    qp->state = IBV_QPS_RESET;
  } else if (cur == IBV_QPS_RESET && to == IBV_QPS_INIT) {
    int need = IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
    if ((mask & need) != need || a->port_num != 1) { rc = EINVAL; goto out; }
    q->access = a->qp_access_flags;
    qp->state = IBV_QPS_INIT;
  } else if (cur == IBV_QPS_INIT && to == IBV_QPS_RTR) {
    int need = IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
               IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
    /* RoCE: the address must carry a GRH with the remote's GID. */
    if ((mask & need) != need || !a->ah_attr.is_global ||
        memcmp(a->ah_attr.grh.dgid.raw + 8, "SNDN", 4) || a->ah_attr.grh.sgid_index != 0) {
      rc = EINVAL;
      goto out;
    }
    q->dest_qpn = a->dest_qp_num;
    q->rq_psn = a->rq_psn & 0xffffff;
    memcpy(&q->remote_pid, a->ah_attr.grh.dgid.raw + 12, 4);
    if (mask & IBV_QP_ACCESS_FLAGS) q->access = a->qp_access_flags;
    qp->state = IBV_QPS_RTR;
    connect_out(q);
    nic_wake();   /* its connection may be waiting for RTR */
  } else if (cur == IBV_QPS_RTR && to == IBV_QPS_RTS) {
    int need = IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
               IBV_QP_MAX_QP_RD_ATOMIC;
    if ((mask & need) != need) { rc = EINVAL; goto out; }
    q->sq_psn = a->sq_psn & 0xffffff;
    qp->state = IBV_QPS_RTS;
  } else {
    rc = EINVAL;
  }
out:
  pthread_mutex_unlock(&G);
  return rc;
}

static struct ibv_sge *copy_sg(const struct ibv_sge *sg, int n)
{
  struct ibv_sge *c = malloc((size_t)(n ? n : 1) * sizeof *c);
  if (!c) abort();
  if (n) memcpy(c, sg, (size_t)n * sizeof *c);
  return c;
}

static int sa_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
  struct sqp *q = (struct sqp *)qp;
  pthread_mutex_lock(&G);
  for (; wr; wr = wr->next) {
    if ((qp->state != IBV_QPS_RTS && qp->state != IBV_QPS_ERR) ||
        (wr->opcode != IBV_WR_SEND && wr->opcode != IBV_WR_RDMA_READ) ||
        (uint32_t)q->np >= q->max_send) {
      *bad = wr;
      pthread_mutex_unlock(&G);
      return qp->state != IBV_QPS_RTS && qp->state != IBV_QPS_ERR ? EINVAL : ENOMEM;
    }
    if (q->np == q->pcap) {
      q->pcap = q->pcap ? 2 * q->pcap : 16;
      q->pend = realloc(q->pend, (size_t)q->pcap * sizeof *q->pend);
      if (!q->pend) abort();
    }
    struct pwr w = { wr->wr_id, wr->opcode, (wr->send_flags & IBV_SEND_SIGNALED) ||
                     qp->qp_type != IBV_QPT_RC, q->sq_psn, 0, copy_sg(wr->sg_list, wr->num_sge),
                     wr->num_sge };
    w.signaled = (wr->send_flags & IBV_SEND_SIGNALED) != 0;
    w.fence = (wr->send_flags & IBV_SEND_FENCE) != 0;
    size_t len = 0;
    int lk = 1;
    for (int i = 0; i < wr->num_sge; i++) {
      len += wr->sg_list[i].length;
      lk &= sge_ok(qp->pd, &wr->sg_list[i], wr->opcode == IBV_WR_RDMA_READ);
    }
    w.len = (uint32_t)len;
    q->pend[q->np++] = w;
    if (qp->state == IBV_QPS_ERR) {
      /* Posting to a queue pair in error is legal; the request is flushed. */
      complete_send(q, &q->pend[q->np - 1], IBV_WC_WR_FLUSH_ERR, 0);
      pop_pend(q);   /* only entry, since an erroring QP has flushed the rest */
      continue;
    }
    if (!lk) {
      qp_error(q, IBV_WC_LOC_PROT_ERR);
      continue;
    }
    if (q->peer_gone) {
      qp_error(q, IBV_WC_RETRY_EXC_ERR);
      continue;
    }
    struct frame f = { .op = wr->opcode == IBV_WR_SEND ? FR_SEND : FR_READ_REQ, .psn = q->sq_psn,
                       .len = (uint32_t)len };
    q->sq_psn = (q->sq_psn + 1) & 0xffffff;
    uint8_t *buf = NULL;
    if (wr->opcode == IBV_WR_SEND) {
      buf = malloc(len ? len : 1);
      if (!buf) abort();
      size_t off = 0;
      for (int i = 0; i < wr->num_sge; i++) {
        memcpy(buf + off, (void *)(uintptr_t)wr->sg_list[i].addr, wr->sg_list[i].length);
        off += wr->sg_list[i].length;
      }
    } else {
      f.raddr = wr->wr.rdma.remote_addr;
      f.rkey = wr->wr.rdma.rkey;
    }
    /* A fence holds this request (and so everything after it) until every
     * earlier READ of the queue pair has completed. */
    int reads_before = 0;
    for (int i = 0; i < q->np - 1; i++)
      reads_before |= q->pend[i].opcode == IBV_WR_RDMA_READ;
    struct pwr *last = &q->pend[q->np - 1];
    if (q->nheld || (last->fence && reads_before)) {
      last->held = 1;
      last->f = f;
      last->payload = buf;   /* SEND data, copied now as the verbs API allows */
      q->nheld++;
      continue;
    }
    emit(q, &f, buf, wr->opcode == IBV_WR_SEND ? len : 0);
    free(buf);
  }
  pthread_mutex_unlock(&G);
  return 0;
}

static int sa_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
  struct sqp *q = (struct sqp *)qp;
  pthread_mutex_lock(&G);
  for (; wr; wr = wr->next) {
    int ok = qp->state != IBV_QPS_RESET && (uint32_t)q->nr < q->max_recv;
    for (int i = 0; ok && i < wr->num_sge; i++)
      ok = sge_ok(qp->pd, &wr->sg_list[i], 1);
    if (!ok) {
      *bad = wr;
      pthread_mutex_unlock(&G);
      return EINVAL;
    }
    if (qp->state == IBV_QPS_ERR) {
      struct ibv_wc wc = { .wr_id = wr->wr_id, .status = IBV_WC_WR_FLUSH_ERR,
                           .opcode = IBV_WC_RECV, .qp_num = qp->qp_num };
      cq_push(qp->recv_cq, &wc);
      continue;
    }
    if (q->nr == q->rcap) {
      q->rcap = q->rcap ? 2 * q->rcap : 16;
      q->rq = realloc(q->rq, (size_t)q->rcap * sizeof *q->rq);
      if (!q->rq) abort();
    }
    q->rq[q->nr++] = (struct rwr){ wr->wr_id, copy_sg(wr->sg_list, wr->num_sge), wr->num_sge };
  }
  pthread_mutex_unlock(&G);
  return 0;
}
