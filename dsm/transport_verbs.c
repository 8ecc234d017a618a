/*
 * transport_verbs.c — transport.h over RDMA Reliable Connected queue pairs.
 *
 * Layers (docs/verbs.md has the whole story):
 *   - The UDP backend still runs underneath, for what is not protocol
 *     traffic: the bootstrap (address table), the exchange of queue pair
 *     numbers, PSNs, LID/GID, liveness PINGs (DSM_TIMEOUT), ABORT, the
 *     launcher's lifeline and the collective EXIT. It carries a handful of
 *     datagrams per second at most.
 *   - Every protocol message travels as a SEND on the RC queue pair to its
 *     peer, into receive buffers posted in advance. The hardware makes RC
 *     reliable, exactly-once and in order, so there is no reply cache, no
 *     retransmission and no fragment bitmap here.
 *   - Flow control is by credits: a sender may only SEND into a buffer it
 *     knows is posted, so a receiver-not-ready (RNR) cannot happen; the queue
 *     pairs are set up with rnr_retry 0 so that a flow-control bug shows as an
 *     error at once instead of as a hang or a slowdown.
 *   - A message too large for one buffer is offered by reference: the sender
 *     registers its (private, immutable) copy and sends a descriptor; the
 *     receiver fetches it with one RDMA READ into a buffer it registered and
 *     tells the sender to release it (RDONE). Page and diff replies larger
 *     than a buffer (prefetched runs, long diff lists) travel this way. Where
 *     READ is off (DSM_VERBS_READ=0) or too much memory is pinned, the
 *     message is cut into chunks over SEND instead.
 *   - The service thread sleeps in poll() on a completion channel and an
 *     eventfd; it never spins.
 *
 * libibverbs is opened with dlopen() at run time (DSM_VERBS_LIB overrides
 * the file), so programs linked with the static libdsm do not need
 * rdma-core on hosts that run them over UDP, and the tests can substitute a
 * stand-in library that models the verbs between processes.
 */
#include "dsm_config.h"

#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "transport_impl.h"

#if !DSM_HAVE_VERBS

static void nov_init(unsigned rank, unsigned size)
{
  (void)rank; (void)size;
  dsm__fatal(DSM__EXIT_FATAL, "DSM_TRANSPORT=verbs: this libdsm was built without the verbs "
             "transport (no libibverbs-dev at build time, or -Dverbs=disabled); rebuild with "
             "-Dverbs=enabled, or run with --transport udp");
}
static void nov_shutdown(void) {}
static void nov_handle(unsigned type, dsm__handler_t fn) { (void)type; (void)fn; }
static void nov_call_many(dsm__call_t *c, unsigned n) { (void)c; (void)n; DSM__ASSERT(0); }
static void nov_send(unsigned d, unsigned t, const void *p, size_t l)
{ (void)d; (void)t; (void)p; (void)l; DSM__ASSERT(0); }
static void nov_replyv(dsm__reqh_t h, const void *const *b, const size_t *l, unsigned n)
{ (void)h; (void)b; (void)l; (void)n; DSM__ASSERT(0); }
static void nov_forward(dsm__reqh_t h, unsigned d, const void *p, size_t l)
{ (void)h; (void)d; (void)p; (void)l; DSM__ASSERT(0); }
static void nov_abort(const char *r) { (void)r; }

const struct dsm__tp_ops dsm__tp_verbs_ops = {
  "verbs", nov_init, nov_shutdown, nov_handle, nov_call_many, nov_send, nov_replyv,
  nov_forward, nov_abort, NULL, NULL, NULL,
};

#else /* DSM_HAVE_VERBS */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

/* ---- libibverbs, loaded at run time ---------------------------------------- */

static struct {
  struct ibv_device **(*get_device_list)(int *);
  void (*free_device_list)(struct ibv_device **);
  const char *(*get_device_name)(struct ibv_device *);
  struct ibv_context *(*open_device)(struct ibv_device *);
  int (*close_device)(struct ibv_context *);
  int (*query_device)(struct ibv_context *, struct ibv_device_attr *);
  int (*query_port)(struct ibv_context *, uint8_t, struct _compat_ibv_port_attr *);
  int (*query_gid)(struct ibv_context *, uint8_t, int, union ibv_gid *);
  struct ibv_pd *(*alloc_pd)(struct ibv_context *);
  int (*dealloc_pd)(struct ibv_pd *);
  struct ibv_mr *(*reg_mr)(struct ibv_pd *, void *, size_t, int);
  int (*dereg_mr)(struct ibv_mr *);
  struct ibv_comp_channel *(*create_comp_channel)(struct ibv_context *);
  int (*destroy_comp_channel)(struct ibv_comp_channel *);
  struct ibv_cq *(*create_cq)(struct ibv_context *, int, void *, struct ibv_comp_channel *, int);
  int (*destroy_cq)(struct ibv_cq *);
  int (*get_cq_event)(struct ibv_comp_channel *, struct ibv_cq **, void **);
  void (*ack_cq_events)(struct ibv_cq *, unsigned);
  struct ibv_qp *(*create_qp)(struct ibv_pd *, struct ibv_qp_init_attr *);
  int (*modify_qp)(struct ibv_qp *, struct ibv_qp_attr *, int);
  int (*destroy_qp)(struct ibv_qp *);
  const char *(*wc_status_str)(enum ibv_wc_status);
} V;

static void load_verbs(void)
{
  const char *lib = getenv("DSM_VERBS_LIB");
  if (!lib || !*lib)
    lib = "libibverbs.so.1";
  void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    dsm__fatal(DSM__EXIT_FATAL, "the verbs transport cannot load %s (%s); install rdma-core's "
               "libibverbs1, or run with --transport udp", lib, dlerror());
#define SYM(field, name) do {                                                        \
    *(void **)&V.field = dlsym(h, name);                                             \
    if (!V.field)                                                                    \
      dsm__fatal(DSM__EXIT_FATAL, "%s has no %s: not a usable libibverbs", lib, name); \
  } while (0)
  SYM(get_device_list, "ibv_get_device_list");
  SYM(free_device_list, "ibv_free_device_list");
  SYM(get_device_name, "ibv_get_device_name");
  SYM(open_device, "ibv_open_device");
  SYM(close_device, "ibv_close_device");
  SYM(query_device, "ibv_query_device");
  SYM(query_port, "ibv_query_port");
  SYM(query_gid, "ibv_query_gid");
  SYM(alloc_pd, "ibv_alloc_pd");
  SYM(dealloc_pd, "ibv_dealloc_pd");
  SYM(reg_mr, "ibv_reg_mr");
  SYM(dereg_mr, "ibv_dereg_mr");
  SYM(create_comp_channel, "ibv_create_comp_channel");
  SYM(destroy_comp_channel, "ibv_destroy_comp_channel");
  SYM(create_cq, "ibv_create_cq");
  SYM(destroy_cq, "ibv_destroy_cq");
  SYM(get_cq_event, "ibv_get_cq_event");
  SYM(ack_cq_events, "ibv_ack_cq_events");
  SYM(create_qp, "ibv_create_qp");
  SYM(modify_qp, "ibv_modify_qp");
  SYM(destroy_qp, "ibv_destroy_qp");
  SYM(wc_status_str, "ibv_wc_status_str");
