/*
 * transport_udp.h — the UDP backend's files and what they share. Never
 * installed; included by transport_udp*.c (and tests/transport/fuzz_datagram.c).
 *
 * Reliability follows TreadMarks: a request is retransmitted by its origin
 * until the reply arrives; the reply is the acknowledgement. The receiver
 * keeps a reply cache keyed by (origin, request id), so a retransmitted
 * request is answered again, re-forwarded, or told "still pending", and
 * never reaches a handler twice. docs/protocol.md has the wire format.
 *
 *   transport_udp.c         the backend's interface and its service thread
 *   transport_udp_wire.c    datagram header, MAC, the checks that need no state
 *   transport_udp_socket.c  the socket, the address table, sending datagrams
 *   transport_udp_frag.c    outgoing messages: fragments, window, ACK bitmaps;
 *                           reassembly of incoming ones
 *   transport_udp_rtt.c     round-trip estimates and retransmission timeouts
 *   transport_udp_timers.c  retransmission timers, liveness, keepalives
 *   transport_udp_rpc.c     requests, replies, duplicates, forwarding,
 *                           deferred replies; receiving a datagram
 *   transport_udp_boot.c    bootstrap (address table) and collective shutdown
 *
 * One mutex, U.core.mu, guards all of it.
 */
#ifndef DSM_TRANSPORT_UDP_H
#define DSM_TRANSPORT_UDP_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>

#include "transport_core.h"
#include "transport_impl.h"

/* ---- transport_udp_wire.c: the datagram format ------------------------------------
 *
 *   0  u32 magic "DSM1"   4 u8 kind   5 u8 type   6 u8 flags   7 u8 hops
 *   8  u32 src rank      12 u32 dst rank          16 u32 origin rank
 *   20 u32 fragment size 24 u64 rid               32 u64 low / service time
 *   40 u32 total length  44 u32 fragment offset   48 payload ...
 *   last 8 bytes: SipHash-2-4 of everything before it under the job key.
 * All integers little-endian. */

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

static inline void put16(uint8_t *b, uint16_t v) { b[0] = (uint8_t)v; b[1] = (uint8_t)(v >> 8); }
static inline void put32(uint8_t *b, uint32_t v) { put16(b, (uint16_t)v); put16(b + 2, (uint16_t)(v >> 16)); }
static inline void put64(uint8_t *b, uint64_t v) { put32(b, (uint32_t)v); put32(b + 4, (uint32_t)(v >> 32)); }
static inline uint16_t get16(const uint8_t *b) { return (uint16_t)(b[0] | b[1] << 8); }
static inline uint32_t get32(const uint8_t *b) { return get16(b) | (uint32_t)get16(b + 2) << 16; }
static inline uint64_t get64(const uint8_t *b) { return get32(b) | (uint64_t)get32(b + 4) << 32; }

void dsm__udp_hdr_put(uint8_t *b, const struct hdr *h);
void dsm__udp_hdr_get(const uint8_t *b, struct hdr *h);
struct hdr dsm__udp_hdr_make(unsigned kind, unsigned type, unsigned flags, unsigned dst,
                             unsigned origin, uint64_t rid);
/* The MAC of a header and its payload under the job key. */
uint64_t dsm__udp_mac(const uint8_t *hb, const void *p, size_t n);
/* The checks of a received datagram that need no state beyond the key and
 * the job size: NULL, with *h decoded, or why it must be dropped. The MAC
 * is checked before any other field is trusted. */
const char *dsm__udp_check(const uint8_t *b, size_t len, struct hdr *h);
/* Fragment geometry of a REQ or REP: NULL or why it is wrong. */
const char *dsm__udp_check_geometry(const struct hdr *h, size_t n);

/* ---- transport_udp_rtt.c: round trips and timeouts -------------------------------- */

#define MS           1000000ull
#define RTO_INIT     (10 * MS)      /* before the first sample */
#define RTO_MAX      (1000 * MS)
/* Bootstrap and shutdown calls wait on every rank, so they are often
 * pending for long; but their answers come in a burst, and at shutdown the
 * master only lingers briefly. Their retransmissions stay frequent. */
