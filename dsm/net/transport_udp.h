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
 *   transport_udp.c         the backend's interface; who serves what, and
 *                           waiting: the service thread, calls, events
 *   transport_udp_wire.c    datagram header, MAC, the checks that need no state
 *   transport_udp_socket.c  the socket, the address table, sending datagrams
 *   transport_udp_frag.c    outgoing messages: fragments, window, ACK bitmaps;
 *                           reassembly of incoming ones
 *   transport_udp_rtt.c     round-trip estimates and retransmission timeouts
 *   transport_udp_timers.c  retransmission timers, liveness, keepalives
 *   transport_udp_rpc.c     requests, replies, duplicates, forwarding,
 *                           deferred replies; receiving a datagram
 *   transport_udp_acks.c    ACKs of one-way messages, held briefly to go
 *                           together
 *   transport_udp_boot.c    bootstrap (address table) and collective shutdown
 *
 * Two sockets per process. The service socket takes requests and
 * everything the service thread manages; the reply socket takes the replies,
 * PENDINGs and fragment ACKs of this process's own calls, and only a thread
 * waiting in a call reads it, so a reply wakes the thread that waits for it
 * and nobody else (docs/protocol.md, "Who receives what"). Every datagram
 * leaves through the service socket.
 *
 * One mutex, U.core.mu, guards all of it.
 */
#ifndef DSM_TRANSPORT_UDP_H
#define DSM_TRANSPORT_UDP_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "nh.h"
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
  F_ACKS     = 16,  /* REQ, REP: ACKs of one-way messages ride at the end (below) */
  F_LAZY     = 32,  /* REQ|ONEWAY: sent to the receiver's reply socket (see below) */
  F_WANTACK  = 64,  /* REQ, REP fragment: ACK what you hold (each half window; resends) */
  F_RESENT   = 128, /* REQ, REP, PROBE: a retransmission, or a forward of a request whose
                       first copy to arrive was one */
  /* Two bits whose values REQ-only flags also use (a REP or an ACK never
   * carries F_ONEWAY or F_LAZY): */
  F_ORIG     = 32,  /* REP, ACK|COMPLETE: the first transmission of the answer to a message
                       whose original copies (not F_RESENT) all arrived: the sender's
                       retransmissions of it, if any, were not needed */
  F_DEFERRED = 1,   /* REP: answered after its handler returned (a lock grant, a barrier
                       departure): its service time includes a wait for others */
};

/* Why F_RESENT and F_ORIG (2026-12-07, issue 57): a retransmitted request
 * whose original was answered says that the timeout was too short, and by
 * how much; without them the two copies cannot be told apart (Karn), so a
 * peer whose every call is retransmitted never gets a round-trip sample and
 * keeps its too-short timeout for ever. With them the caller samples the
 * round trip of the original (as TCP's timestamps allow) and counts the
 * retransmission as spurious (stat spurious_retransmits). */

/* A lazy one-way (dsm__tp_send_lazy: a barrier arrival) is one its receiver
 * needs only once a thread of its own waits for an event. Its first copy
 * goes to the receiver's reply socket, which nobody sleeps on while the
 * receiver computes: no thread is woken to take it in, no CPU interrupted.
 * A thread that waits for an event reads the reply socket too and handles
 * it there; a caller that reads it while waiting for a reply hands it to
 * whoever serves the service socket (dsm__udp_lazy_run). A retransmission
 * goes to the service socket, like any request: a receiver that does not
 * wait within a retransmission timeout gets it from its service thread.
 * Only single-datagram messages are sent so. */

/* ACKs riding in a REQ or REP datagram (F_ACKS): after the fragment's
 * payload, k request ids as u64, then k as a u8 (1..ACKS_RIDE), all
 * covered by the MAC. Each says what an ACK|COMPLETE would: the one-way
 * request of that id, sent by this datagram's receiver (its origin) to
 * this datagram's sender, has been handled; or, with ACK_RIDE_REP set in
 * the id, the whole (multi-datagram) reply to request id of this
 * datagram's sender has arrived there. With ACK_RIDE_ORIG set, the ACK
 * says F_ORIG too. transport_udp_acks.c says when they ride. */