#undef SYM
}

/* ibv_query_port is an inline wrapper in verbs.h that prefers the provider's
 * extended entry point; the same logic, with the exported symbol as the
 * fallback. */
static int query_port(struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *a)
{
  struct verbs_context *vctx = verbs_get_ctx_op(ctx, query_port);
  memset(a, 0, sizeof *a);
  if (vctx)
    return vctx->query_port(ctx, port, a, sizeof *a);
  return V.query_port(ctx, port, (struct _compat_ibv_port_attr *)a);
}

/* ---- wire format ----------------------------------------------------------- */

/* Every SEND starts with this header (host byte order: the ranks of a job
 * run the same binary, and RDMA clusters are homogeneous in practice). */
struct vhdr {
  uint8_t  kind, type, flags, pad;
  uint32_t origin;      /* rank that issued the request */
  uint32_t credits;     /* receive buffers the sender reposted for us since its last message */
  uint32_t len;         /* payload bytes in this SEND */
  uint64_t rid;
  uint32_t total;       /* CHUNK: length of the whole message; RDESC: bytes to READ */
  uint32_t off;         /* CHUNK: offset of this piece */
};

/* Payload of an RDESC: where the sender's registered copy sits. */
struct vdesc {
  uint64_t addr;
  uint64_t token;       /* returned in RDONE to release the copy */
  uint32_t rkey, pad;
};

enum { V_REQ = 1, V_REP, V_ACK, V_CREDIT, V_RDONE };
enum { F_ONEWAY = 1, F_CHUNK = 2, F_RDESC = 4 };

/* ---- state ----------------------------------------------------------------- */

/* wr_id tags: READs carry the address of their struct rd (user space
 * addresses are below 2^47), SENDs and RECVs a tagged slot number. */
#define TAG_RECV (1ull << 62)
#define TAG_SEND (2ull << 62)
#define TAG_MASK (3ull << 62)

/* A message waiting for credits or a send buffer; its payload is our copy. */
struct omsg {
  struct omsg *next;
  unsigned kind, type, flags, origin;
  uint64_t rid;
  uint8_t *data;
  size_t len, sent;     /* sent: bytes already posted (chunked messages) */
  int by_ref;           /* decided to go as RDESC */
};

/* A registered copy a peer is fetching with READ. */
struct pin {
  struct pin *next;
  uint8_t *buf;
  size_t len;
  struct ibv_mr *mr;
};

/* A round of one-sided READs a caller of v_read_many waits for. */
struct rbatch {
  unsigned left;
};

/* An RDMA READ we issued (or are about to): either the second half of a
 * large message offered by reference (batch NULL), or one READ of a
 * v_read_many round landing in the landing arena. */
struct rd {
  struct rd *next;
  unsigned peer, kind, type, flags, origin;
  uint64_t rid, token, raddr;
  uint32_t rkey;
  uint8_t *buf;
  size_t len;
  struct ibv_mr *mr;
  struct rbatch *batch;
  int fence;
};

/* Memory registered for peers to read (v_expose), released at shutdown. */
struct exposed {
  struct exposed *next;
  struct ibv_mr *mr;
};

struct peer {
  struct ibv_qp *qp;
  uint32_t psn;
  unsigned credits;             /* posts we may still make into its buffers */
  unsigned owed;                /* buffers we reposted and did not yet report */
  unsigned sq_out;              /* send queue entries in flight */
  unsigned reads_out;
  unsigned *free_slots, nfree;  /* our send buffers toward this peer */
  struct omsg *qhead, *qtail;
  struct rd *rdq_head, *rdq_tail;   /* READs waiting for a send queue entry */
  uint8_t *part;                /* chunked message being reassembled */
  size_t part_total, part_got;
  struct vhdr part_h;
};

struct call {
  struct call *next;
  uint64_t rid;
  unsigned type;
  int done;
  uint8_t *reply;
  size_t reply_len;
  unsigned *left;
};

/* A request delivered and not yet answered or forwarded (answering twice is a
 * protocol bug, and a one-way is acknowledged to its origin when done). */
struct pend {
  struct pend *next;
  unsigned origin, type;
  uint64_t rid;
  int oneway;
};

/* A message to ourselves, run by the service thread like a remote one. */
struct local {
  struct local *next;
  unsigned kind, type, flags, origin;
  uint64_t rid;
  uint8_t *data;
  size_t len;
};

#define NPEND 1024

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t call_cv = PTHREAD_COND_INITIALIZER;
static pthread_cond_t ctl_cv = PTHREAD_COND_INITIALIZER;

static dsm__handler_t handlers[DSM__MSG_COUNT];
static unsigned self, nprocs;
static struct peer *peers;
static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_comp_channel *chan;
static struct ibv_cq *cq;
static struct ibv_mr *arena_mr;
static uint8_t *arena;
static int wake_fd = -1;
static pthread_t svc;
static int svc_running, svc_stop;
static int exiting;                 /* in the collective EXIT: peers may tear down */

static unsigned nrecv = 32;         /* receive buffers per peer (DSM_VERBS_CREDITS) */
static unsigned nsend;              /* send buffers per peer */
static unsigned nread = 8;          /* READs in flight per peer */
static size_t slot_sz = 8192;       /* bytes per buffer, header included (DSM_VERBS_BUF) */
static int use_read = 1;            /* DSM_VERBS_READ */
static size_t pin_cap, pinned;      /* bytes registered for peers to READ */
static unsigned sq_depth;

static uint64_t next_rid = 1;
static struct call *calls;
static struct pend *pbucket[NPEND];
static struct local *lq_head, *lq_tail;
static unsigned oneways_out;        /* our one-ways not yet acknowledged */
static unsigned npins;
static uint64_t sends_posted, sends_done;
/* One-sided reads (v_read_many): READs land in a registered arena and are
 * copied out, so callers may read into any memory. One round at a time. */