#define RTO_CTL      (40 * MS)
#define WINDOW_BYTES (2u << 20)     /* unacknowledged bytes in flight per message */

/* RFC 6298 smoothed round trip and its variation, in ns; srtt == 0 until
 * the first sample. */
struct rtt {
  uint64_t srtt, rttvar;
};

void dsm__udp_rtt_sample(struct rtt *r, uint64_t sample);
/* A clean round trip of a call to peer p (Karn's rule: never a retransmitted
 * one), the replier's service time taken out: updates p's timeout. */
void dsm__udp_peer_sample(unsigned p, uint64_t sample);
struct xfer;
/* The timeout of a message: its own estimate, never below its peer's. */
uint64_t dsm__udp_xfer_rto(const struct xfer *x);
/* How far a message's backoff may grow. */
uint64_t dsm__udp_rto_cap(const struct xfer *x);

/* ---- transport_udp_frag.c: outgoing messages and reassembly ----------------------- */

struct call;

/* An outgoing message: a request we originate or forward, a one-way, or a
 * multi-datagram reply. Lives in the hash of messages in flight while it may
 * get ACKs and in the timer list while it has a deadline. */
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
  struct rtt est;                /* fragment ACK round trips of this message */
  int delivered;                 /* receiver holds the whole message */
  uint64_t rto, deadline, last_progress;
  struct call *call;             /* our request awaiting a reply */
  struct dsm__tp_centry *entry;  /* cache entry holding the payload */
};

/* Reassembly of a multi-datagram message. */
struct partial {
  uint32_t total, fsz, nfrags, ngot, cum;
  uint32_t high;                 /* 1 + highest fragment index held */
  uint8_t *buf;
  uint64_t *have;
};

struct xfer *dsm__udp_xfer_new(unsigned peer, unsigned kind, unsigned type, unsigned flags,
                               unsigned origin, uint64_t rid, const void *data, size_t len);
struct xfer *dsm__udp_xfer_find(unsigned peer, unsigned origin, uint64_t rid, unsigned kind);
void dsm__udp_xfer_free(struct xfer *x);
/* First transmission. Single-datagram replies and forwards are not timed
 * unless `timed`: the origin's retransmission drives them. */
void dsm__udp_xfer_start(struct xfer *x, int timed);
void dsm__udp_send_frag(struct xfer *x, uint32_t i, int retrans);
/* Send new fragments while the window allows. */
void dsm__udp_fill_window(struct xfer *x);
int dsm__udp_frag_acked(const struct xfer *x, uint32_t i);
/* Our own requests and one-ways in flight, in rid order: the lowest is the
 * `low` every request carries, and shutdown waits until there are none. */
void dsm__udp_own_add(struct xfer *x);
uint64_t dsm__udp_own_low(void);
int dsm__udp_own_busy(void);

int dsm__udp_partial_init(struct partial *p, uint32_t total, uint32_t fsz);
void dsm__udp_partial_free(struct partial *p);
/* Store one fragment; returns 1 when the message became complete. */
int dsm__udp_partial_add(struct partial *p, uint32_t off, const uint8_t *data, size_t n);
/* Tell the sender of a multi-datagram message what we hold (p), or that we
 * hold all of it (p == NULL: ACK|COMPLETE). */
void dsm__udp_send_ack(unsigned dst, unsigned origin, uint64_t rid, unsigned type, int tgt_rep,
                       const struct partial *p);
void dsm__udp_on_ack(const struct hdr *h, const uint8_t *p, size_t n);

/* ---- transport_udp_timers.c: retransmission and liveness -------------------------- */

void dsm__udp_timer_set(struct xfer *x, uint64_t deadline);
void dsm__udp_timer_clear(struct xfer *x);
/* Fire every timer due at now; returns the earliest deadline left, at most next. */
uint64_t dsm__udp_timers_run(uint64_t now, uint64_t next);
/* PING peers silent for DSM_TIMEOUT/3; lowers *next to its own deadline. */
void dsm__udp_keepalive(uint64_t now, uint64_t *next);

/* ---- transport_udp_rpc.c: requests and replies ---------------------------------------- */

