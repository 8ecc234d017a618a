/*
 * transport.h — what the protocol needs from a network, and nothing more.
 *
 * The protocol speaks in requests and replies between ranks. A backend
 * (transport_udp.c, or transport_verbs.c over RDMA; transport.c picks one
 * at run time from DSM_TRANSPORT) makes them reliable and exactly-once; the
 * protocol code never sees datagrams, sequence numbers, retransmissions or
 * fragments. A backend may also offer one-sided reads of memory a peer has
 * registered (RDMA READ); onesided.c uses them, the rest of the protocol
 * does not know they exist.
 *
 * Model
 *   - A request carries a type (msg_types.h) and a payload of any size up to
 *     DSM__TP_MAX_MSG. It is identified by (origin rank, request id).
 *   - Requests are handled by the handler registered for their type, one at
 *     a time, on the receiving process's service thread, or on a thread of
 *     that process that waits in the transport meanwhile (an event wait, or
 *     a call to its own rank): so a handler must never wait for anything,
 *     and must take no lock that a thread may hold while it waits in the
 *     transport. The handler does exactly one of:
 *       * dsm__tp_reply()    answer now;
 *       * dsm__tp_forward()  pass the request on to another rank, which then
 *                            answers the origin directly (lock forwarding);
 *       * nothing            keep the handle and answer later from any thread
 *                            (deferred: a barrier manager answers every
 *                            arrival when the last one comes in).
 *     A duplicate of a request (a retransmission) never reaches a handler a
 *     second time: the backend answers it from its reply cache, re-forwards
 *     it, or tells the origin it is still pending.
 *   - The origin blocks in dsm__tp_call() / dsm__tp_call_many() without
 *     spinning until every reply has arrived; the reply wakes that thread
 *     directly, not through the service thread.
 *   - A thread that waits for something a handler does (a barrier's last
 *     arrival, a fork) waits on an event (dsm__tp_event_wait), serving the
 *     network itself meanwhile, so the message that fires the event is
 *     handled by the thread that waits for it.
 *   - dsm__tp_send() is a one-way request: the backend acknowledges it and the
 *     sender does not wait.
 *   - A request to one's own rank is legal and goes through the same handler
 *     path without touching the network.
 *
 * Failure
 *   A peer that stays silent past the liveness timeout (DSM_TIMEOUT seconds)
 *   or a received ABORT ends the process through dsm__fatal(); a call never
 *   returns an error to the protocol.
 */
#ifndef DSM_TRANSPORT_H
#define DSM_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include "msg_types.h"
#include "boot_pmix.h"   /* start-up under a launcher (mpirun, srun): runtime.c */

#define DSM__TP_MAX_MSG (64u << 20)   /* largest request or reply payload */

/* A request as a handler sees it. data is valid only during the handler,
 * unless the handler keeps it (dsm__tp_keep). */
typedef struct dsm__msg {
  unsigned origin;     /* rank that issued the request (not the forwarder) */
  unsigned from;       /* rank that sent it to us (== origin unless forwarded) */
  unsigned type;       /* DSM__MSG_* */
  uint64_t rid;        /* request id, unique per origin */
  const void *data;
  size_t len;
  void **keep;         /* the transport's malloc'd block at data, if it can part with it */
} dsm__msg_t;

/* Take ownership of the message's bytes (free() them when done) without a
 * copy, or NULL when the transport cannot give them away (a datagram's
 * receive buffer, a registered RDMA buffer): copy then. A multi-fragment
 * message over UDP was reassembled into a block of its own, which a handler
 * that holds the data past its return (pushed pages) keeps instead of
 * copying megabytes. */
static inline void *dsm__tp_keep(const dsm__msg_t *m)
{
  if (!m->keep || !*m->keep)
    return NULL;
  void *b = *m->keep;
  *m->keep = NULL;
  return b;
}

/* Enough to answer or forward a request later, from any thread. */
typedef struct dsm__reqh {
  uint32_t origin;
  uint32_t type;
  uint64_t rid;
} dsm__reqh_t;