static pthread_mutex_t landing_mu = PTHREAD_MUTEX_INITIALIZER;
static uint8_t *landing;
static size_t landing_sz;
static struct ibv_mr *landing_mr;
static struct exposed *exposed;
static size_t expose_cap, exposed_bytes;

static uint8_t *recv_slot(unsigned p, unsigned i) { return arena + ((size_t)p * nrecv + i) * slot_sz; }
static uint8_t *send_slot(unsigned p, unsigned i)
{
  return arena + (size_t)nprocs * nrecv * slot_sz + ((size_t)p * nsend + i) * slot_sz;
}
static size_t max_inline(void) { return slot_sz - sizeof(struct vhdr); }

static void wake(void)
{
  uint64_t one = 1;
  ssize_t w = write(wake_fd, &one, sizeof one);
  (void)w;
}

static void qp_failed(unsigned p, const char *what, enum ibv_wc_status st) __attribute__((noreturn));
static void qp_failed(unsigned p, const char *what, enum ibv_wc_status st)
{
  /* Retry exhaustion and flushes mean the peer (or the path to it) is gone;
   * anything else is a local or protocol error. */
  int lost = st == IBV_WC_RETRY_EXC_ERR || st == IBV_WC_WR_FLUSH_ERR;
  dsm__fatal(lost ? DSM__EXIT_PEER_LOST : DSM__EXIT_FATAL,
             "RDMA queue pair to rank %u failed on %s: %s", p, what, V.wc_status_str(st));
}

/* ---- posting --------------------------------------------------------------- */

static void post_recv(unsigned p, unsigned i)
{
  struct ibv_sge sge = { (uintptr_t)recv_slot(p, i), (uint32_t)slot_sz, arena_mr->lkey };
  struct ibv_recv_wr wr = { .wr_id = TAG_RECV | ((uint64_t)p << 20) | i, .sg_list = &sge,
                            .num_sge = 1 }, *bad;
  int e = ibv_post_recv(peers[p].qp, &wr, &bad);
  if (e)
    dsm__fatal(DSM__EXIT_FATAL, "ibv_post_recv toward rank %u: %s", p, strerror(e));
}

/* Post one SEND of header + payload from a free send buffer (mu held; the
 * caller checked credits, a free buffer and send queue room). */
static void post_send(unsigned p, struct vhdr *h, const void *a, size_t an, const void *b, size_t bn)
{
  struct peer *pe = &peers[p];
  DSM__ASSERT(pe->nfree && pe->sq_out < sq_depth);
  unsigned i = pe->free_slots[--pe->nfree];
  h->credits = pe->owed;
  pe->owed = 0;
  h->len = (uint32_t)(an + bn);
  uint8_t *s = send_slot(p, i);
  memcpy(s, h, sizeof *h);
  if (an) memcpy(s + sizeof *h, a, an);
  if (bn) memcpy(s + sizeof *h + an, b, bn);
  struct ibv_sge sge = { (uintptr_t)s, (uint32_t)(sizeof *h + an + bn), arena_mr->lkey };
  struct ibv_send_wr wr = { .wr_id = TAG_SEND | ((uint64_t)p << 20) | i, .sg_list = &sge,
                            .num_sge = 1, .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED },
                     *bad;
  int e = ibv_post_send(pe->qp, &wr, &bad);
  if (e)
    dsm__fatal(DSM__EXIT_FATAL, "ibv_post_send toward rank %u: %s", p, strerror(e));
  pe->sq_out++;
  sends_posted++;
  DSM__STAT_INC(verbs_sends);
}

static void post_read(struct rd *r)
{
  struct peer *pe = &peers[r->peer];
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
  return pe->credits >= need_credits && pe->nfree && pe->sq_out < sq_depth;
}

static void send_credit_if_due(unsigned p)
{
  struct peer *pe = &peers[p];
  if (pe->owed >= (nrecv + 1) / 2 && can_post(pe, 1)) {
    struct vhdr h = { .kind = V_CREDIT, .origin = self };
    pe->credits--;
    post_send(p, &h, NULL, 0, NULL, 0);
  }
}