struct call {
  struct dsm__tp_call c;         /* first: the core's list holds &call.c */
  struct xfer *x;
  struct partial *part;
  uint64_t t_sent, last_alive;
  int retransmitted;
};

void dsm__udp_call_start(struct call *c, unsigned dst, unsigned type, const void *req,
                         size_t len, unsigned *left);
void dsm__udp_call_complete(struct call *c, uint8_t *reply, size_t len);
struct call *dsm__udp_call_find(uint64_t rid);
/* Send (or resend) the cached reply of e to its origin. */
void dsm__udp_reply_transmit(struct dsm__tp_centry *e);
/* Send e's forwarded request to its target; again: a duplicate asked. */
void dsm__udp_forward_transmit(struct dsm__tp_centry *e, int again);
void dsm__udp_send_oneway_locked(unsigned dst, unsigned type, const void *data, size_t len);
/* A request to ourselves; run by the service thread. */
void dsm__udp_local_enqueue(unsigned origin, unsigned from, unsigned type, uint64_t rid,
                            int oneway, unsigned hops, const void *data, size_t len);
/* Run every queued request to self. */
void dsm__udp_run_local(void);
/* One datagram read from the socket: checked, then handled. */
void dsm__udp_on_datagram(uint8_t *b, size_t len, const struct sockaddr_in *from);

/* ---- transport_udp_socket.c: the socket and the address table ------------------------ */

void dsm__udp_open_socket(const struct sockaddr_in *master);
int dsm__udp_parse_addr(const char *s, struct sockaddr_in *a);
uint32_t dsm__udp_frag_size_for(const struct sockaddr_in *a);
void dsm__udp_set_peer(unsigned r, const struct sockaddr_in *a);
/* MAC and send one datagram (DSM_LOSS may drop it). */
void dsm__udp_send_dgram(unsigned dst, const struct hdr *h, const void *p, size_t n, int retrans);
/* A datagram with a header only. */
void dsm__udp_send_small(unsigned kind, unsigned type, unsigned flags, unsigned dst,
                         unsigned origin, uint64_t rid);
/* Read and handle up to max queued datagrams; returns how many were read. */
int dsm__udp_recv_queued(int max);

/* ---- transport_udp_boot.c: bootstrap and shutdown ------------------------------------- */

/* The state every other part needs, allocated for a job of size ranks
 * (also used by the datagram fuzzer, which runs no socket). */
void dsm__udp_state_init(unsigned rank, unsigned size);

/* ---- transport_udp.c: the service thread ------------------------------------------------ */

/* The service thread sleeps until `deadline` at most; wake it if a sooner
 * deadline (or new work: 0) came up. */
void dsm__udp_wake_service(uint64_t deadline);
void dsm__udp_service_start(void);
void dsm__udp_service_stop(void);

/* ---- the state ---------------------------------------------------------------------------- */

struct peer {
  struct sockaddr_in addr;
  int known;
  uint32_t fsz;                  /* fragment payload size toward this peer */
  struct rtt est;
  uint64_t rto;
  uint64_t last_heard;           /* any valid datagram from this peer */
};

struct dsm__udp {
  struct dsm__tp_core core;      /* mu, handlers, calls, reply cache, requests to self */
  pthread_cond_t ctl_cv;         /* bootstrap and shutdown progress */
  unsigned self, nprocs;
  int sock, wake_fd, lifeline;
  uint8_t key[16];
  double loss;                   /* DSM_LOSS */
  uint64_t rnd_state;
  uint64_t timeout_ns;           /* DSM_TIMEOUT */
  uint64_t rto_min;              /* DSM_RTO_MIN_MS */
  struct peer *peers;
  uint32_t window_bytes;
  uint32_t frag_force;           /* DSM_FRAG test knob: fragment size for every peer */
  int svc_sleeping;
  uint64_t svc_deadline;
  int shutting_down;             /* 1: in the collective EXIT, 2: done */
  uint64_t last_recv;            /* any valid datagram */
};

extern struct dsm__udp dsm__udp;
/* Short for the one instance, in the backend's own files. */
#define U dsm__udp

#endif