#define ACK_RIDE_REP  (1ull << 63)
#define ACK_RIDE_ORIG (1ull << 62)   /* the ACK|COMPLETE carries F_ORIG */
#define ACKS_RIDE    32
#define ACK_RIDE_LEN 8

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
void dsm__udp_set_key(const uint8_t key[16]);
uint64_t dsm__udp_mac(const uint8_t *hb, const void *p, size_t n);
/* The same with riding ACKs (t, tn bytes) after the payload. */
uint64_t dsm__udp_mac_acks(const uint8_t *hb, const void *p, size_t n, const void *t, size_t tn);
/* The checks of a received datagram that need no state beyond the key and
 * the job size: NULL, with *h decoded and *tn the length of its riding
 * ACKs (0 if none), or why it must be dropped. The MAC is checked before
 * any other field is trusted. */
const char *dsm__udp_check(const uint8_t *b, size_t len, struct hdr *h, size_t *tn);
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
/* A call told PENDING waits at least this long before it asks again
 * (transport_udp_rpc.c, on_pending). */
#define RTO_PENDING  (250 * MS)
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
/* The time a reply to a request of this type may take: the peer's network
 * timeout plus what the repliers' handlers of that type were seen to take
 * (their service times, from immediate replies). */
uint64_t dsm__udp_call_rto(unsigned peer, unsigned type);
/* An immediate (not F_DEFERRED) reply to a request of type took service ns
 * between the request's arrival and the reply's departure. */
void dsm__udp_service_sample(unsigned type, uint64_t service);
/* Message x was acknowledged by a datagram that says (orig) or does not say
 * that its originals all arrived: its resends so far were spurious, or
 * needed. */
void dsm__udp_judge_resends(struct xfer *x, int orig);

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
  int orig;                      /* REP: answers an original (F_ORIG on first transmissions) */
  uint32_t resends;              /* datagrams of it sent again (fragments, probes) */
  uint32_t resends_judged;       /* of those, known needed or spurious */
  uint64_t rto, deadline, last_progress;
  struct call *call;             /* our request awaiting a reply */
  struct dsm__tp_centry *entry;  /* cache entry holding the payload */
};