/* Post what the credits, buffers and send queue allow (mu held). */
static void pump(unsigned p)
{
  struct peer *pe = &peers[p];
  while (pe->rdq_head && pe->reads_out < nread && pe->sq_out < sq_depth) {
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
      post_send(p, &h, m->data, m->len, NULL, 0);
    } else if (m->by_ref) {
      /* Register our copy for the peer to READ; the copy stays untouched
       * until the peer's RDONE, so the READ can never see it change. */
      struct ibv_mr *mr = V.reg_mr(pd, m->data, m->len, IBV_ACCESS_REMOTE_READ);
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
      h.flags |= F_RDESC;
      h.total = (uint32_t)m->len;
      pe->credits--;
      post_send(p, &h, &d, sizeof d, NULL, 0);
      npins++;
    } else {
      size_t n = m->len - m->sent < max_inline() ? m->len - m->sent : max_inline();
      h.flags |= F_CHUNK;
      h.total = (uint32_t)m->len;
      h.off = (uint32_t)m->sent;
      pe->credits--;
      post_send(p, &h, m->data + m->sent, n, NULL, 0);
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
    pthread_cond_broadcast(&ctl_cv);   /* shutdown waits for the queues to drain */
}

/* Queue a message to a peer or to ourselves (mu held). Takes data. */
static void enqueue(unsigned dst, unsigned kind, unsigned type, unsigned flags, unsigned origin,
                    uint64_t rid, uint8_t *data, size_t len)
{
  if (dst == self) {
    struct local *l = calloc(1, sizeof *l);
    DSM__ASSERT(l);
    l->kind = kind; l->type = type; l->flags = flags; l->origin = origin; l->rid = rid;
    l->data = data; l->len = len;
    if (lq_tail) lq_tail->next = l; else lq_head = l;
    lq_tail = l;
    wake();
    return;
  }
  struct omsg *m = calloc(1, sizeof *m);
  DSM__ASSERT(m);
  m->kind = kind; m->type = type; m->flags = flags; m->origin = origin; m->rid = rid;
  m->data = data; m->len = len;
  if (len > max_inline() && use_read && pinned + len <= pin_cap) {
    m->by_ref = 1;
    pinned += len;
  }
  struct peer *pe = &peers[dst];
  if (pe->qtail) pe->qtail->next = m; else pe->qhead = m;
  pe->qtail = m;
  pump(dst);
}

/* ---- pending requests and calls ------------------------------------------------ */

static unsigned phash(unsigned origin, uint64_t rid)
{
  return (unsigned)(((rid ^ ((uint64_t)origin << 40)) * 0x9e3779b97f4a7c15ull) >> 54) & (NPEND - 1);
}

static void pend_add(unsigned origin, uint64_t rid, unsigned type, int oneway)
{
  struct pend *e = calloc(1, sizeof *e);
  DSM__ASSERT(e);
  e->origin = origin; e->rid = rid; e->type = type; e->oneway = oneway;
  unsigned b = phash(origin, rid);
  e->next = pbucket[b];
  pbucket[b] = e;
}

/* Remove and return the pending entry (caller frees), or NULL. */
static struct pend *pend_take(unsigned origin, uint64_t rid)
{
  for (struct pend **pp = &pbucket[phash(origin, rid)]; *pp; pp = &(*pp)->next)
    if ((*pp)->origin == origin && (*pp)->rid == rid) {
      struct pend *e = *pp;
      *pp = e->next;
      return e;
    }
  return NULL;
}

static struct call *call_find(uint64_t rid)
{
  for (struct call *c = calls; c; c = c->next)
    if (c->rid == rid)
      return c;
  return NULL;
}

/* ---- receiving -------------------------------------------------------------------- */

/* One whole message, from peer `from` (or ourselves). data is valid during
 * the call only unless `owned`, in which case it is ours to keep or free. */
static void dispatch(unsigned from, unsigned kind, unsigned type, unsigned flags, unsigned origin,
                     uint64_t rid, uint8_t *data, size_t len, int owned)
{
  if (type >= DSM__MSG_COUNT || origin >= nprocs)
    dsm__fatal(DSM__EXIT_FATAL, "malformed message from rank %u (type %u origin %u)", from, type,
               origin);
  if (kind == V_REP) {
    struct call *c = call_find(rid);
    if (!c || c->done || origin != self)
      dsm__fatal(DSM__EXIT_FATAL, "rank %u answered request %llu, which is not outstanding",
                 from, (unsigned long long)rid);
    if (from != self)
      DSM__STAT_MSG(recv, c->type, len);
    c->done = 1;
    c->reply = owned ? data : dsm__tp_dup(data, len);
    c->reply_len = len;
    (*c->left)--;
    pthread_cond_broadcast(&call_cv);
    return;
  }
  if (kind == V_ACK) {
    DSM__ASSERT(oneways_out > 0);
    if (!--oneways_out)
      pthread_cond_broadcast(&ctl_cv);
    if (owned) free(data);
    return;
  }
  DSM__ASSERT(kind == V_REQ);
  dsm__handler_t fn = handlers[type];
  if (!fn)
    dsm__fatal(DSM__EXIT_FATAL, "rank %u sent a %s request, which has no handler", from,
               dsm__msg_name(type));
  int oneway = flags & F_ONEWAY;
  pend_add(origin, rid, type, oneway);
  if (from != self)
    DSM__STAT_MSG(recv, type, len);
  dsm__msg_t m = { origin, from, type, rid, data, len };
  pthread_mutex_unlock(&mu);
  fn(&m);
  pthread_mutex_lock(&mu);
  if (owned) free(data);
  if (oneway) {
    /* Done (unless forwarded, in which case the last handler acknowledges):
     * the origin counts it as delivered, which shutdown waits for. */
    struct pend *e = pend_take(origin, rid);
    if (e) {
      free(e);
      enqueue(origin, V_ACK, type, 0, origin, rid, NULL, 0);
    }
  }
}

static void on_recv(unsigned p, unsigned slot, uint32_t byte_len)
{
  struct peer *pe = &peers[p];
  uint8_t *s = recv_slot(p, slot);
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
    V.dereg_mr(pn->mr);
    pinned -= pn->len;
    npins--;
    free(pn->buf);
    free(pn);
    pthread_cond_broadcast(&ctl_cv);
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
    r->mr = V.reg_mr(pd, r->buf, r->len, IBV_ACCESS_LOCAL_WRITE);
    if (!r->mr)
      dsm__fatal(DSM__EXIT_FATAL, "ibv_reg_mr of %zu bytes: %s", r->len, strerror(errno));
    if (pe->rdq_tail) pe->rdq_tail->next = r; else pe->rdq_head = r;
    pe->rdq_tail = r;
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
      post_recv(p, slot);   /* before the handler runs, which may take long */
      pe->owed++;
      dispatch(p, ph.kind, ph.type, ph.flags & ~F_CHUNK, ph.origin, ph.rid, buf, ph.total, 1);
      pump(p);
      return;
    }
  } else {
    /* Inline: the handler reads straight from the receive buffer, which is
     * reposted when it returns. */
    dispatch(p, h.kind, h.type, h.flags, h.origin, h.rid, pl, h.len, 0);
  }
  post_recv(p, slot);
  pe->owed++;
  pump(p);
}

static void on_read_done(struct rd *r)
{
  struct peer *pe = &peers[r->peer];
  pe->sq_out--;
  pe->reads_out--;
  DSM__STAT_INC(rdma_reads);
  DSM__STAT_ADD(rdma_bytes_read, r->len);
  if (r->batch) {
    /* A one-sided READ: its caller copies it out of the landing arena. */
    if (!--r->batch->left)
      pthread_cond_broadcast(&call_cv);
    free(r);
    pump(pe - peers);
    return;
  }
  V.dereg_mr(r->mr);
  /* Release the sender's copy first: it is no longer needed. */
  struct vdesc d = { 0, r->token, 0, 0 };
  enqueue(r->peer, V_RDONE, r->type, 0, self, 0, dsm__tp_dup(&d, sizeof d), sizeof d);
  dispatch(r->peer, r->kind, r->type, r->flags, r->origin, r->rid, r->buf, r->len, 1);
  free(r);
  pump(pe - peers);
}

static void on_wc(const struct ibv_wc *wc)
{
  uint64_t tag = wc->wr_id & TAG_MASK;
  unsigned p = (unsigned)((wc->wr_id >> 20) & 0xffff), i = (unsigned)(wc->wr_id & 0xfffff);
  if (tag == 0)
    p = ((struct rd *)(uintptr_t)wc->wr_id)->peer;
  if (wc->status != IBV_WC_SUCCESS) {
    if (exiting)
      return;      /* peers tear their queue pairs down at the end */
    qp_failed(p, tag == TAG_RECV ? "a receive" : tag == TAG_SEND ? "a send" : "an RDMA READ",
              wc->status);
  }
  if (tag == TAG_RECV) {
    on_recv(p, i, wc->byte_len);
  } else if (tag == TAG_SEND) {
    struct peer *pe = &peers[p];
    pe->free_slots[pe->nfree++] = i;
    pe->sq_out--;
    sends_done++;
    pump(p);
  } else {
    on_read_done((struct rd *)(uintptr_t)wc->wr_id);
  }
}