static inline dsm__reqh_t dsm__reqh(const dsm__msg_t *m) {
  dsm__reqh_t h = { m->origin, m->type, m->rid };
  return h;
}

typedef void (*dsm__handler_t)(const dsm__msg_t *m);

/* One element of a parallel round of requests. reply is malloc()ed by the
 * transport and owned by the caller afterwards (NULL when reply_len is 0). */
typedef struct dsm__call {
  unsigned dst;
  unsigned type;
  const void *req;
  size_t req_len;
  void *reply;
  size_t reply_len;
} dsm__call_t;

/* Job bootstrap, given this process's rank and the job's size (from
 * DSM_RANK and DSM_SIZE, or from PMIx: runtime.c): learns where the master
 * is and the job's key, from DSM_MASTER and DSM_KEY that dsmrun set or,
 * under mpirun or srun, from rank 0 through PMIx (boot_pmix.h); reads
 * DSM_TIMEOUT and DSM_LIFELINE; opens the sockets, exchanges addresses
 * through the master and starts the service thread. Handlers must be
 * registered before it is called. Called once; fatal on failure. */
void     dsm__tp_init(unsigned rank, unsigned size);
/* Collective: returns when every rank has called it; afterwards no further
 * requests arrive and the service thread is stopped. */
void     dsm__tp_shutdown(void);

void     dsm__tp_handle(unsigned type, dsm__handler_t fn);

/* Blocking request/reply. *reply is malloc()ed (may be NULL if empty). */
void     dsm__tp_call(unsigned dst, unsigned type, const void *req, size_t req_len,
                      void **reply, size_t *reply_len);
/* dsm__tp_call, but work(arg) runs on the calling thread after the request
 * is sent and before the wait for the reply, so the caller's own work
 * overlaps the round trip (a lock acquire ends its interval meanwhile:
 * sync/lock.c). work runs with no transport lock held; it may send and
 * call. The reply may arrive while it runs; it waits in the socket. */
void     dsm__tp_call_overlap(unsigned dst, unsigned type, const void *req, size_t req_len,
                              void **reply, size_t *reply_len, void (*work)(void *), void *arg);
/* n requests sent at once, then wait for all replies (one parallel round). */
void     dsm__tp_call_many(dsm__call_t *calls, unsigned n);
/* One-way, reliable, non-blocking. */
void     dsm__tp_send(unsigned dst, unsigned type, const void *data, size_t len);
/* The same for a malloc()ed buffer that the transport takes and frees: no
 * copy of a message of megabytes (a release's pushes). */
void     dsm__tp_send_owned(unsigned dst, unsigned type, void *data, size_t len);
/* dsm__tp_send for a message its receiver needs only once a thread
 * of its own waits for an event (dsm__tp_event_wait), as a barrier arrival
 * is: taken in by that thread when it comes to wait, instead of waking a
 * thread of the receiver's to take it in while it computes. Delivered all
 * the same, later, if nobody there waits (over UDP: within a
 * retransmission timeout). */
void     dsm__tp_send_lazy(unsigned dst, unsigned type, const void *data, size_t len);

/* Called, when set, at the start of every call, event wait and one-sided
 * read, on the calling thread, before any lock is taken, and by the page
 * fault handler for a read fault: the master's fork/join code answers the JOINs it holds
 * (forkjoin.c) before this process waits for a peer. One-way sends never
 * wait, so they do not call it. */
extern void (*dsm__tp_first_use)(void);

/* When set: may a thread whose stack is at addr run handlers while it waits
 * (0: no, it runs on the master's stack in shared memory, where a handler's
 * frames would be shared too; runtime.c sets it). Unset: yes (a transport
 * linked alone, as tests/transport does). */
extern int (*dsm__tp_stack_guard)(const void *addr);

/* Called, when set, for every message this process sends (dir 1: a
 * request or one-way as it leaves, a reply as it is given, a request as
 * it is forwarded) or takes in (dir 0: a request or one-way as its handler
 * starts, a reply as its call completes). kind: 0 request, 1 one-way, 2
 * reply; peer: where it goes or the rank it came from; (origin, rid) name
 * the request, and its reply; on_svc: on the service thread. Under the
 * transport's lock, on whichever thread does it: it must be short and take
 * no other lock of ours. Set and cleared with atomic stores. The
 * profiler's message timeline (profile.c); the UDP backend calls it. */