/* Reassembly of a multi-datagram message. */
struct partial {
  uint32_t total, fsz, nfrags, ngot, cum;
  uint32_t high;                 /* 1 + highest fragment index held */
  uint32_t nresent;              /* fragments first held from a retransmitted copy */
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
/* Store one fragment (from a datagram with flags); returns 1 when the
 * message became complete. */
int dsm__udp_partial_add(struct partial *p, uint32_t off, const uint8_t *data, size_t n,
                         unsigned flags);
/* Whether a fragment (its header's flags) that did not complete p asks for
 * an ACK of what p holds: its sender asked (F_WANTACK), or p has a hole. */
int dsm__udp_partial_wants_ack(const struct partial *p, unsigned flags);
/* Tell the sender of a multi-datagram message what we hold (p), or that we
 * hold all of it (p == NULL: ACK|COMPLETE, with F_ORIG if orig). */
void dsm__udp_send_ack(unsigned dst, unsigned origin, uint64_t rid, unsigned type, int tgt_rep,
                       const struct partial *p, int to_caller, int orig);
/* An ACK of request fragments goes to the reply socket of a caller waiting
 * for its own request (never forwarded, not one-way), else to the sender's
 * service socket. */
/* Send the ACKs of partly received messages held back while a batch of
 * datagrams was handled (transport_udp_rpc.c). */
void dsm__udp_acks_flush(void);
static inline int dsm__udp_acks_to_caller(unsigned hops, int oneway)
{
  return hops == 0 && !oneway;
}
void dsm__udp_on_ack(const struct hdr *h, const uint8_t *p, size_t n);

/* ---- transport_udp_timers.c: retransmission and liveness -------------------------- */

/* The two sockets, and the timer lists and roles that go with them: a
 * call's timers are run by the thread reading replies, everything else's
 * by the thread serving the service socket. */
enum { SVC = 0, REPLY = 1 };

void dsm__udp_timer_set(struct xfer *x, uint64_t deadline);
void dsm__udp_timer_clear(struct xfer *x);
/* Fire every timer of list `which` due at now; returns the earliest
 * deadline left, at most next. */
uint64_t dsm__udp_timers_run(int which, uint64_t now, uint64_t next);
/* The earliest deadline of list `which` (UINT64_MAX: none), firing nothing. */
uint64_t dsm__udp_timers_next(int which);
/* A deadline of the SVC list, a held ACK's or another the timer may be
 * armed for went away (transport_udp.c). */
void dsm__udp_tfd_dropped(uint64_t deadline);
/* PING peers silent for DSM_TIMEOUT/3; lowers *next to its own deadline. */
void dsm__udp_keepalive(uint64_t now, uint64_t *next);
/* When the next keepalive round is due (UINT64_MAX: none). */
uint64_t dsm__udp_keepalive_next(void);

/* ---- transport_udp_rpc.c: requests and replies ---------------------------------------- */

struct call {
  struct dsm__tp_call c;         /* first: the core's list holds &call.c */
  struct xfer *x;
  struct partial *part;
  uint64_t t_sent, last_alive;
  int retransmitted;
};

/* Register and send one call of a round waited for by w. A call to self is
 * queued for the service socket's server, or, with inline_self, left to
 * the caller to run (dsm__udp_call_inline). */
void dsm__udp_call_start(struct call *c, unsigned dst, unsigned type, const void *req,
                         size_t len, unsigned *left, struct dsm__tp_waiter *w, int inline_self);
void dsm__udp_call_complete(struct call *c, uint8_t *reply, size_t len);
struct call *dsm__udp_call_find(uint64_t rid);
/* Send the cached reply of e to its origin; again: a duplicate asked. */
void dsm__udp_reply_transmit(struct dsm__tp_centry *e, int again);
/* Send e's forwarded request to its target; again: a duplicate asked. */
void dsm__udp_forward_transmit(struct dsm__tp_centry *e, int again);
/* Takes data (malloc()ed, NULL when len is 0); lazy: see F_LAZY. */
void dsm__udp_send_oneway_locked(unsigned dst, unsigned type, void *data, size_t len, int lazy);
/* A request to ourselves, queued for the thread serving the service socket. */
void dsm__udp_local_enqueue(unsigned origin, unsigned from, unsigned type, uint64_t rid,
                            int oneway, unsigned hops, const void *data, size_t len);
/* Run queued requests to self while `me` serves the service socket. */
void dsm__udp_run_local(const struct dsm__tp_waiter *me);
/* Run our own request c to ourselves on this thread, now. */
void dsm__udp_call_inline(struct call *c, const void *req, size_t len);
/* One datagram read from socket `which`: checked, then handled. */
void dsm__udp_on_datagram(uint8_t *b, size_t len, const struct sockaddr_in *from, int which);

/* ---- transport_udp_socket.c: the socket and the address table ------------------------ */

/* The service socket (bound to the master's port on rank 0) and the reply
 * socket (an ephemeral port on the same address). */
void dsm__udp_open_sockets(const struct sockaddr_in *master);
int dsm__udp_parse_addr(const char *s, struct sockaddr_in *a);
uint32_t dsm__udp_frag_size_for(const struct sockaddr_in *a);
/* Rank r's service address; its reply port (network order, 0: unknown yet). */
void dsm__udp_set_peer(unsigned r, const struct sockaddr_in *a);
void dsm__udp_set_peer_reply(unsigned r, uint16_t port);
/* MAC and send one datagram to rank dst's socket `to` (DSM_LOSS may drop it). */
void dsm__udp_send_dgram(unsigned dst, int to, const struct hdr *h, const void *p, size_t n,
                         int retrans);
/* Lazy one-ways read from the reply socket by a caller, handled as if they
 * had come to the service socket, while `me` serves it. */
void dsm__udp_lazy_run(const struct dsm__tp_waiter *me);
int dsm__udp_lazy_waiting(void);
/* Read and handle what is queued on socket `which` (up to max datagrams)
 * while `me` still serves it; returns how many were read. */
int dsm__udp_recv_queued(int which, const struct dsm__tp_waiter *me, int max);
/* Sleep in a blocking receive on socket `which` (served by `me`) until a
 * datagram comes, then handle what is queued; or until `until` (a little
 * earlier or later: the socket's timeout changes only when it is far off).
 * mu is held on entry and return, released while asleep. This saves the
 * poll() before each receive, a system call on the way of every reply; a
 * thread wakes the sleeper with an empty datagram (dsm__udp_poke_socket),
 * sent to the socket from the service socket. Reads up to max (at least a
 * batch); returns the count read. The reader of the reply socket sleeps
 * here; the service thread sleeps in epoll (transport_udp.c), so that the
 * socket can be taken from it without waking it. */
int dsm__udp_recv_block(int which, struct dsm__tp_waiter *me, uint64_t until, int max);
void dsm__udp_poke_socket(int which);

/* ---- transport_udp_acks.c: ACKs of one-way messages that wait to go together ---------- */

/* The COMPLETE of one-way message (origin, rid) to dst: it goes with the
 * next datagram to dst, or once DSM_ACK_DELAY_US old when the thread
 * serving the service socket is awake, or at a quarter of the
 * retransmission floor at the latest. */
void dsm__udp_ack_oneway(unsigned dst, unsigned origin, uint64_t rid, unsigned type, int orig);
/* The same for the COMPLETE of dst's multi-datagram reply to our request
 * rid: dst frees the reply when it comes, nothing waits for it. */
void dsm__udp_ack_reply(unsigned dst, uint64_t rid, unsigned type, int orig);
/* dst sent again a message whose COMPLETE still waits here: its timer was
 * shorter than our wait, so send the COMPLETE now, with the F_ORIG it was
 * to carry. Returns 0 if none waits (it went already, or never will). */
int dsm__udp_acks_now(unsigned dst, unsigned origin, uint64_t rid, int tgt_rep, int to_caller);
/* A REQ or REP datagram is going to dst and can take room bytes more: the
 * ACKs waiting for dst of messages dst sent itself (one-ways it issued,
 * replies to our requests) ride in it, as many as fit. Writes them to t
 * (which holds ACK_RIDE_LEN * ACKS_RIDE + 1 bytes) as the wire has them
 * and returns their length, 0 if none. */
size_t dsm__udp_acks_pack(unsigned dst, uint8_t *t, size_t room);
/* A datagram went to dst: the ACKs still waiting for it (those that did not
 * ride) go too, to its service socket, or to its reply socket (to_caller)
 * ahead of a reply. */
void dsm__udp_acks_ride(unsigned dst, int to_caller);
/* Send the ACKs that may go; returns the sooner of next and the time the
 * oldest of the others must go. */
uint64_t dsm__udp_acks_run(uint64_t now, uint64_t next);
/* The held ACKs' next deadline, running nothing (UINT64_MAX: none). */
uint64_t dsm__udp_acks_next(void);

/* ---- transport_udp_boot.c: bootstrap and shutdown ------------------------------------- */

/* The state every other part needs, allocated for a job of size ranks
 * (also used by the datagram fuzzer, which runs no socket). */
void dsm__udp_state_init(unsigned rank, unsigned size);

/* ---- transport_udp.c: who serves what ---------------------------------------------------- */

/* Whoever serves socket `which` sleeps until a deadline at most; wake it if
 * a sooner one (or new work: 0) came up. */
void dsm__udp_wake_role(int which, uint64_t deadline);
/* Bootstrap or shutdown progressed: wake whoever waits on ctl_cv. */
void dsm__udp_ctl_changed(void);
/* Wait on ctl_cv (mu held), optionally until an absolute CLOCK_REALTIME time. */
void dsm__udp_ctl_wait(const struct timespec *until);
void dsm__udp_service_start(void);
void dsm__udp_service_stop(void);
void dsm__udp_event_wait(dsm__tp_event_t *e);
void dsm__udp_event_fire(dsm__tp_event_t *e);

/* ---- the state ---------------------------------------------------------------------------- */

struct peer {
  struct sockaddr_in addr;       /* its service socket */
  struct sockaddr_in raddr;      /* its reply socket */
  int known, rknown;
  uint32_t fsz;                  /* fragment payload size toward this peer */
  struct rtt est;
  uint64_t rto;
  uint64_t last_heard;           /* any valid datagram from this peer */
};

struct dsm__udp {
  struct dsm__tp_core core;      /* mu, handlers, calls, reply cache, requests to self */
  pthread_cond_t ctl_cv;         /* bootstrap and shutdown progress */
  int ctl_waiting;               /* threads waiting on it */
  unsigned self, nprocs;
  int sock[2];                   /* SVC, REPLY */
  int lifeline;
  uint8_t key[16];
  dsm__nh_key_t nh_key;          /* from key: NH over payloads (transport_udp_wire.c) */
  double loss;                   /* DSM_LOSS */
  uint64_t rnd_state;
  uint64_t timeout_ns;           /* DSM_TIMEOUT */
  uint64_t rto_min;              /* DSM_RTO_MIN_MS */
  int lazy;                      /* DSM_LAZY=0: lazy one-ways go as others (F_LAZY) */
  struct peer *peers;
  uint32_t window_bytes;
  uint32_t frag_force;           /* DSM_FRAG test knob: fragment size for every peer */
  /* Who serves each socket: the service thread, or a thread waiting for an
   * event (SVC); a thread waiting for replies (REPLY). */
  struct dsm__tp_role role[2];
  /* The SVC list's next deadline as a timerfd its server polls, armed by
   * whoever sets a sooner timer: a reply or one-way sent by another thread
   * needs no wake-up of the server, which wakes for the ACK anyway and only
   * at the deadline if the ACK was lost. */
  int tfd;
  uint64_t tfd_armed;            /* ns, CLOCK_MONOTONIC; UINT64_MAX: not armed */
  /* The deadline tfd is armed for may be gone (an ACK came, a held ACK rode
   * a datagram): the next deadline set re-arms it to the real next one,
   * even a later one. Otherwise each ACK that came in time left a wake-up
   * of the server for nothing, one per retransmission timeout all through
   * a rally of one-ways (issue 57's test, under load). */
  int tfd_stale;
  int shutting_down;             /* 1: in the collective EXIT, 2: done */
  uint64_t last_recv;            /* any valid datagram */
};

extern struct dsm__udp dsm__udp;
/* Short for the one instance, in the backend's own files. */
#define U dsm__udp

/* The message hook (transport.h), if set. */
static inline void dsm__udp_msg(int dir, int kind, unsigned type, unsigned peer, unsigned origin,
                                uint64_t rid, size_t len)
{
  void (*hook)(int, int, unsigned, unsigned, unsigned, uint64_t, size_t, int) =
    __atomic_load_n(&dsm__tp_msg_hook, __ATOMIC_RELAXED);
  if (__builtin_expect(hook != NULL, 0))
    hook(dir, kind, type, peer, origin, rid, len,
         U.core.svc_running && pthread_equal(pthread_self(), U.core.svc));
}

#endif