/* ---- the service thread ----------------------------------------------------------- */

static int drain_cq(void)
{
  struct ibv_wc wc[32];
  int total = 0;
  for (;;) {
    int n = ibv_poll_cq(cq, 32, wc);
    if (n < 0)
      dsm__fatal(DSM__EXIT_FATAL, "ibv_poll_cq failed");
    for (int k = 0; k < n; k++)
      on_wc(&wc[k]);
    total += n;
    if (n < 32)
      return total;
  }
}

static void *service(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&mu);
  while (!svc_stop) {
    int work = 0;
    while (lq_head) {
      struct local *l = lq_head;
      lq_head = l->next;
      if (!lq_head) lq_tail = NULL;
      dispatch(self, l->kind, l->type, l->flags, l->origin, l->rid, l->data, l->len, 1);
      free(l);
      work = 1;
    }
    if (drain_cq())
      work = 1;
    if (work || lq_head || svc_stop)
      continue;
    /* Arm, then look again: a completion that arrived between the last poll
     * and the arming raises no event, and would otherwise sleep with us. */
    if (ibv_req_notify_cq(cq, 0))
      dsm__fatal(DSM__EXIT_FATAL, "ibv_req_notify_cq failed");
    if (drain_cq())
      continue;
    pthread_mutex_unlock(&mu);
    struct pollfd fds[2] = { { wake_fd, POLLIN, 0 }, { chan->fd, POLLIN, 0 } };
    int r = poll(fds, 2, -1);
    pthread_mutex_lock(&mu);
    if (r < 0)
      continue;
    if (fds[0].revents & POLLIN) {
      uint64_t v;
      ssize_t rd = read(wake_fd, &v, sizeof v);
      (void)rd;
    }
    if (fds[1].revents & POLLIN) {
      struct ibv_cq *ev_cq;
      void *ev_ctx;
      if (!V.get_cq_event(chan, &ev_cq, &ev_ctx))
        V.ack_cq_events(ev_cq, 1);
    }
  }
  pthread_mutex_unlock(&mu);
  return NULL;
}

/* ---- the interface ---------------------------------------------------------------- */

static void v_handle(unsigned type, dsm__handler_t fn)
{
  DSM__ASSERT(type < DSM__MSG_COUNT);
  handlers[type] = fn;
}

static void v_call_many(dsm__call_t *cs, unsigned n)
{
  if (!n) return;
  DSM__ASSERT(!svc_running || !pthread_equal(pthread_self(), svc));
  struct call *c = calloc(n, sizeof *c);
  DSM__ASSERT(c);
  unsigned left = n;
  pthread_mutex_lock(&mu);
  DSM__ASSERT(svc_running);
  for (unsigned i = 0; i < n; i++) {
    DSM__ASSERT(cs[i].dst < nprocs && cs[i].type < DSM__MSG_COUNT &&
                cs[i].req_len <= DSM__TP_MAX_MSG);
    c[i].rid = next_rid++;
    c[i].type = cs[i].type;
    c[i].left = &left;
    c[i].next = calls;
    calls = &c[i];
    if (cs[i].dst != self) {
      DSM__STAT_MSG(sent, cs[i].type, cs[i].req_len);
      DSM__STAT_REQ(cs[i].type);
    }
    enqueue(cs[i].dst, V_REQ, cs[i].type, 0, self, c[i].rid,
            dsm__tp_dup(cs[i].req, cs[i].req_len), cs[i].req_len);
  }
  uint64_t t0 = dsm__now_ns();
  while (left)
    pthread_cond_wait(&call_cv, &mu);
  DSM__STAT_ADD(blocked_ns, dsm__now_ns() - t0);
  for (struct call **pp = &calls; *pp;)
    if (*pp >= c && *pp < c + n) *pp = (*pp)->next; else pp = &(*pp)->next;
  pthread_mutex_unlock(&mu);
  for (unsigned i = 0; i < n; i++) {
    cs[i].reply = c[i].reply;
    cs[i].reply_len = c[i].reply_len;
  }
  free(c);
}

static void v_send(unsigned dst, unsigned type, const void *data, size_t len)
{
  DSM__ASSERT(dst < nprocs && type < DSM__MSG_COUNT && len <= DSM__TP_MAX_MSG);
  pthread_mutex_lock(&mu);
  DSM__ASSERT(svc_running);
  oneways_out++;
  if (dst != self) {
    DSM__STAT_MSG(sent, type, len);
    DSM__STAT_REQ(type);
  }
  enqueue(dst, V_REQ, type, F_ONEWAY, self, next_rid++, dsm__tp_dup(data, len), len);
  pthread_mutex_unlock(&mu);
}

static void v_replyv(dsm__reqh_t h, const void *const *bufs, const size_t *lens, unsigned n)
{
  size_t len;
  uint8_t *payload = dsm__tp_gather(bufs, lens, n, &len);
  pthread_mutex_lock(&mu);
  struct pend *e = pend_take(h.origin, h.rid);
  if (!e)
    dsm__fatal(DSM__EXIT_FATAL, "internal error: %s request %llu of rank %u answered twice "
               "or never received", dsm__msg_name(h.type), (unsigned long long)h.rid, h.origin);
  if (e->oneway) {
    /* A one-way has no reply; answering it only marks it done. */
    free(payload);
    enqueue(h.origin, V_ACK, h.type, 0, h.origin, h.rid, NULL, 0);
  } else {
    if (h.origin != self)
      DSM__STAT_MSG(sent, h.type, len);
    enqueue(h.origin, V_REP, h.type, 0, h.origin, h.rid, payload, len);
  }
  free(e);
  pthread_mutex_unlock(&mu);
}

static void v_forward(dsm__reqh_t h, unsigned dst, const void *data, size_t len)
{
  DSM__ASSERT(dst < nprocs && len <= DSM__TP_MAX_MSG);
  uint8_t *payload = dsm__tp_dup(data, len);
  pthread_mutex_lock(&mu);
  struct pend *e = pend_take(h.origin, h.rid);
  if (!e)
    dsm__fatal(DSM__EXIT_FATAL, "internal error: %s request %llu of rank %u forwarded after "
               "being answered", dsm__msg_name(h.type), (unsigned long long)h.rid, h.origin);
  if (dst != self)
    DSM__STAT_MSG(sent, h.type, len);
  enqueue(dst, V_REQ, h.type, e->oneway ? F_ONEWAY : 0, h.origin, h.rid, payload, len);
  free(e);
  pthread_mutex_unlock(&mu);
}

static void v_abort(const char *reason)
{
  /* Job control stays on UDP, which every rank still listens to. */
  dsm__udp_broadcast_abort(reason);
}

