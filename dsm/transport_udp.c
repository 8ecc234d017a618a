/*
 * transport_udp.c — transport.h over one UDP socket per process.
 *
 * Reliability follows TreadMarks: a request is retransmitted by its origin
 * until the reply arrives; the reply is the acknowledgement and is never
 * acknowledged itself. The receiver keeps a reply cache keyed by (origin,
 * request id), so a retransmitted request is answered again from the cache,
 * re-forwarded, or told "still pending", and never reaches a handler twice.
 *
 * Messages longer than one datagram are cut into fragments. Fragments of a
 * multi-datagram message (request, reply or one-way) are acknowledged by the
 * receiver with a bitmap of what it holds; the sender keeps a window of
 * unacknowledged fragments in flight and resends only the missing ones.
 *
 * Threads: one service thread polls the socket, the lifeline and a wake-up
 * eventfd with a timeout equal to the next retransmission deadline. It
 * reassembles messages, runs handlers (without the lock held) and retransmits.
 * Application threads send the first datagrams of their requests themselves
 * and then sleep on a condition variable. One mutex (mu) guards all state.
 *
 * What this file does not do: congestion control beyond a fixed window, and
 * path MTU discovery (fragments toward non-loopback peers are small enough
 * for any Ethernet).
 *
 * Datagram layout (all integers little-endian), see docs (transport section):
 *   0  u32 magic "DSM1"   4 u8 kind   5 u8 type   6 u8 flags   7 u8 hops
 *   8  u32 src rank      12 u32 dst rank          16 u32 origin rank
 *   20 u32 fragment size 24 u64 rid               32 u64 low / service time
 *   40 u32 total length  44 u32 fragment offset   48 payload ...
 *   last 8 bytes: SipHash-2-4 of everything before it under the job key.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "mac.h"
#include "transport_impl.h"

/* ---- wire format ----------------------------------------------------------- */

#define MAGIC    0x314d5344u        /* "DSM1" read as little-endian */
#define HDR_LEN  48
#define MAC_LEN  8
#define FSZ_WAN  1400               /* one Ethernet frame with IP/UDP headers */
#define FSZ_LO   (60 * 1024)        /* loopback: UDP allows up to 65507 */
#define FSZ_MIN  256
#define FSZ_MAX  (64 * 1024 - HDR_LEN - MAC_LEN - 28)
#define ACK_BITS 4096               /* bitmap bits carried in one ACK */
#define ABORT_MAX 400               /* reason bytes carried in an ABORT */

enum {
  K_REQ = 1,     /* request fragment */
  K_REP,         /* reply fragment */
  K_ACK,         /* fragment bitmap of a multi-datagram message, or one-way done */
  K_PENDING,     /* the request is known and deferred: keep waiting */
  K_PROBE,       /* "did my (fully delivered) request get answered?" */
  K_ABORT,       /* the job is failing */
  K_END
};

enum {
  F_ONEWAY   = 1,   /* REQ: dsm__udp_send, acknowledged by ACK|COMPLETE */
  F_COMPLETE = 2,   /* ACK: the whole message has arrived */
  F_TGT_REP  = 4,   /* ACK: acknowledges a reply (else a request) */
  F_ACKREQ   = 8,   /* REP: a deferred reply; acknowledge it, its sender resends until then */
};

struct hdr {
  uint32_t magic;
  uint8_t  kind, type, flags;
  uint8_t  hops;    /* REQ: times forwarded, so a revisit is not a duplicate */
  uint32_t src, dst, origin, fsz;
  uint64_t rid;
  uint64_t low;     /* REQ: origin's lowest outstanding rid; REP: service ns */
  uint32_t total, off;
};