enum { DSM__TP_MSG_REQ, DSM__TP_MSG_ONEWAY, DSM__TP_MSG_REP };
extern void (*dsm__tp_msg_hook)(int dir, int kind, unsigned type, unsigned peer,
                                unsigned origin, uint64_t rid, size_t len, int on_svc);

/* Answer a request (from the handler or later, from any thread). The payload
 * is copied. Answering twice is a bug and aborts. */
void     dsm__tp_reply(dsm__reqh_t h, const void *data, size_t len);
/* Gather form: the reply is the concatenation of n buffers. */
void     dsm__tp_replyv(dsm__reqh_t h, const void *const *bufs, const size_t *lens, unsigned n);
/* Hand the request to dst with a (possibly new) payload; dst's handler sees
 * the same origin and rid, and its answer goes straight to the origin. */
void     dsm__tp_forward(dsm__reqh_t h, unsigned dst, const void *data, size_t len);

/* Best-effort notice to every peer that this job is failing, then return.
 * Used by dsm__fatal(). */
void     dsm__tp_broadcast_abort(const char *reason);

/* ---- events ----
 *
 * A flag a handler sets (fire) and one thread waits for. The waiting thread
 * serves the network while it waits (the service thread is set aside for
 * that long), so the request that fires the event is received and handled
 * by the thread that waits for it: no wake-up of one thread by another on
 * the way. An event remembers one firing: a wait returns at once if the
 * event fired since the previous wait, and resets it. Waiters recheck their
 * own condition in a loop, so a firing they do not need is harmless. */
typedef struct dsm__tp_event {
  int fired;
  void *waiter;        /* the backend's record of the thread waiting */
} dsm__tp_event_t;
#define DSM__TP_EVENT_INIT { 0, NULL }

/* Wait until e fires, then reset it. Handlers run on the calling thread
 * meanwhile, on its stack: call it without dsm__mu (or any lock a handler
 * takes) and never on the master's shared stack (runtime.c). At most one
 * thread waits on an event at a time. The caller counts the time as
 * blocked_ns if it wants it counted. */
void     dsm__tp_event_wait(dsm__tp_event_t *e);
/* Fire e, from any thread (typically a handler, with dsm__mu held). */
void     dsm__tp_event_fire(dsm__tp_event_t *e);

/* ---- one-sided reads (optional; the verbs backend has them, UDP does not) ----
 *
 * A process registers some of its memory for its peers to read; a peer that
 * learned the (addr, rkey) pair reads it without the owner's program taking
 * part. Nothing is ordered against the owner's own stores: the caller must
 * make what it reads self-validating (onesided.c uses sequence words). */

/* Where registered memory sits, as a peer addresses it. */
typedef struct dsm__rmem {
  uint64_t addr;
  uint32_t rkey;
} dsm__rmem_t;

/* One READ of a round: len bytes at dst's raddr (under rkey) into buf. */
typedef struct dsm__read {
  unsigned dst;
  uint64_t raddr;
  uint32_t rkey;
  void *buf;
  size_t len;
  int fence;   /* starts only after every earlier READ of this round to dst has completed */
} dsm__read_t;

/* 1 when dsm__tp_expose and dsm__tp_read_many work (after dsm__tp_init). */
int      dsm__tp_can_read(void);
/* Register [addr, addr + len) of this process for peers to read, until
 * shutdown. 0 and *out filled, or -1 (no backend support, a registration
 * cap reached, or the device refused: the caller falls back to messages). */
int      dsm__tp_expose(void *addr, size_t len, dsm__rmem_t *out);
/* Post n READs at once and wait, without spinning, until all are done.
 * Fatal on a failed READ, like a failed call. Not from the service thread. */
void     dsm__tp_read_many(dsm__read_t *reads, unsigned n);

#endif