/* ---- one-sided reads ----------------------------------------------------------------- */

/* DSM_VERBS_READ=0 turns off every RDMA READ, one-sided fetches included. */
static int v_can_read(void)
{
  return use_read;
}

static int v_expose(void *addr, size_t len, dsm__rmem_t *out)
{
  if (!use_read)
    return -1;
  pthread_mutex_lock(&mu);
  int room = exposed_bytes + len <= expose_cap;
  if (room)
    exposed_bytes += len;     /* claimed now: registration may take a while */
  pthread_mutex_unlock(&mu);
  if (!room)
    return -1;
  /* Remote READ only: a peer can never write here. Registration pins the
   * pages (and faults in untouched ones of a memfd). */
  struct ibv_mr *mr = V.reg_mr(pd, addr, len, IBV_ACCESS_REMOTE_READ);
  struct exposed *e = mr ? calloc(1, sizeof *e) : NULL;
  pthread_mutex_lock(&mu);
  if (!e) {
    exposed_bytes -= len;
    pthread_mutex_unlock(&mu);
    if (mr) V.dereg_mr(mr);
    DSM__DEBUG("cannot register %zu bytes for one-sided reads: %s", len, strerror(errno));
    return -1;
  }
  e->mr = mr;
  e->next = exposed;
  exposed = e;
  pthread_mutex_unlock(&mu);
  out->addr = (uintptr_t)addr;
  out->rkey = mr->rkey;
  return 0;
}

/* One batch that fits the landing arena (landing_mu held, mu not). */
static void read_batch(dsm__read_t *rs, unsigned n)
{
  struct rbatch b = { n };
  size_t off = 0;
  pthread_mutex_lock(&mu);
  DSM__ASSERT(svc_running);
  for (unsigned i = 0; i < n; i++) {
    DSM__ASSERT(rs[i].dst < nprocs && rs[i].dst != self && rs[i].len > 0);
    struct rd *r = calloc(1, sizeof *r);
    DSM__ASSERT(r);
    r->peer = rs[i].dst;
    r->raddr = rs[i].raddr;
    r->rkey = rs[i].rkey;
    r->len = rs[i].len;
    r->buf = landing + off;
    r->mr = landing_mr;
    r->batch = &b;
    r->fence = rs[i].fence;
    off += (rs[i].len + 63) & ~(size_t)63;
    struct peer *pe = &peers[r->peer];
    if (pe->rdq_tail) pe->rdq_tail->next = r; else pe->rdq_head = r;
    pe->rdq_tail = r;
  }
  for (unsigned i = 0; i < n; i++)
    pump(rs[i].dst);
  uint64_t t0 = dsm__now_ns();
  while (b.left)
    pthread_cond_wait(&call_cv, &mu);
  DSM__STAT_ADD(blocked_ns, dsm__now_ns() - t0);
  pthread_mutex_unlock(&mu);
  off = 0;
  for (unsigned i = 0; i < n; i++) {
    memcpy(rs[i].buf, landing + off, rs[i].len);
    off += (rs[i].len + 63) & ~(size_t)63;
  }
}

static void v_read_many(dsm__read_t *rs, unsigned n)
{
  DSM__ASSERT(!svc_running || !pthread_equal(pthread_self(), svc));
  pthread_mutex_lock(&landing_mu);
  /* Batches run one after the other, so a fenced READ still follows every
   * earlier READ of the round. */
  for (unsigned i = 0; i < n;) {
    unsigned k = 0;
    size_t used = 0;
    while (i + k < n && used + ((rs[i + k].len + 63) & ~(size_t)63) <= landing_sz) {
      used += (rs[i + k].len + 63) & ~(size_t)63;
      k++;
    }
    if (!k)
      dsm__fatal(DSM__EXIT_FATAL, "internal error: a one-sided read of %zu bytes exceeds the "
                 "%zu-byte landing arena", rs[i].len, landing_sz);
    read_batch(rs + i, k);
    i += k;
  }
  pthread_mutex_unlock(&landing_mu);
}

/* ---- bootstrap: queue pair exchange through the master ------------------------------ */

/* What each rank publishes: its port's LID and GID, and for every peer the
 * number and first PSN of the queue pair it created for that peer. */
struct conn_hdr {
  uint32_t phase, lid;
  uint8_t gid[16];
};

static dsm__reqh_t *ag_h[2];
static uint8_t *ag_data[2];
static unsigned ag_count[2];
static size_t ag_len;

/* Rank 0's handler for the exchange: UDP passes it the HELLOs that come
 * after its own bootstrap (a rank sends ours only once it has the address
 * table). RC traffic starts only after the second phase. */
static void on_conn(const dsm__msg_t *m)
{
  pthread_mutex_lock(&mu);
  struct conn_hdr ch;
  if (m->len != ag_len)
    dsm__fatal(DSM__EXIT_FATAL, "verbs bootstrap: rank %u sent a %zu-byte record, expected %zu "
               "(mixed transports in one job?)", m->origin, m->len, ag_len);
  if (self == 0 && m->origin != 0) {
    memcpy(&ch, m->data, sizeof ch);
    if (ch.phase < 2 && ag_count[ch.phase] < nprocs - 1) {
      memcpy(ag_data[ch.phase] + (size_t)m->origin * ag_len, m->data, ag_len);
      ag_h[ch.phase][ag_count[ch.phase]++] = dsm__reqh(m);
      pthread_cond_broadcast(&ctl_cv);
    }
  }
  pthread_mutex_unlock(&mu);
}

/* Every rank's record, in rank order (malloc()ed, nprocs * ag_len bytes). */
static uint8_t *allgather(unsigned phase, const uint8_t *mine)
{
  if (self != 0) {
    void *table;
    size_t len;
    dsm__udp_call(0, DSM__MSG_HELLO, mine, ag_len, &table, &len);
    if (len != ag_len * nprocs)
      dsm__fatal(DSM__EXIT_FATAL, "verbs bootstrap: table of %zu bytes for %u ranks", len, nprocs);
    return table;
  }
  pthread_mutex_lock(&mu);
  memcpy(ag_data[phase], mine, ag_len);
  while (ag_count[phase] < nprocs - 1)
    pthread_cond_wait(&ctl_cv, &mu);
  pthread_mutex_unlock(&mu);
  for (unsigned i = 0; i < nprocs - 1; i++)
    dsm__udp_reply(ag_h[phase][i], ag_data[phase], ag_len * nprocs);
  return dsm__tp_dup(ag_data[phase], ag_len * nprocs);
}