static void put16(uint8_t *b, uint16_t v) { b[0] = (uint8_t)v; b[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *b, uint32_t v) { put16(b, (uint16_t)v); put16(b + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *b, uint64_t v) { put32(b, (uint32_t)v); put32(b + 4, (uint32_t)(v >> 32)); }
static uint16_t get16(const uint8_t *b) { return (uint16_t)(b[0] | b[1] << 8); }
static uint32_t get32(const uint8_t *b) { return get16(b) | (uint32_t)get16(b + 2) << 16; }
static uint64_t get64(const uint8_t *b) { return get32(b) | (uint64_t)get32(b + 4) << 32; }

static void hdr_put(uint8_t *b, const struct hdr *h)
{
  put32(b, h->magic); b[4] = h->kind; b[5] = h->type; b[6] = h->flags; b[7] = h->hops;
  put32(b + 8, h->src); put32(b + 12, h->dst); put32(b + 16, h->origin); put32(b + 20, h->fsz);
  put64(b + 24, h->rid); put64(b + 32, h->low); put32(b + 40, h->total); put32(b + 44, h->off);
}

static void hdr_get(const uint8_t *b, struct hdr *h)
{
  h->magic = get32(b); h->kind = b[4]; h->type = b[5]; h->flags = b[6]; h->hops = b[7];
  h->src = get32(b + 8); h->dst = get32(b + 12); h->origin = get32(b + 16); h->fsz = get32(b + 20);
  h->rid = get64(b + 24); h->low = get64(b + 32); h->total = get32(b + 40); h->off = get32(b + 44);
}

/* ---- timing constants ------------------------------------------------------ */

#define MS         1000000ull
#define RTO_INIT   (10 * MS)
/* Floor of the retransmission timeout. Not the LAN round trip (~0.1 ms) but
 * the scheduling delay of an oversubscribed host: with 8 processes on 2 cores
 * a reply is often a few ms late, and a 3 ms floor retransmitted hundreds of
 * requests per second on loopback with no loss at all. DSM_RTO_MIN_MS. */
static uint64_t rto_min = 10 * MS;
#define RTO_MIN    rto_min
#define RTO_MAX    (1000 * MS)
#define WINDOW_BYTES (2u << 20)     /* unacknowledged bytes in flight per message */

/* ---- state ----------------------------------------------------------------- */

struct peer {
  struct sockaddr_in addr;
  int known;
  uint32_t fsz;              /* fragment payload size toward this peer */
  uint64_t srtt, rttvar;     /* ns; srtt == 0 until the first sample */
  uint64_t rto;
  uint64_t last_heard;       /* any valid datagram from this peer */
};

struct call;
struct centry;

/* An outgoing message: a request we originate or forward, a one-way, or a
 * multi-datagram reply. Lives in the xfer hash while it may get ACKs and in
 * the timer list while it has a deadline. */
struct xfer {
  struct xfer *hnext;
  struct xfer *tprev, *tnext;    /* timer list */
  struct xfer *oprev, *onext;    /* own outstanding requests, in rid order */
  int timed, hashed, own;
  unsigned peer, kind, type, flags, origin, hops;
  uint64_t rid;
  const uint8_t *data;
  size_t len;
  uint8_t *owned;                /* freed with the xfer */
  uint32_t fsz, nfrags, nacked, next_new, low_unacked, window;
  uint64_t *acked;               /* bitmap, multi-fragment only */
  uint64_t *sent_at;
  uint64_t *resent;              /* bitmap: sent more than once (Karn) */
  uint64_t srtt, rttvar;         /* fragment ACK round trips of this message */
  int delivered;                 /* receiver holds the whole message */
  uint64_t rto, deadline, last_progress;
  struct call *call;             /* our request awaiting a reply */
  struct centry *entry;          /* cache entry holding the payload */
};

/* Reassembly of a multi-datagram message. */
struct partial {
  uint32_t total, fsz, nfrags, ngot, cum;
  uint32_t high;                 /* 1 + highest fragment index held */
  uint8_t *buf;
  uint64_t *have;
};

struct call {
  struct call *next;
  uint64_t rid;
  unsigned dst, type;
  struct xfer *x;
  int done;
  uint8_t *reply;
  size_t reply_len;
  struct partial *part;
  uint64_t t_sent, last_alive;
  int retransmitted;
  unsigned *left;                /* group counter, decremented when done */
};

enum { C_PENDING = 1, C_ANSWERED, C_FORWARDED, C_DROPPED };

/* Reply cache entry: what a request became, so a duplicate can be handled. */
struct centry {
  struct centry *hnext;
  struct centry *prev, *next;    /* per-origin list, rid order */
  unsigned origin, type, state, from, fwd_dst, hops;
  uint64_t rid, t_arrive;
  int oneway;
  int deferred;                  /* its handler returned without answering */
  uint8_t *payload;              /* reply (answered) or forwarded request */
  size_t len;
  struct xfer *x;                /* multi-datagram reply or forward in progress */
};

/* A multi-datagram request being reassembled. */
struct rpart {
  struct rpart *next;
  unsigned origin, src, type, flags, hops;
  uint64_t rid;
  struct partial p;
};

/* Local deliveries (requests to self), run by the service thread. */
struct local {
  struct local *next;
  unsigned origin, from, type, hops;
  uint64_t rid;
  int oneway;
  uint8_t *data;
  size_t len;
};

#define NBUCKET 4096

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t call_cv = PTHREAD_COND_INITIALIZER;   /* a call finished */
static pthread_cond_t ctl_cv = PTHREAD_COND_INITIALIZER;    /* bootstrap/shutdown progress */

static dsm__handler_t handlers[DSM__MSG_COUNT];
static unsigned self, nprocs;
static int sock = -1, wake_fd = -1, lifeline = -1;
static uint8_t key[16];
static double loss;
static uint64_t timeout_ns;
static struct peer *peers;
static pthread_t svc;
static int svc_running, svc_stop, svc_sleeping;
static uint64_t svc_deadline;
static uint32_t window_bytes = WINDOW_BYTES;
static uint32_t frag_force;      /* DSM_FRAG test knob: fragment size for every peer */

static uint64_t next_rid = 1;
static struct call *calls;
static struct xfer *xbucket[NBUCKET];
static struct xfer *timers;
static struct xfer *own_head, *own_tail;
static struct centry *cbucket[NBUCKET];
static struct centry **chead, **ctail;          /* per origin */
static uint64_t *low_seen;                      /* per origin */
static size_t cache_bytes;
static size_t cache_cap = 256u << 20;
static struct rpart *rparts;
static struct local *lq_head, *lq_tail;

/* bootstrap and shutdown bookkeeping (master) */
static dsm__reqh_t *hello_h, *exit_h;
static unsigned hello_count, exit_count;
static int shutting_down;
static uint64_t last_recv;

static unsigned hashk(unsigned origin, uint64_t rid)
{
  uint64_t h = (rid ^ ((uint64_t)origin << 40)) * 0x9e3779b97f4a7c15ull;
  return (unsigned)(h >> 52) & (NBUCKET - 1);
}

static void wake_service(uint64_t deadline)
{
  if (svc_sleeping && deadline < svc_deadline && wake_fd >= 0) {
    uint64_t one = 1;
    ssize_t w = write(wake_fd, &one, sizeof one);
    (void)w;
    svc_sleeping = 0;
  }
}

/* ---- sending datagrams ------------------------------------------------------ */

static uint64_t rnd_state;

static int lose(void)
{
  if (loss <= 0)
    return 0;
  /* xorshift64*, under mu or in the abort path; a race only perturbs the
   * sequence of a test knob. */
  uint64_t x = rnd_state;
  x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
  rnd_state = x;
  return (double)((x * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0 < loss;
}

static void dgram_send(unsigned dst, const struct hdr *h, const void *p, size_t n, int retrans)
{
  if (!peers[dst].known)
    return;   /* bootstrap: nowhere to send yet; the sender's timer retries */
  uint8_t hb[HDR_LEN], mb[MAC_LEN];
  hdr_put(hb, h);
  dsm__sip_t s;
  dsm__sip_init(&s, key);
  dsm__sip_update(&s, hb, HDR_LEN);
  dsm__sip_update(&s, p, n);
  put64(mb, dsm__sip_final(&s));
  DSM__STAT_INC(datagrams_sent);
  if (retrans)
    DSM__STAT_INC(retransmits);
  if (lose())
    return;
  struct iovec iov[3] = { { hb, HDR_LEN }, { (void *)p, n }, { mb, MAC_LEN } };
  struct msghdr mh = { .msg_name = &peers[dst].addr, .msg_namelen = sizeof peers[dst].addr,
                       .msg_iov = iov, .msg_iovlen = 3 };
  /* A full socket buffer or a transient error is a lost datagram; the
   * retransmission machinery recovers from it like from any other loss. */
  if (sendmsg(sock, &mh, MSG_DONTWAIT) < 0 && errno != EAGAIN && errno != ENOBUFS &&
      errno != ECONNREFUSED && errno != EINTR)
    DSM__DEBUG("sendmsg to rank %u: %s", dst, strerror(errno));
}

static struct hdr hdr_make(unsigned kind, unsigned type, unsigned flags, unsigned dst,
                           unsigned origin, uint64_t rid)
{
  struct hdr h = { .magic = MAGIC, .kind = (uint8_t)kind, .type = (uint8_t)type,
                   .flags = (uint8_t)flags, .src = self, .dst = dst, .origin = origin,
                   .rid = rid };
  return h;
}

static void send_small(unsigned kind, unsigned type, unsigned flags, unsigned dst, unsigned origin,
                       uint64_t rid)
{
  struct hdr h = hdr_make(kind, type, flags, dst, origin, rid);
  dgram_send(dst, &h, NULL, 0, 0);
}

/* ---- timers ------------------------------------------------------------------ */

static void timer_set(struct xfer *x, uint64_t deadline)
{
  x->deadline = deadline;
  if (!x->timed) {
    x->tprev = NULL;
    x->tnext = timers;
    if (timers) timers->tprev = x;
    timers = x;
    x->timed = 1;
  }
  wake_service(deadline);
}

static void timer_clear(struct xfer *x)
{
  if (!x->timed) return;
  if (x->tprev) x->tprev->tnext = x->tnext; else timers = x->tnext;
  if (x->tnext) x->tnext->tprev = x->tprev;
  x->timed = 0;
}

static uint64_t own_low(void)
{
  return own_head ? own_head->rid : next_rid;
}

/* ---- outgoing messages ----------------------------------------------------- */

static struct xfer *xfer_find(unsigned peer, unsigned origin, uint64_t rid, unsigned kind)
{
  for (struct xfer *x = xbucket[hashk(origin, rid)]; x; x = x->hnext)
    if (x->peer == peer && x->origin == origin && x->rid == rid && x->kind == kind)
      return x;
  return NULL;
}

static struct xfer *xfer_new(unsigned peer, unsigned kind, unsigned type, unsigned flags,
                             unsigned origin, uint64_t rid, const void *data, size_t len)
{
  DSM__ASSERT(peer == self || peers[peer].known);
  struct xfer *x = calloc(1, sizeof *x);
  DSM__ASSERT(x);
  x->peer = peer; x->kind = kind; x->type = type; x->flags = flags;
  x->origin = origin; x->rid = rid; x->data = data; x->len = len;
  x->fsz = peer == self ? FSZ_LO : peers[peer].fsz;
  x->nfrags = len ? (uint32_t)((len + x->fsz - 1) / x->fsz) : 1;
  if (x->nfrags > 1) {
    size_t words = (x->nfrags + 63) / 64;
    x->acked = calloc(words, sizeof *x->acked);
    x->sent_at = calloc(x->nfrags, sizeof *x->sent_at);
    x->resent = calloc(words, sizeof *x->resent);
    DSM__ASSERT(x->acked && x->sent_at && x->resent);
    x->window = window_bytes / x->fsz;
    if (x->window < 4) x->window = 4;
    if (x->window > ACK_BITS / 2) x->window = ACK_BITS / 2;
  }
  x->rto = peer == self ? RTO_INIT : peers[peer].rto;
  x->last_progress = dsm__now_ns();
  unsigned b = hashk(origin, rid);
  x->hnext = xbucket[b];
  xbucket[b] = x;
  x->hashed = 1;
  return x;
}

static void xfer_free(struct xfer *x)
{
  timer_clear(x);
  if (x->hashed) {
    struct xfer **pp = &xbucket[hashk(x->origin, x->rid)];
    while (*pp != x) pp = &(*pp)->hnext;
    *pp = x->hnext;
  }
  if (x->own) {
    if (x->oprev) x->oprev->onext = x->onext; else own_head = x->onext;
    if (x->onext) x->onext->oprev = x->oprev; else own_tail = x->oprev;
  }
  if (x->entry && x->entry->x == x)
    x->entry->x = NULL;
  free(x->acked);
  free(x->sent_at);
  free(x->resent);
  free(x->owned);
  free(x);
  pthread_cond_broadcast(&ctl_cv);   /* shutdown waits for one-ways to drain */
}

static uint64_t xfer_rto(const struct xfer *x)
{
  uint64_t rto = x->srtt + 4 * x->rttvar, base = x->peer == self ? RTO_INIT : peers[x->peer].rto;
  return rto < base ? base : rto > RTO_MAX ? RTO_MAX : rto;
}

static int frag_acked(const struct xfer *x, uint32_t i)
{
  return (x->acked[i / 64] >> (i % 64)) & 1;
}

static void send_frag(struct xfer *x, uint32_t i, int retrans)
{
  struct hdr h = hdr_make(x->kind, x->type, x->flags, x->peer, x->origin, x->rid);
  h.fsz = x->fsz;
  h.hops = (uint8_t)x->hops;
  h.total = (uint32_t)x->len;
  h.off = i * x->fsz;
  if (x->kind == K_REQ)
    h.low = x->origin == self ? own_low() : low_seen[x->origin];
  else if (x->entry)
    h.low = dsm__now_ns() - x->entry->t_arrive;
  size_t n = x->len - h.off < x->fsz ? x->len - h.off : x->fsz;
  dgram_send(x->peer, &h, x->data + h.off, n, retrans);
  if (x->sent_at) {
    x->sent_at[i] = dsm__now_ns();
    if (retrans)
      x->resent[i / 64] |= 1ull << (i % 64);
  }
}

/* Send new fragments while the window allows. */
static void fill_window(struct xfer *x)
{
  while (x->next_new < x->nfrags && x->next_new - x->nacked < x->window &&
         x->next_new < x->low_unacked + x->window)
    send_frag(x, x->next_new++, 0);
}

static void local_enqueue(unsigned origin, unsigned from, unsigned type, uint64_t rid, int oneway,
                          unsigned hops, const void *data, size_t len);

/* First transmission of a message. Single-datagram replies and forwards are
 * not timed: the origin's retransmission drives them. */
static void xfer_start(struct xfer *x, int timed)
{
  uint64_t now = dsm__now_ns();
  x->last_progress = now;
  if (x->peer == self) {
    local_enqueue(x->origin, self, x->type, x->rid, x->flags & F_ONEWAY, x->hops, x->data, x->len);
  } else if (x->nfrags == 1) {
    send_frag(x, 0, 0);
  } else {
    fill_window(x);
    timed = 1;
  }
  if (timed)
    timer_set(x, now + x->rto);
}

/* ---- receiving: reassembly --------------------------------------------------- */

static int partial_init(struct partial *p, uint32_t total, uint32_t fsz)
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

static void partial_free(struct partial *p)
{
  free(p->buf);
  free(p->have);
}

/* Store one fragment; returns 1 when the message became complete. */
static int partial_add(struct partial *p, uint32_t off, const uint8_t *data, size_t n)
{
  uint32_t i = off / p->fsz;
  if (!((p->have[i / 64] >> (i % 64)) & 1)) {
    memcpy(p->buf + off, data, n);
    p->have[i / 64] |= 1ull << (i % 64);
    p->ngot++;
    if (i + 1 > p->high)
      p->high = i + 1;
    while (p->cum < p->nfrags && ((p->have[p->cum / 64] >> (p->cum % 64)) & 1))
      p->cum++;
    return p->ngot == p->nfrags;
  }
  return 0;
}

/* Tell the sender of a multi-datagram message what we hold. */
static void send_ack(unsigned dst, unsigned origin, uint64_t rid, unsigned type, int tgt_rep,
                     const struct partial *p)
{
  uint8_t buf[8 + ACK_BITS / 8];
  struct hdr h = hdr_make(K_ACK, type, (tgt_rep ? F_TGT_REP : 0) | (p ? 0 : F_COMPLETE), dst,
                          origin, rid);
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
  dgram_send(dst, &h, buf, n, 0);
}

/* ---- reply cache --------------------------------------------------------------- */

static struct centry *centry_find(unsigned origin, uint64_t rid)
{
  for (struct centry *e = cbucket[hashk(origin, rid)]; e; e = e->hnext)
    if (e->origin == origin && e->rid == rid)
      return e;
  return NULL;
}

static void centry_drop_payload(struct centry *e)
{
  if (e->x)
    xfer_free(e->x);
  cache_bytes -= e->len;
  free(e->payload);
  e->payload = NULL;
  e->len = 0;
}

static void centry_free(struct centry *e)
{
  centry_drop_payload(e);
  struct centry **pp = &cbucket[hashk(e->origin, e->rid)];
  while (*pp != e) pp = &(*pp)->hnext;
  *pp = e->hnext;
  if (e->prev) e->prev->next = e->next; else chead[e->origin] = e->next;
  if (e->next) e->next->prev = e->prev; else ctail[e->origin] = e->prev;
  free(e);
}

static struct centry *centry_new(unsigned origin, uint64_t rid, unsigned type, unsigned from,
                                 int oneway)
{
  struct centry *e = calloc(1, sizeof *e);
  DSM__ASSERT(e);
  e->origin = origin; e->rid = rid; e->type = type; e->from = from; e->oneway = oneway;
  e->state = C_PENDING;
  e->t_arrive = dsm__now_ns();
  unsigned b = hashk(origin, rid);
  e->hnext = cbucket[b];
  cbucket[b] = e;
  /* Keep the per-origin list sorted by rid so pruning pops from the head;
   * requests arrive nearly in order, so the walk from the tail is short. */
  struct centry *after = ctail[origin];
  while (after && after->rid > rid) after = after->prev;
  e->prev = after;
  e->next = after ? after->next : chead[origin];
  if (e->next) e->next->prev = e; else ctail[origin] = e;
  if (after) after->next = e; else chead[origin] = e;
  return e;
}

/* Entries below the origin's lowest outstanding rid can never be asked
 * about again (the origin has its answers), so they go. */
static void cache_prune(unsigned origin, uint64_t low)
{
  if (low > low_seen[origin])
    low_seen[origin] = low;
  while (chead[origin] && chead[origin]->rid < low_seen[origin] &&
         chead[origin]->state != C_PENDING)
    centry_free(chead[origin]);
  for (struct rpart **pp = &rparts; *pp;) {
    struct rpart *r = *pp;
    if (r->origin == origin && r->rid < low_seen[origin]) {
      *pp = r->next;
      partial_free(&r->p);
      free(r);
    } else {
      pp = &r->next;
    }
  }
}

/* Memory cap: if an origin keeps very old requests outstanding, drop the
 * bodies of the oldest answered replies. A duplicate of such a request is
 * then ignored (the origin eventually reports the peer silent), which is
 * better than running out of memory; it does not happen in a sane protocol. */
static void cache_cap_enforce(void)
{
  for (unsigned o = 0; o < nprocs && cache_bytes > cache_cap; o++)
    for (struct centry *e = chead[o]; e && cache_bytes > cache_cap; e = e->next)
      if (e->state == C_ANSWERED && e->payload) {
        DSM__DEBUG("reply cache over %zu bytes: dropping reply to rank %u rid %llu",
                   cache_cap, o, (unsigned long long)e->rid);
        centry_drop_payload(e);
        e->state = C_DROPPED;
      }
}

/* ---- calls (our requests) ----------------------------------------------------- */

static struct call *call_find(uint64_t rid)
{
  for (struct call *c = calls; c; c = c->next)
    if (c->rid == rid)
      return c;
  return NULL;
}

static void rtt_sample(struct peer *p, uint64_t sample)
{
  if (!p->srtt) {
    p->srtt = sample;
    p->rttvar = sample / 2;
  } else {
    uint64_t err = sample > p->srtt ? sample - p->srtt : p->srtt - sample;
    p->rttvar = (3 * p->rttvar + err) / 4;
    p->srtt = (7 * p->srtt + sample) / 8;
  }
  uint64_t rto = p->srtt + 4 * p->rttvar;
  p->rto = rto < RTO_MIN ? RTO_MIN : rto > RTO_MAX ? RTO_MAX : rto;
}

static void call_complete(struct call *c, uint8_t *reply, size_t len)
{
  c->done = 1;
  c->reply = reply;
  c->reply_len = len;
  if (c->part) {
    partial_free(c->part);
    free(c->part);
    c->part = NULL;
  }
  if (c->x) {
    xfer_free(c->x);
    c->x = NULL;
  }
  (*c->left)--;
  pthread_cond_broadcast(&call_cv);
}

/* ---- answering ---------------------------------------------------------------- */

/* Send (or resend) the cached reply of e to its origin. */
static void reply_transmit(struct centry *e)
{
  if (e->oneway)
    return;
  if (e->origin == self) {
    struct call *c = call_find(e->rid);
    if (c && !c->done)
      call_complete(c, dsm__tp_dup(e->payload, e->len), e->len);
    return;
  }
  if (e->x) {
    /* A multi-datagram reply still in flight: its own timer drives it, but
     * the duplicate shows the origin is missing pieces, so send them now. */
    e->x->deadline = dsm__now_ns();
    wake_service(0);
    return;
  }
  /* A deferred reply (a lock grant, a barrier departure, a semaphore
   * wake-up) is asked to be acknowledged and resent on our timer until it
   * is: its origin, told PENDING, retransmits rarely (its backoff reaches
   * RTO_MAX), so a lost grant would otherwise cost up to a second.
   * Bootstrap and shutdown answers have their own lingering instead. */
  int ack = e->deferred && e->type != DSM__MSG_HELLO && e->type != DSM__MSG_EXIT;
  struct xfer *x = xfer_new(e->origin, K_REP, e->type, ack ? F_ACKREQ : 0, e->origin, e->rid,
                            e->payload, e->len);
  x->entry = e;
  if (x->nfrags == 1 && !ack) {
    send_frag(x, 0, 0);
    xfer_free(x);
  } else if (x->nfrags == 1) {
    e->x = x;
    xfer_start(x, 1);
  } else {
    e->x = x;
    xfer_start(x, 1);
  }
}

static void forward_transmit(struct centry *e, int again)
{
  if (e->fwd_dst == self) {
    if (!again)
      local_enqueue(e->origin, self, e->type, e->rid, e->oneway, e->hops + 1, e->payload, e->len);
    return;
  }
  if (e->x) {
    if (again) { e->x->deadline = dsm__now_ns(); wake_service(0); }
    return;
  }
  struct xfer *x = xfer_new(e->fwd_dst, K_REQ, e->type, e->oneway ? F_ONEWAY : 0, e->origin,
                            e->rid, e->payload, e->len);
  x->entry = e;
  x->hops = e->hops + 1;
  if (x->nfrags == 1 && !e->oneway) {
    send_frag(x, 0, again);
    xfer_free(x);
  } else if (again && x->nfrags > 1) {
    /* The target probably has it all; ask before sending megabytes again. */
    struct hdr h = hdr_make(K_PROBE, e->type, 0, e->fwd_dst, e->origin, e->rid);
    h.low = low_seen[e->origin];
    h.hops = (uint8_t)(e->hops + 1);
    dgram_send(e->fwd_dst, &h, NULL, 0, 1);
    xfer_free(x);
  } else {
    e->x = x;
    xfer_start(x, 1);
  }
}

static void handle_dup(struct centry *e, unsigned src, int multi)
{
  DSM__STAT_INC(dup_requests);
  if (e->oneway) {
    if (e->state != C_PENDING && src != self)
      send_ack(src, e->origin, e->rid, e->type, 0, NULL);
    return;
  }
  switch (e->state) {
  case C_ANSWERED:  reply_transmit(e); break;
  case C_FORWARDED: forward_transmit(e, 1); break;
  case C_PENDING:
    if (e->origin != self)
      send_small(K_PENDING, e->type, 0, e->origin, e->origin, e->rid);
    if (multi && src != self)
      send_ack(src, e->origin, e->rid, e->type, 0, NULL);
    break;
  default: break;
  }
}

/* ---- delivering requests ------------------------------------------------------- */

static void deliver(unsigned origin, unsigned from, unsigned type, uint64_t rid, int oneway,
                    unsigned hops, const void *data, size_t len)
{
  struct centry *e = centry_find(origin, rid);
  if (e) {
    /* A forwarded request visiting us again (hops > e->hops): a new visit. */
    e->state = C_PENDING;
    e->from = from;
  } else {
    e = centry_new(origin, rid, type, from, oneway);
  }
  e->hops = hops;
  if (from != self)
    DSM__STAT_MSG(recv, type, len);
  dsm__handler_t fn = handlers[type];
  if (!fn)
    dsm__fatal(DSM__EXIT_FATAL, "rank %u sent a %s request, which has no handler", from,
               dsm__msg_name(type));
  dsm__msg_t m = { origin, from, type, rid, data, len };
  pthread_mutex_unlock(&mu);
  fn(&m);
  pthread_mutex_lock(&mu);
  if (oneway) {
    e = centry_find(origin, rid);
    if (e && e->state == C_PENDING)
      e->state = C_ANSWERED;
    if (from != self)
      send_ack(from, origin, rid, type, 0, NULL);
  } else if ((e = centry_find(origin, rid)) && e->state == C_PENDING) {
    e->deferred = 1;    /* answered later: see reply_transmit */
  }
}

static void local_enqueue(unsigned origin, unsigned from, unsigned type, uint64_t rid, int oneway,
                          unsigned hops, const void *data, size_t len)
{
  struct local *l = calloc(1, sizeof *l);
  DSM__ASSERT(l);
  l->origin = origin; l->from = from; l->type = type; l->rid = rid;
  l->oneway = oneway; l->hops = hops;
  l->data = dsm__tp_dup(data, len);
  l->len = len;
  if (lq_tail) lq_tail->next = l; else lq_head = l;
  lq_tail = l;
  wake_service(0);
}

/* ---- receiving datagrams -------------------------------------------------------- */

static uint32_t frag_size_for(const struct sockaddr_in *a);

static void bad(const char *why, const struct sockaddr_in *from)
{
  DSM__STAT_INC(bad_datagrams);
  DSM__DEBUG("dropped datagram from %s:%u: %s", inet_ntoa(from->sin_addr), ntohs(from->sin_port),
             why);
}

static void on_request(const struct hdr *h, const uint8_t *p, size_t n)
{
  unsigned origin = h->origin;
  int multi = h->total > h->fsz;
  if (h->kind == K_REQ && h->low > low_seen[origin])
    cache_prune(origin, h->low);
  if (h->rid < low_seen[origin])
    return;   /* a stale copy of something the origin already has */
  struct centry *e = centry_find(origin, h->rid);
  if (e && (h->hops <= e->hops || h->kind == K_PROBE)) {
    if (h->kind == K_REQ && multi && !e->oneway) {
      /* A late fragment of a request we have whole: the sender missed our
       * COMPLETE. Say it again; its PROBE will ask for the answer. */
      send_ack(h->src, origin, h->rid, h->type, 0, NULL);
      return;
    }
    handle_dup(e, h->src, multi);
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
    partial_free(&r->p);
    free(r);
    r = NULL;
  }
  if (h->kind == K_PROBE) {
    /* Unknown: we never saw the whole request. Show what we hold so the
     * sender resends the rest (an empty bitmap if we hold nothing). */
    if (r)
      send_ack(h->src, origin, h->rid, h->type, 0, &r->p);
    return;
  }
  if (!multi) {
    deliver(origin, h->src, h->type, h->rid, h->flags & F_ONEWAY, h->hops, p, n);
    return;
  }
  if (!r) {
    r = calloc(1, sizeof *r);
    if (!r || partial_init(&r->p, h->total, h->fsz)) {
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
  if (!partial_add(&r->p, h->off, p, n)) {
    send_ack(h->src, origin, h->rid, h->type, 0, &r->p);
    return;
  }
  for (struct rpart **pp = &rparts; *pp; pp = &(*pp)->next)
    if (*pp == r) { *pp = r->next; break; }
  if (!(r->flags & F_ONEWAY))
    send_ack(h->src, origin, h->rid, h->type, 0, NULL);   /* stop its fragments */
  deliver(origin, h->src, r->type, r->rid, r->flags & F_ONEWAY, r->hops, r->p.buf, r->p.total);
  partial_free(&r->p);
  free(r);
}

static void on_reply(const struct hdr *h, const uint8_t *p, size_t n)
{
  int multi = h->total > h->fsz;
  struct call *c = call_find(h->rid);
  if (!c || c->done) {
    if (multi || (h->flags & F_ACKREQ))
      send_ack(h->src, h->origin, h->rid, h->type, 1, NULL);
    return;
  }
  uint64_t now = dsm__now_ns();
  c->last_alive = now;
  if (!multi) {
    if (h->flags & F_ACKREQ)
      send_ack(h->src, h->origin, h->rid, h->type, 1, NULL);
    if (!c->retransmitted && h->src == c->dst && h->low < now - c->t_sent)
      rtt_sample(&peers[c->dst], now - c->t_sent - h->low);
    DSM__STAT_MSG(recv, c->type, n);
    call_complete(c, dsm__tp_dup(p, n), n);
    return;
  }
  if (!c->part) {
    c->part = calloc(1, sizeof *c->part);
    if (!c->part || partial_init(c->part, h->total, h->fsz)) {
      free(c->part);
      c->part = NULL;
      return;
    }
  }
  if (c->part->total != h->total || c->part->fsz != h->fsz)
    return;
  if (!partial_add(c->part, h->off, p, n)) {
    send_ack(h->src, h->origin, h->rid, h->type, 1, c->part);
    return;
  }
  send_ack(h->src, h->origin, h->rid, h->type, 1, NULL);
  uint8_t *buf = c->part->buf;
  c->part->buf = NULL;
  DSM__STAT_MSG(recv, c->type, h->total);
  call_complete(c, buf, h->total);
}

static void on_ack(const struct hdr *h, const uint8_t *p, size_t n)
{
  unsigned kind = (h->flags & F_TGT_REP) ? K_REP : K_REQ;
  struct xfer *x = xfer_find(h->src, h->origin, h->rid, kind);
  if (!x)
    return;
  uint64_t now = dsm__now_ns();
  x->last_progress = now;
  if (h->flags & F_COMPLETE) {
    if (x->call) {
      /* The request is all there; from now on only probe for the reply. */
      x->delivered = 1;
      x->call->last_alive = now;
      x->rto = peers[x->peer].rto;
      timer_set(x, now + x->rto);
    } else {
      xfer_free(x);
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
    if (!frag_acked(x, i)) {
      x->acked[i / 64] |= 1ull << (i % 64);
      x->nacked++;
      sample = i;
    }
  for (uint32_t b = 0; b < nbits; b++) {
    uint32_t i = cum + b;
    if ((p[8 + b / 8] >> (b % 8)) & 1) {
      high = i;
      if (!frag_acked(x, i)) {
        x->acked[i / 64] |= 1ull << (i % 64);
        x->nacked++;
        sample = i;
      }
    }
  }
  /* A window of large fragments takes longer to drain than a small request
   * takes to answer, so each message keeps its own RTT estimate from the
   * fragments it got ACKs for (never from resent ones: Karn's rule). */
  if (sample != UINT32_MAX && !((x->resent[sample / 64] >> (sample % 64)) & 1) &&
      x->sent_at[sample]) {
    uint64_t rtt = now - x->sent_at[sample];
    if (!x->srtt) {
      x->srtt = rtt;
      x->rttvar = rtt / 2;
    } else {
      uint64_t err = rtt > x->srtt ? rtt - x->srtt : x->srtt - rtt;
      x->rttvar = (3 * x->rttvar + err) / 4;
      x->srtt = (7 * x->srtt + rtt) / 8;
    }
  }
  while (x->low_unacked < x->nfrags && frag_acked(x, x->low_unacked))
    x->low_unacked++;
  if (x->nacked > before) {
    x->rto = xfer_rto(x);   /* progress resets the backoff */
    timer_set(x, now + x->rto);
  }
  /* Fast retransmit: a hole below a fragment that arrived was lost, if it
   * was sent long enough ago for its ACK to have come back. */
  uint64_t thresh = x->srtt ? x->srtt + x->rttvar : RTO_MIN;
  if (thresh < 300000) thresh = 300000;
  for (uint32_t i = x->low_unacked; i < high && i < x->next_new; i++)
    if (!frag_acked(x, i) && now - x->sent_at[i] > thresh) {
      DSM__DEBUG("fast retransmit of fragment %u of %u to rank %u (high %u)", i, x->nfrags,
                 x->peer, high);
      send_frag(x, i, 1);
    }
  fill_window(x);
}

/* Bootstrap and shutdown calls wait on every rank, so they are often
 * pending for long; but their answers come in a burst, and at shutdown the
 * master only lingers briefly. Their retransmissions stay frequent. */
#define RTO_CTL (40 * MS)
static uint64_t rto_cap(const struct xfer *x)
{
  return x->call && (x->call->type == DSM__MSG_EXIT || x->call->type == DSM__MSG_HELLO) ?
         RTO_CTL : RTO_MAX;
}

static void on_pending(const struct hdr *h)
{
  struct call *c = call_find(h->rid);
  if (!c || c->done || !c->x)
    return;
  uint64_t now = dsm__now_ns();
  c->last_alive = now;
  /* Deferred (a barrier, a lock held elsewhere): retransmit less often. */
  c->x->rto = c->x->rto * 2 > rto_cap(c->x) ? rto_cap(c->x) : c->x->rto * 2;
  timer_set(c->x, now + c->x->rto);
}

static void on_datagram(uint8_t *b, size_t len, const struct sockaddr_in *from)
{
  if (len < HDR_LEN + MAC_LEN) { bad("too short", from); return; }
  struct hdr h;
  hdr_get(b, &h);
  if (h.magic != MAGIC) { bad("bad magic", from); return; }
  if (dsm__siphash(key, b, len - MAC_LEN) != get64(b + len - MAC_LEN)) {
    bad("MAC check failed (another job, or corrupt)", from);
    return;
  }
  size_t n = len - HDR_LEN - MAC_LEN;
  const uint8_t *p = b + HDR_LEN;
  if (h.kind == 0 || h.kind >= K_END || h.type == DSM__MSG_NONE || h.type >= DSM__MSG_COUNT ||
      h.src >= nprocs ||
      h.src == self || h.dst != self || h.origin >= nprocs) {
    bad("bad header field", from);
    return;
  }
  struct peer *pe = &peers[h.src];
  if (!pe->known || pe->addr.sin_addr.s_addr != from->sin_addr.s_addr ||
      pe->addr.sin_port != from->sin_port) {
    /* The master learns addresses from HELLO, the one datagram that may come
     * from an unknown source; the MAC vouches that it comes from our job. */
    if (self == 0 && h.kind == K_REQ && h.type == DSM__MSG_HELLO && !dsm__peers_known) {
      pe->addr = *from;
      pe->known = 1;
      pe->fsz = frag_size_for(from);
    } else {
      bad("unknown source address", from);
      return;
    }
  }
  if (h.kind == K_REQ || h.kind == K_REP) {
    if (h.fsz < FSZ_MIN || h.fsz > FSZ_MAX || h.total > DSM__TP_MAX_MSG || h.off % h.fsz ||
        (h.total ? h.off >= h.total : h.off != 0) ||
        n != (h.total - h.off < h.fsz ? h.total - h.off : h.fsz)) {
      bad("bad fragment geometry", from);
      return;
    }
  }
  if ((h.kind == K_REP || h.kind == K_PENDING) && h.origin != self) {
    bad("reply for another rank", from);
    return;
  }
  uint64_t now = dsm__now_ns();
  pe->last_heard = now;
  last_recv = now;
  DSM__STAT_INC(datagrams_recv);
  switch (h.kind) {
  case K_REQ:
  case K_PROBE:   on_request(&h, p, n); break;
  case K_REP:     on_reply(&h, p, n); break;
  case K_ACK:     on_ack(&h, p, n); break;
  case K_PENDING: on_pending(&h); break;
  case K_ABORT: {
    if (shutting_down == 2)
      break;    /* we are done; a late failure elsewhere is not ours */
    char why[ABORT_MAX + 1];
    size_t m = n > ABORT_MAX ? ABORT_MAX : n;
    for (size_t i = 0; i < m; i++)
      why[i] = p[i] < 32 || p[i] > 126 ? '?' : (char)p[i];
    why[m] = 0;
    dsm__fatal(DSM__EXIT_PEER_LOST, "rank %u failed: %s", h.src, why);
  }
  }
}

/* ---- timeouts ------------------------------------------------------------------- */

static void on_timeout(struct xfer *x, uint64_t now)
{
  struct call *c = x->call;
  uint64_t alive = x->last_progress;
  if (c && c->last_alive > alive) alive = c->last_alive;
  if (x->peer != self && peers[x->peer].last_heard > alive) alive = peers[x->peer].last_heard;
  if (x->peer != self && now - alive > timeout_ns) {
    if (c && c->type == DSM__MSG_EXIT) {
      /* The master answered everyone and left; our answer was lost. */
      call_complete(c, NULL, 0);
      return;
    }
    if (c || (x->flags & F_ONEWAY))
      dsm__fatal(DSM__EXIT_PEER_LOST, "rank %u did not answer for %d s", x->peer,
                 (int)(timeout_ns / 1000000000u));
    xfer_free(x);   /* a reply or forward nobody collects any more */
    return;
  }
  if (c && c->part && now - c->last_alive < x->rto) {
    /* The reply is streaming in; its sender's timers cover it. */
    timer_set(x, now + x->rto);
    return;
  }
  if (c) c->retransmitted = 1;
  if (x->peer == self) {
    /* A request to ourselves cannot be lost, but if we forwarded it the
     * target may have lost it: re-forward like a remote duplicate would. */
    struct centry *e = centry_find(x->origin, x->rid);
    if (e && e->state == C_FORWARDED)
      forward_transmit(e, 1);
  } else if (x->nfrags == 1) {
    if (x->flags & F_ACKREQ)
      DSM__STAT_INC(reply_resends);
    send_frag(x, 0, 1);
  } else if (x->delivered) {
    struct hdr h = hdr_make(K_PROBE, x->type, x->flags, x->peer, x->origin, x->rid);
    h.low = x->origin == self ? own_low() : low_seen[x->origin];
    dgram_send(x->peer, &h, NULL, 0, 1);
  } else {
    /* Resend every unacknowledged fragment in flight; the ACKs that come
     * back restart the normal flow. */
    unsigned cnt = 0;
    for (uint32_t i = x->low_unacked; i < x->next_new; i++)
      if (!frag_acked(x, i)) {
        send_frag(x, i, 1);
        cnt++;
      }
    DSM__DEBUG("timeout: resent %u of %u fragments to rank %u (rto %llu us, acked %u)", cnt,
               x->nfrags, x->peer, (unsigned long long)x->rto / 1000, x->nacked);
    if (x->next_new == x->low_unacked)
      fill_window(x);
  }
  x->rto = x->rto * 2 > rto_cap(x) ? rto_cap(x) : x->rto * 2;
  timer_set(x, now + x->rto);
}

/* ---- the service thread --------------------------------------------------------- */

static void send_oneway_locked(unsigned dst, unsigned type, const void *data, size_t len);

static void on_ping(const dsm__msg_t *m)
{
  dsm__udp_reply(dsm__reqh(m), m->data, m->len);
}

/* Liveness without waiting: a peer this process has not heard from for a
 * third of the liveness timeout gets a one-way PING. A live peer's transport
 * acknowledges it even while its program computes; a stopped or cut-off peer
 * stays silent, and the unacknowledged PING then ends the job after
 * DSM_TIMEOUT like any other request would ("rank N did not answer"). Without
 * this, a barrier manager waiting for a stopped member's arrival, or slaves
 * waiting for a fork from a stopped master, would wait forever: nobody has a
 * request outstanding to the silent process. Idle cost: at most one small
 * datagram pair per peer every DSM_TIMEOUT/3 seconds. Called with mu held. */
static void keepalive(uint64_t now, uint64_t *next)
{
  static uint64_t due;
  if (!dsm__peers_known || shutting_down || svc_stop)
    return;
  uint64_t period = timeout_ns / 3;
  if (!due)
    due = now + period;
  if (now >= due) {
    for (unsigned p = 0; p < nprocs; p++)
      if (p != self && now - peers[p].last_heard > period)
        send_oneway_locked(p, DSM__MSG_PING, NULL, 0);
    due = now + period;
  }
  if (due < *next)
    *next = due;
}

static void *service(void *arg)
{
  (void)arg;
  static uint8_t buf[65536];
  pthread_mutex_lock(&mu);
  for (;;) {
    if (svc_stop)
      break;
    if (lq_head)
      cache_prune(self, own_low());
    while (lq_head) {
      struct local *l = lq_head;
      lq_head = l->next;
      if (!lq_head) lq_tail = NULL;
      struct centry *e = centry_find(l->origin, l->rid);
      if (e && l->hops <= e->hops)
        handle_dup(e, self, 0);
      else
        deliver(l->origin, l->from, l->type, l->rid, l->oneway, l->hops, l->data, l->len);
      free(l->data);
      free(l);
    }
    /* Read everything queued before looking at timers: an ACK waiting in
     * the socket must not let a retransmission timer fire spuriously. */
    int backlog = 0;
    if (sock >= 0) {
      int got = 0;
      for (; got < 4096 && !svc_stop; got++) {
        struct sockaddr_in from;
        socklen_t fl = sizeof from;
        ssize_t n = recvfrom(sock, buf, sizeof buf, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
        if (n < 0)
          break;
        if (fl != sizeof from || from.sin_family != AF_INET) {
          DSM__STAT_INC(bad_datagrams);
          continue;
        }
        on_datagram(buf, (size_t)n, &from);
      }
      backlog = got == 4096;
    }
    if (svc_stop)
      break;
    if (backlog || lq_head)
      continue;    /* still busy: timers wait until the queue is empty */
    uint64_t now = dsm__now_ns(), next = now + 1000 * MS;
    keepalive(now, &next);
    for (struct xfer *x = timers, *nx; x; x = nx) {
      nx = x->tnext;
      if (x->deadline <= now) {
        on_timeout(x, now);
        nx = timers;   /* the list may have changed; deadlines moved forward */
        now = dsm__now_ns();
      } else if (x->deadline < next) {
        next = x->deadline;
      }
    }
    if (lq_head || svc_stop)
      continue;
    svc_deadline = next;
    svc_sleeping = 1;
    pthread_mutex_unlock(&mu);

    struct pollfd fds[3] = { { wake_fd, POLLIN, 0 }, { sock, POLLIN, 0 }, { lifeline, POLLIN, 0 } };
    uint64_t wait = next > now ? next - now : 0;
    struct timespec ts = { (time_t)(wait / 1000000000u), (long)(wait % 1000000000u) };
    int r = ppoll(fds, lifeline >= 0 ? 3 : 2, &ts, NULL);
    pthread_mutex_lock(&mu);
    svc_sleeping = 0;
    if (r < 0)
      continue;
    if (fds[0].revents & POLLIN) {
      uint64_t v;
      ssize_t rd = read(wake_fd, &v, sizeof v);
      (void)rd;
    }
    if (lifeline >= 0 && fds[2].revents) {
      char c[64];
      ssize_t rd = (fds[2].revents & POLLIN) ? read(lifeline, c, sizeof c) : 0;
      if (fds[2].revents & POLLNVAL)
        lifeline = -1;
      else if (rd == 0 || (fds[2].revents & (POLLHUP | POLLERR)))
        dsm__fatal(DSM__EXIT_PEER_LOST, "launcher went away");
    }
    /* Datagrams are read at the top of the loop. */
  }
  pthread_mutex_unlock(&mu);
  return NULL;
}

/* ---- the interface ---------------------------------------------------------------- */

void dsm__udp_handle(unsigned type, dsm__handler_t fn)
{
  DSM__ASSERT(type < DSM__MSG_COUNT);
  handlers[type] = fn;
}

static uint64_t new_rid(void)
{
  return next_rid++;
}

/* Start one call (mu held). */
static void call_start(struct call *c, unsigned dst, unsigned type, const void *req, size_t len,
                       unsigned *left)
{
  DSM__ASSERT(dst < nprocs && type < DSM__MSG_COUNT && len <= DSM__TP_MAX_MSG);
  memset(c, 0, sizeof *c);
  c->rid = new_rid();
  c->dst = dst;
  c->type = type;
  c->left = left;
  c->t_sent = c->last_alive = dsm__now_ns();
  c->next = calls;
  calls = c;
  struct xfer *x = xfer_new(dst, K_REQ, type, 0, self, c->rid, req, len);
  x->call = c;
  x->own = 1;
  x->oprev = own_tail;
  if (own_tail) own_tail->onext = x; else own_head = x;
  own_tail = x;
  c->x = x;
  if (dst != self) {
    DSM__STAT_MSG(sent, type, len);
    DSM__STAT_REQ(type);
  }
  xfer_start(x, 1);
}

static void call_unlink(struct call *c)
{
  for (struct call **pp = &calls; *pp; pp = &(*pp)->next)
    if (*pp == c) { *pp = c->next; return; }
}

void dsm__udp_call_many(dsm__call_t *cs, unsigned n)
{
  if (!n) return;
  struct call *c = calloc(n, sizeof *c);
  DSM__ASSERT(c);
  /* A handler that waits for a reply would stop the thread that delivers it. */
  DSM__ASSERT(!svc_running || !pthread_equal(pthread_self(), svc));
  unsigned left = n;
  pthread_mutex_lock(&mu);
  DSM__ASSERT(svc_running);
  for (unsigned i = 0; i < n; i++)
    call_start(&c[i], cs[i].dst, cs[i].type, cs[i].req, cs[i].req_len, &left);
  uint64_t t0 = dsm__now_ns();
  while (left)
    pthread_cond_wait(&call_cv, &mu);
  DSM__STAT_ADD(blocked_ns, dsm__now_ns() - t0);
  for (unsigned i = 0; i < n; i++) {
    call_unlink(&c[i]);
    cs[i].reply = c[i].reply;
    cs[i].reply_len = c[i].reply_len;
  }
  pthread_mutex_unlock(&mu);
  free(c);
}

void dsm__udp_call(unsigned dst, unsigned type, const void *req, size_t req_len, void **reply,
                  size_t *reply_len)
{
  dsm__call_t c = { dst, type, req, req_len, NULL, 0 };
  dsm__udp_call_many(&c, 1);
  if (reply) *reply = c.reply; else free(c.reply);
  if (reply_len) *reply_len = c.reply_len;
}

/* A one-way request; the caller holds mu. */
static void send_oneway_locked(unsigned dst, unsigned type, const void *data, size_t len)
{
  uint64_t rid = new_rid();
  if (dst == self) {
    local_enqueue(self, self, type, rid, 1, 0, data, len);
  } else {
    uint8_t *copy = dsm__tp_dup(data, len);
    struct xfer *x = xfer_new(dst, K_REQ, type, F_ONEWAY, self, rid, copy, len);
    x->owned = copy;
    x->own = 1;
    x->oprev = own_tail;
    if (own_tail) own_tail->onext = x; else own_head = x;
    own_tail = x;
    DSM__STAT_MSG(sent, type, len);
    DSM__STAT_REQ(type);
    xfer_start(x, 1);
  }
}

void dsm__udp_send(unsigned dst, unsigned type, const void *data, size_t len)
{
  DSM__ASSERT(dst < nprocs && type < DSM__MSG_COUNT && len <= DSM__TP_MAX_MSG);
  pthread_mutex_lock(&mu);
  DSM__ASSERT(svc_running);
  send_oneway_locked(dst, type, data, len);
  pthread_mutex_unlock(&mu);
}

void dsm__udp_replyv(dsm__reqh_t h, const void *const *bufs, const size_t *lens, unsigned n)
{
  size_t len;
  uint8_t *payload = dsm__tp_gather(bufs, lens, n, &len);
  pthread_mutex_lock(&mu);
  struct centry *e = centry_find(h.origin, h.rid);
  if (!e || e->state != C_PENDING)
    dsm__fatal(DSM__EXIT_FATAL, "internal error: %s request %llu of rank %u answered twice "
               "or never received", dsm__msg_name(h.type), (unsigned long long)h.rid, h.origin);
  centry_drop_payload(e);   /* a forwarded-to-self request's copy */
  e->state = C_ANSWERED;
  if (e->oneway) {
    free(payload);
  } else {
    e->payload = payload;
    e->len = len;
    cache_bytes += len;
    if (h.origin != self)
      DSM__STAT_MSG(sent, h.type, len);
    reply_transmit(e);
    if (h.origin == self) {
      centry_drop_payload(e);   /* no duplicates without a network */
    }
    cache_cap_enforce();
  }
  pthread_mutex_unlock(&mu);
}

void dsm__udp_reply(dsm__reqh_t h, const void *data, size_t len)
{
  dsm__udp_replyv(h, &data, &len, 1);
}

void dsm__udp_forward(dsm__reqh_t h, unsigned dst, const void *data, size_t len)
{
  DSM__ASSERT(dst < nprocs && len <= DSM__TP_MAX_MSG);
  uint8_t *payload = dsm__tp_dup(data, len);
  pthread_mutex_lock(&mu);
  struct centry *e = centry_find(h.origin, h.rid);
  if (!e || e->state != C_PENDING)
    dsm__fatal(DSM__EXIT_FATAL, "internal error: %s request %llu of rank %u forwarded after "
               "being answered", dsm__msg_name(h.type), (unsigned long long)h.rid, h.origin);
  centry_drop_payload(e);
  e->state = C_FORWARDED;
  e->fwd_dst = dst;
  e->payload = payload;
  e->len = len;
  cache_bytes += len;
  if (dst != self)
    DSM__STAT_MSG(sent, h.type, len);
  forward_transmit(e, 0);
  cache_cap_enforce();
  pthread_mutex_unlock(&mu);
}

void dsm__udp_broadcast_abort(const char *reason)
{
  /* Called from dsm__fatal, possibly with mu held by this very thread: touch
   * only the socket and the address table, which no longer change. */
  if (sock < 0 || !peers || !dsm__peers_known)
    return;
  size_t n = strlen(reason);
  if (n > ABORT_MAX) n = ABORT_MAX;
  for (int copy = 0; copy < 2; copy++)
    for (unsigned r = 0; r < nprocs; r++)
      if (r != self && peers[r].known) {
        struct hdr h = hdr_make(K_ABORT, DSM__MSG_ABORT, 0, r, self, 0);
        dgram_send(r, &h, reason, n, 0);
      }
}

/* ---- bootstrap and shutdown ----------------------------------------------------------- */

/* A backend layered on this one (verbs) runs its own rendezvous through
 * rank 0 with further HELLOs once the address table is out; they go to it. */
static dsm__handler_t hello_next;

void dsm__udp_hello_chain(dsm__handler_t fn)
{
  hello_next = fn;
}

static void on_hello(const dsm__msg_t *m)
{
  pthread_mutex_lock(&mu);
  int later = hello_count == nprocs - 1;
  if (self == 0 && m->origin != 0 && hello_count < nprocs - 1) {
    hello_h[hello_count++] = dsm__reqh(m);
    pthread_cond_broadcast(&ctl_cv);
  }
  pthread_mutex_unlock(&mu);
  if (later && hello_next)
    hello_next(m);
}

static void on_exit_req(const dsm__msg_t *m)
{
  pthread_mutex_lock(&mu);
  if (self == 0 && exit_count < nprocs - 1) {
    exit_h[exit_count++] = dsm__reqh(m);
    pthread_cond_broadcast(&ctl_cv);
  }
  pthread_mutex_unlock(&mu);
}

static int parse_addr(const char *s, struct sockaddr_in *a)
{
  char host[64];
  const char *colon = strrchr(s, ':');
  if (!colon || (size_t)(colon - s) >= sizeof host)
    return -1;
  memcpy(host, s, (size_t)(colon - s));
  host[colon - s] = 0;
  char *end;
  long port = strtol(colon + 1, &end, 10);
  if (*end || port <= 0 || port > 65535)
    return -1;
  memset(a, 0, sizeof *a);
  a->sin_family = AF_INET;
  a->sin_port = htons((uint16_t)port);
  return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0 : -1;
}

static uint32_t frag_size_for(const struct sockaddr_in *a)
{
  if (frag_force)
    return frag_force;
  return (ntohl(a->sin_addr.s_addr) >> 24) == 127 ? FSZ_LO : FSZ_WAN;
}

static void set_peer(unsigned r, const struct sockaddr_in *a)
{
  peers[r].addr = *a;
  peers[r].known = 1;
  peers[r].fsz = frag_size_for(a);
}

static void open_socket(const struct sockaddr_in *master)
{
  sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (sock < 0)
    dsm__fatal(DSM__EXIT_FATAL, "socket: %s", strerror(errno));
  /* Big buffers so a window of large fragments fits; as root, force past
   * net.core.rmem_max. */
  int sz = 16 << 20;
  if (setsockopt(sock, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof sz) < 0)
    setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
  if (setsockopt(sock, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof sz) < 0)
    setsockopt(sock, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
  int got = 0;
  socklen_t gl = sizeof got;
  if (!getsockopt(sock, SOL_SOCKET, SO_RCVBUF, &got, &gl) && got > 0 &&
      (uint32_t)got / 4 < window_bytes) {
    /* Without the big buffer, a window of 2 MiB would only overflow it. */
    window_bytes = (uint32_t)got / 4 < 64 * 1024 ? 64 * 1024 : (uint32_t)got / 4;
  }
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
  if (self == 0) {
    a.sin_port = master->sin_port;
  } else {
    const char *bind_ip = getenv("DSM_BIND");
    if (bind_ip && *bind_ip && inet_pton(AF_INET, bind_ip, &a.sin_addr) != 1)
      dsm__fatal(DSM__EXIT_FATAL, "DSM_BIND='%s' is not an IPv4 address", bind_ip);
  }
  if (bind(sock, (struct sockaddr *)&a, sizeof a) < 0) {
    if (a.sin_port == 0)     /* the kernel picks: the ephemeral range is used up */
      dsm__fatal(DSM__EXIT_FATAL, "no free UDP port for rank %u: %s (too many processes for "
                 "the ephemeral port range, net.ipv4.ip_local_port_range?)", self,
                 strerror(errno));
    dsm__fatal(DSM__EXIT_FATAL, "cannot bind the master's UDP port %u: %s (another job on it? "
               "dsmrun picks a free one)", ntohs(a.sin_port), strerror(errno));
  }
}

static void parse_key(void)
{
  const char *k = getenv("DSM_KEY");
  if (!k || strlen(k) != 32)
    dsm__fatal(DSM__EXIT_FATAL, "DSM_KEY must be 32 hex digits (set by dsmrun)");
  for (int i = 0; i < 16; i++) {
    unsigned v = 0;
    for (int j = 0; j < 2; j++) {
      char c = k[2 * i + j];
      unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
                   c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) :
                   c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99;
      if (d > 15)
        dsm__fatal(DSM__EXIT_FATAL, "DSM_KEY must be 32 hex digits (set by dsmrun)");
      v = v * 16 + d;
    }
    key[i] = (uint8_t)v;
  }
}

void dsm__udp_init(unsigned rank, unsigned size)
{
  DSM__ASSERT(size >= 1 && rank < size && size < 65536 && !svc_running);
  self = rank;
  nprocs = size;
  peers = calloc(size, sizeof *peers);
  chead = calloc(size, sizeof *chead);
  ctail = calloc(size, sizeof *ctail);
  low_seen = calloc(size, sizeof *low_seen);
  hello_h = calloc(size, sizeof *hello_h);
  exit_h = calloc(size, sizeof *exit_h);
  DSM__ASSERT(peers && chead && ctail && low_seen && hello_h && exit_h);
  rto_min = (uint64_t)dsm__env_long("DSM_RTO_MIN_MS", 10, 1, 1000) * MS;
  for (unsigned r = 0; r < size; r++)
    peers[r].rto = RTO_INIT;
  timeout_ns = (uint64_t)dsm__env_long("DSM_TIMEOUT", 30, 1, 86400) * 1000000000u;
  const char *ls = getenv("DSM_LOSS");
  if (ls && *ls) {
    char *end;
    loss = strtod(ls, &end);
    if (*end || loss < 0 || loss > 1)
      dsm__fatal(DSM__EXIT_FATAL, "DSM_LOSS='%s' is not a fraction in [0, 1]", ls);
  }
  rnd_state = (dsm__now_ns() ^ ((uint64_t)getpid() << 32) ^ rank) | 1;
  lifeline = (int)dsm__env_long("DSM_LIFELINE", -1, -1, 1 << 20);
  frag_force = (uint32_t)dsm__env_long("DSM_FRAG", 0, 0, FSZ_LO);
  if (frag_force && frag_force < FSZ_MIN)
    dsm__fatal(DSM__EXIT_FATAL, "DSM_FRAG must be 0 or at least %d", FSZ_MIN);
  handlers[DSM__MSG_HELLO] = on_hello;
  if (!handlers[DSM__MSG_PING])
    handlers[DSM__MSG_PING] = on_ping;   /* keepalives; dsmbench may bring its own */
  handlers[DSM__MSG_EXIT] = on_exit_req;
  wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_fd < 0)
    dsm__fatal(DSM__EXIT_FATAL, "eventfd: %s", strerror(errno));

  if (size > 1) {
    parse_key();
    const char *m = getenv("DSM_MASTER");
    struct sockaddr_in master;
    if (!m || parse_addr(m, &master))
      dsm__fatal(DSM__EXIT_FATAL, "DSM_MASTER='%s' is not ipv4:port (set by dsmrun)",
                 m ? m : "");
    open_socket(&master);
    set_peer(0, &master);
  }
  if (pthread_create(&svc, NULL, service, NULL))
    dsm__fatal(DSM__EXIT_FATAL, "cannot start the service thread");
  svc_running = 1;
  if (size == 1) {
    dsm__peers_known = 1;
    return;
  }
  if (rank == 0) {
    pthread_mutex_lock(&mu);
    while (hello_count < size - 1)
      pthread_cond_wait(&ctl_cv, &mu);
    dsm__peers_known = 1;
    pthread_mutex_unlock(&mu);
    /* The table: each rank's IPv4 address and port, in network order. */
    uint8_t *table = malloc(6 * (size_t)size);
    DSM__ASSERT(table);
    for (unsigned r = 0; r < size; r++) {
      memcpy(table + 6 * r, &peers[r].addr.sin_addr.s_addr, 4);
      memcpy(table + 6 * r + 4, &peers[r].addr.sin_port, 2);
    }
    for (unsigned i = 0; i < size - 1; i++)
      dsm__udp_reply(hello_h[i], table, 6 * (size_t)size);
    free(table);
  } else {
    void *table;
    size_t len;
    dsm__udp_call(0, DSM__MSG_HELLO, NULL, 0, &table, &len);
    if (len != 6 * (size_t)size)
      dsm__fatal(DSM__EXIT_FATAL, "bootstrap: address table of %zu bytes for %u ranks", len, size);
    pthread_mutex_lock(&mu);
    for (unsigned r = 1; r < size; r++) {
      struct sockaddr_in a = { .sin_family = AF_INET };
      memcpy(&a.sin_addr.s_addr, (uint8_t *)table + 6 * r, 4);
      memcpy(&a.sin_port, (uint8_t *)table + 6 * r + 4, 2);
      set_peer(r, &a);
    }
    dsm__peers_known = 1;
    pthread_mutex_unlock(&mu);
    free(table);
  }
  DSM__DEBUG("transport up: %u ranks, window %u bytes", size, window_bytes);
}

void dsm__udp_shutdown(void)
{
  if (!svc_running)
    return;
  pthread_mutex_lock(&mu);
  /* One-ways still in flight must land before we say we are done. */
  while (own_head)
    pthread_cond_wait(&ctl_cv, &mu);
  shutting_down = 1;
  pthread_mutex_unlock(&mu);
  if (nprocs > 1) {
    if (self != 0) {
      dsm__udp_call(0, DSM__MSG_EXIT, NULL, 0, NULL, NULL);
    } else {
      pthread_mutex_lock(&mu);
      while (exit_count < nprocs - 1)
        pthread_cond_wait(&ctl_cv, &mu);
      pthread_mutex_unlock(&mu);
      for (unsigned i = 0; i < nprocs - 1; i++)
        dsm__udp_reply(exit_h[i], NULL, 0);
      /* Linger to answer EXITs whose reply was lost: until 200 ms pass
       * without a datagram (five EXIT retransmission periods, RTO_CTL), at
       * most 3 s. A rank that still misses its answer exits normally after
       * DSM_TIMEOUT. */
      uint64_t start = dsm__now_ns();
      pthread_mutex_lock(&mu);
      last_recv = start;
      for (;;) {
        uint64_t now = dsm__now_ns();
        if (now - start > 3000 * MS || now - last_recv >= 200 * MS)
          break;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 20 * 1000000;
        if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
        pthread_cond_timedwait(&ctl_cv, &mu, &ts);
      }
      pthread_mutex_unlock(&mu);
    }
  }
  pthread_mutex_lock(&mu);
  shutting_down = 2;
  svc_stop = 1;
  uint64_t one = 1;
  ssize_t w = write(wake_fd, &one, sizeof one);
  (void)w;
  pthread_mutex_unlock(&mu);
  pthread_join(svc, NULL);
  svc_running = 0;
}

const struct dsm__tp_ops dsm__tp_udp_ops = {
  "udp", dsm__udp_init, dsm__udp_shutdown, dsm__udp_handle, dsm__udp_call_many, dsm__udp_send,
  dsm__udp_replyv, dsm__udp_forward, dsm__udp_broadcast_abort,
  NULL, NULL, NULL,   /* no one-sided reads over UDP */
};