static void modify(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask, const char *to, unsigned p)
{
  int e = V.modify_qp(qp, a, mask);
  if (e)
    dsm__fatal(DSM__EXIT_FATAL, "queue pair to rank %u: transition to %s failed: %s", p, to,
               strerror(e));
}

static void v_init(unsigned rank, unsigned size)
{
  self = rank;
  nprocs = size;
  nrecv = (unsigned)dsm__env_long("DSM_VERBS_CREDITS", 32, 4, 4096);
  nsend = nrecv + 4;
  slot_sz = (size_t)dsm__env_long("DSM_VERBS_BUF", 8192, 256, 1 << 20);
  use_read = (int)dsm__env_long("DSM_VERBS_READ", 1, 0, 1);
  pin_cap = (size_t)dsm__env_long("DSM_VERBS_PIN_MB", 256, 0, 1 << 20) << 20;
  expose_cap = (size_t)dsm__env_long("DSM_VERBS_EXPOSE_MB", 1024, 0, 1 << 22) << 20;
  landing_sz = (size_t)dsm__env_long("DSM_VERBS_LANDING_KB", 1024, 64, 1 << 20) << 10;
  sq_depth = nsend + nread;
  long port = dsm__env_long("DSM_VERBS_PORT", 1, 1, 255);
  int gid_index = (int)dsm__env_long("DSM_VERBS_GID_INDEX", -1, -1, 255);

  /* The device first: without one, fail at once, before any rendezvous. */
  load_verbs();
  int ndev = 0;
  struct ibv_device **devs = V.get_device_list(&ndev);
  if (!devs || ndev <= 0)
    dsm__fatal(DSM__EXIT_FATAL, "no RDMA device found (libibverbs lists 0 devices): the verbs "
               "transport needs an InfiniBand or RoCE adapter (or Soft-RoCE, see docs/verbs.md); "
               "run with --transport udp instead");
  const char *want = getenv("DSM_VERBS_DEVICE");
  struct ibv_device *dev = NULL;
  for (int i = 0; i < ndev && !dev; i++)
    if (!want || !*want || !strcmp(V.get_device_name(devs[i]), want))
      dev = devs[i];
  if (!dev)
    dsm__fatal(DSM__EXIT_FATAL, "no RDMA device named '%s' (DSM_VERBS_DEVICE)", want);
  const char *devname = V.get_device_name(dev);
  ctx = V.open_device(dev);
  if (!ctx)
    dsm__fatal(DSM__EXIT_FATAL, "cannot open RDMA device %s: %s", devname, strerror(errno));
  V.free_device_list(devs);
  /* Outstanding READs per queue pair are bounded by what the device takes
   * (often 16, sometimes 4). */
  struct ibv_device_attr da;
  if (!V.query_device(ctx, &da)) {
    if (da.max_qp_rd_atom > 0 && (unsigned)da.max_qp_rd_atom < nread)
      nread = (unsigned)da.max_qp_rd_atom;
    if (da.max_qp_init_rd_atom > 0 && (unsigned)da.max_qp_init_rd_atom < nread)
      nread = (unsigned)da.max_qp_init_rd_atom;
    sq_depth = nsend + nread;
  }
  struct ibv_port_attr pa;
  if (query_port(ctx, (uint8_t)port, &pa))
    dsm__fatal(DSM__EXIT_FATAL, "cannot query port %ld of RDMA device %s", port, devname);
  if (pa.state != IBV_PORT_ACTIVE)
    dsm__fatal(DSM__EXIT_FATAL, "port %ld of RDMA device %s is not active (state %d)", port,
               devname, pa.state);
  /* RoCE has no LIDs: peers are addressed by GID. On InfiniBand the GID is
   * used only if asked for (DSM_VERBS_GID_INDEX, routing between subnets). */
  int use_gid = pa.link_layer == IBV_LINK_LAYER_ETHERNET || gid_index >= 0;
  if (gid_index < 0) gid_index = 0;
  union ibv_gid gid;
  memset(&gid, 0, sizeof gid);
  if (use_gid && V.query_gid(ctx, (uint8_t)port, gid_index, &gid))
    dsm__fatal(DSM__EXIT_FATAL, "cannot read GID %d of port %ld of %s", gid_index, port, devname);

  pd = V.alloc_pd(ctx);
  chan = V.create_comp_channel(ctx);
  if (!pd || !chan)
    dsm__fatal(DSM__EXIT_FATAL, "RDMA device %s: cannot allocate a protection domain or a "
               "completion channel", devname);
  /* The service thread polls the channel's fd, and reads an event only when
   * poll says one is there; non-blocking so a spurious wake-up cannot hang. */
  fcntl(chan->fd, F_SETFL, fcntl(chan->fd, F_GETFL) | O_NONBLOCK);
  /* Room for every receive and every send queue entry of every peer: the CQ
   * can never overrun. */
  int cqe = (int)((size - 1) * (nrecv + sq_depth) + 16);
  cq = V.create_cq(ctx, cqe, NULL, chan, 0);
  if (!cq)
    dsm__fatal(DSM__EXIT_FATAL, "RDMA device %s: cannot create a completion queue of %d entries",
               devname, cqe);
  size_t arena_len = (size_t)size * (nrecv + nsend) * slot_sz;
  arena = aligned_alloc(4096, (arena_len + 4095) & ~(size_t)4095);
  DSM__ASSERT(arena);
  memset(arena, 0, arena_len);
  arena_mr = V.reg_mr(pd, arena, arena_len, IBV_ACCESS_LOCAL_WRITE);
  if (!arena_mr)
    dsm__fatal(DSM__EXIT_FATAL, "cannot register %zu bytes of message buffers with %s: %s "
               "(ulimit -l?)", arena_len, devname, strerror(errno));
  landing = aligned_alloc(4096, landing_sz);
  DSM__ASSERT(landing);
  landing_mr = V.reg_mr(pd, landing, landing_sz, IBV_ACCESS_LOCAL_WRITE);
  if (!landing_mr)
    dsm__fatal(DSM__EXIT_FATAL, "cannot register the %zu-byte landing buffer for RDMA READ "
               "with %s: %s (ulimit -l?)", landing_sz, devname, strerror(errno));
  peers = calloc(size, sizeof *peers);
  DSM__ASSERT(peers);
  uint32_t seed = (uint32_t)(dsm__now_ns() ^ ((uint64_t)getpid() << 16) ^ rank);
  for (unsigned p = 0; p < size; p++) {
    if (p == self) continue;
    struct peer *pe = &peers[p];
    struct ibv_qp_init_attr qa = {
      .send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC, .sq_sig_all = 0,
      .cap = { .max_send_wr = sq_depth, .max_recv_wr = nrecv, .max_send_sge = 1,
               .max_recv_sge = 1 },
    };
    pe->qp = V.create_qp(pd, &qa);
    if (!pe->qp)
      dsm__fatal(DSM__EXIT_FATAL, "RDMA device %s: cannot create a queue pair for rank %u: %s",
                 devname, p, strerror(errno));
    struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = (uint8_t)port,
                             .qp_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_LOCAL_WRITE };
    modify(pe->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS,
           "INIT", p);
    seed = seed * 1103515245u + 12345u;
    pe->psn = (seed >> 8) & 0xffffff;
    pe->free_slots = calloc(nsend, sizeof *pe->free_slots);
    DSM__ASSERT(pe->free_slots);
    for (unsigned i = 0; i < nsend; i++)
      pe->free_slots[pe->nfree++] = i;
    /* Receives may be posted in INIT: every buffer is in place before the
     * peer learns our queue pair number. */
    for (unsigned i = 0; i < nrecv; i++)
      post_recv(p, i);
    pe->credits = nrecv;
  }
  wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_fd < 0)
    dsm__fatal(DSM__EXIT_FATAL, "eventfd: %s", strerror(errno));

  /* The rendezvous: UDP's bootstrap, then our records through rank 0. */
  /* Ready before UDP's bootstrap ends: a peer sends its record as soon as
   * it has the address table, possibly before our dsm__udp_init returns. */
  ag_len = sizeof(struct conn_hdr) + 8 * (size_t)size;
  for (int ph = 0; ph < 2; ph++) {
    ag_h[ph] = calloc(size, sizeof *ag_h[ph]);
    ag_data[ph] = calloc(size, ag_len);
    DSM__ASSERT(ag_h[ph] && ag_data[ph]);
  }
  dsm__udp_hello_chain(on_conn);
  dsm__udp_init(rank, size);
  if (size > 1) {
    uint8_t *mine = calloc(1, ag_len);
    DSM__ASSERT(mine);
    struct conn_hdr ch = { 0, pa.lid, { 0 } };
    memcpy(ch.gid, gid.raw, 16);
    memcpy(mine, &ch, sizeof ch);
    for (unsigned p = 0; p < size; p++) {
      uint32_t qpn = p == self ? 0 : peers[p].qp->qp_num, psn = p == self ? 0 : peers[p].psn;
      memcpy(mine + sizeof ch + 8 * p, &qpn, 4);
      memcpy(mine + sizeof ch + 8 * p + 4, &psn, 4);
    }
    uint8_t *table = allgather(0, mine);
    for (unsigned p = 0; p < size; p++) {
      if (p == self) continue;
      struct conn_hdr pc;
      uint32_t qpn, psn;
      memcpy(&pc, table + p * ag_len, sizeof pc);
      memcpy(&qpn, table + p * ag_len + sizeof pc + 8 * self, 4);
      memcpy(&psn, table + p * ag_len + sizeof pc + 8 * self + 4, 4);
      struct ibv_qp_attr a = {
        .qp_state = IBV_QPS_RTR, .path_mtu = pa.active_mtu, .dest_qp_num = qpn, .rq_psn = psn,
        .max_dest_rd_atomic = (uint8_t)nread, .min_rnr_timer = 12,
        .ah_attr = { .dlid = (uint16_t)pc.lid, .sl = 0, .src_path_bits = 0,
                     .port_num = (uint8_t)port },
      };
      if (use_gid) {
        a.ah_attr.is_global = 1;
        memcpy(a.ah_attr.grh.dgid.raw, pc.gid, 16);
        a.ah_attr.grh.sgid_index = (uint8_t)gid_index;
        a.ah_attr.grh.hop_limit = 64;
      }
      modify(peers[p].qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
             IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER, "RTR", p);
      /* rnr_retry 0: credits make RNR impossible, so one is a bug to report
       * at once, not to retry quietly. */
      struct ibv_qp_attr b = { .qp_state = IBV_QPS_RTS, .sq_psn = peers[p].psn, .timeout = 14,
                               .retry_cnt = 7, .rnr_retry = 0, .max_rd_atomic = (uint8_t)nread };
      modify(peers[p].qp, &b, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
             IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC, "RTS", p);
    }
    free(table);
    /* Second round: nobody SENDs before every peer's queue pair is ready to
     * receive (a SEND to a queue pair still in INIT would be dropped). */
    ((struct conn_hdr *)mine)->phase = 1;
    free(allgather(1, mine));
    free(mine);
  }
  if (pthread_create(&svc, NULL, service, NULL))
    dsm__fatal(DSM__EXIT_FATAL, "cannot start the verbs service thread");
  svc_running = 1;
  DSM__DEBUG("verbs transport up on %s port %ld (%s, mtu %d): %u credits of %zu bytes per peer, "
             "RDMA READ %s", devname, port, use_gid ? "GID" : "LID", 128 << pa.active_mtu, nrecv,
             slot_sz, use_read ? "on" : "off");
}

static void v_shutdown(void)
{
  if (!svc_running)
    return;
  pthread_mutex_lock(&mu);
  /* Our one-ways handled, our pinned copies fetched, our queues empty:
   * nothing we started is still in the network. */
  for (;;) {
    int busy = oneways_out || npins;
    for (unsigned p = 0; p < nprocs && !busy; p++)
      busy = p != self && (peers[p].qhead || peers[p].rdq_head || peers[p].sq_out);
    if (!busy)
      break;
    pthread_cond_wait(&ctl_cv, &mu);
  }
  exiting = 1;
  pthread_mutex_unlock(&mu);
  dsm__udp_shutdown();
  pthread_mutex_lock(&mu);
  svc_stop = 1;
  wake();
  pthread_mutex_unlock(&mu);
  pthread_join(svc, NULL);
  svc_running = 0;
  for (unsigned p = 0; p < nprocs; p++)
    if (p != self && peers[p].qp)
      V.destroy_qp(peers[p].qp);
  V.destroy_cq(cq);
  V.destroy_comp_channel(chan);
  for (struct exposed *e = exposed, *next; e; e = next) {
    next = e->next;
    V.dereg_mr(e->mr);
    free(e);
  }
  exposed = NULL;
  V.dereg_mr(landing_mr);
  free(landing);
  V.dereg_mr(arena_mr);
  V.dealloc_pd(pd);
  V.close_device(ctx);
}

const struct dsm__tp_ops dsm__tp_verbs_ops = {
  "verbs", v_init, v_shutdown, v_handle, v_call_many, v_send, v_replyv, v_forward, v_abort,
  v_can_read, v_expose, v_read_many,
};

#endif /* DSM_HAVE_VERBS */
