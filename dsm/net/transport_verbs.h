/*
 * transport_verbs.h — the verbs (RDMA) backend's files and what they share.
 * Never installed; included by transport_verbs*.c only, which meson builds
 * when libibverbs' headers exist (transport_verbs_none.c otherwise).
 *
 * Layers (docs/verbs.md has the whole story):
 *   - The UDP backend still runs underneath, for what is not protocol
 *     traffic: the bootstrap (address table), the exchange of queue pair
 *     numbers, PSNs, LID/GID, liveness PINGs (DSM_TIMEOUT), ABORT, the
 *     launcher's lifeline and the collective EXIT.
 *   - Every protocol message travels as a SEND on the RC queue pair to its
 *     peer, into receive buffers posted in advance. RC is reliable,
 *     exactly-once and in order: no retransmission, no fragment bitmap, and
 *     the reply cache only remembers what is not answered yet.
 *   - Flow control is by credits, so a receiver-not-ready cannot happen.
 *   - A message too large for one buffer is offered by reference: the
 *     receiver fetches it with one RDMA READ (or, without READ, it is cut
 *     into chunks over SEND).
 *
 *   transport_verbs.c       the backend's interface and its service thread
 *   transport_verbs_lib.c   libibverbs, opened with dlopen() at run time
 *   transport_verbs_post.c  sending: buffers, credits, the per-peer queues
 *   transport_verbs_recv.c  completions: receiving, READs done, sends done
 *   transport_verbs_read.c  one-sided reads of registered memory
 *   transport_verbs_boot.c  device, queue pairs and their exchange; teardown
 *
 * One mutex, V.core.mu, guards all of it (the landing arena of one-sided
 * reads has its own, taken before it).
 */
#ifndef DSM_TRANSPORT_VERBS_H
#define DSM_TRANSPORT_VERBS_H

#include <infiniband/verbs.h>
#include <pthread.h>
#include <stdint.h>

#include "transport_core.h"
#include "transport_impl.h"

/* ---- transport_verbs_lib.c: libibverbs, loaded at run time ------------------------- */

/* The entry points used that are not inline in verbs.h. */
struct dsm__ibv {
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
};

extern struct dsm__ibv dsm__ibv;
#define IBV dsm__ibv

/* dlopen libibverbs (DSM_VERBS_LIB overrides the file); fatal if unusable. */
void dsm__verbs_load(void);
/* ibv_query_port through the provider's extended entry point when it has one. */
int dsm__verbs_query_port(struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *a);

/* ---- the wire format -------------------------------------------------------------------- */

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

/* wr_id tags: READs carry the address of their struct rd (user space
 * addresses are below 2^47), SENDs and RECVs a tagged slot number. */
#define TAG_RECV (1ull << 62)
#define TAG_SEND (2ull << 62)
#define TAG_MASK (3ull << 62)

/* ---- the state ------------------------------------------------------------------------------ */

/* A message waiting for credits or a send buffer; its payload is our copy. */
struct omsg {
  struct omsg *next;
  unsigned kind, type, flags, origin;
  uint64_t rid;
  uint8_t *data;
  size_t len, sent;     /* sent: bytes already posted (chunked messages) */
  int by_ref;           /* decided to go as RDESC */
};

/* A registered copy a peer is fetching with READ; its address is the token
 * the peer returns in RDONE. */
struct pin {
  uint8_t *buf;
  size_t len;
  struct ibv_mr *mr;
};

/* A round of one-sided READs a caller of dsm__tp_read_many waits for. */
struct rbatch {
  unsigned left;
  struct dsm__tp_waiter *w;     /* the thread waiting for it */
};

/* An RDMA READ we issued (or are about to): either the second half of a
 * large message offered by reference (batch NULL), or one READ of a
 * one-sided round landing in the landing arena. */
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

struct dsm__verbs {
  struct dsm__tp_core core;     /* mu, handlers, calls, pending requests, requests to self */
  pthread_cond_t ctl_cv;        /* shutdown progress */
  int ctl_waiting;              /* a thread waits on ctl_cv */
  unsigned self, nprocs;
  struct peer *peers;
  struct ibv_context *ctx;
  struct ibv_pd *pd;
  struct ibv_comp_channel *chan;
  struct ibv_cq *cq;
  struct ibv_mr *arena_mr;
  uint8_t *arena;
  /* Who serves the completion queue (and requests to self): the service
   * thread, or a thread waiting for an event. */
  struct dsm__tp_role role;
  /* Completions polled and not yet begun, oldest first. Shared, not local
   * to the poller: a handler runs without mu, and a new owner of the queue
   * must not start a later completion (the next chunk of a message, say)
   * before the ones its predecessor already took. */
  struct ibv_wc taken[32];
  unsigned taken_next, taken_n;
  int exiting;                  /* in the collective EXIT: peers may tear down */
  unsigned nrecv;               /* receive buffers per peer (DSM_VERBS_CREDITS) */
  unsigned nsend;               /* send buffers per peer */
  unsigned nread;               /* READs in flight per peer */
  size_t slot_sz;               /* bytes per buffer, header included (DSM_VERBS_BUF) */
  int use_read;                 /* DSM_VERBS_READ */
  size_t pin_cap, pinned;       /* bytes registered for peers to READ */
  unsigned sq_depth;
  unsigned oneways_out;         /* our one-ways not yet acknowledged */
  unsigned npins;
  uint64_t sends_posted, sends_done;
};

extern struct dsm__verbs dsm__verbs;
/* Short for the one instance, in the backend's own files. */
#define V dsm__verbs

/* ---- transport_verbs_post.c: sending ------------------------------------------------------ */

uint8_t *dsm__verbs_recv_slot(unsigned p, unsigned i);
void dsm__verbs_post_recv(unsigned p, unsigned i);
/* Queue a message to a peer or to ourselves (data taken) and post what the
 * credits allow. */
void dsm__verbs_enqueue(unsigned dst, unsigned kind, unsigned type, unsigned flags,
                        unsigned origin, uint64_t rid, uint8_t *data, size_t len);
/* Queue a READ for its peer's send queue. */
void dsm__verbs_queue_read(struct rd *r);
/* Post what the credits, buffers and send queue allow toward peer p. */
void dsm__verbs_pump(unsigned p);

/* ---- transport_verbs_recv.c: completions ------------------------------------------------------ */

/* One whole message, from peer `from` (or ourselves). data is valid during
 * the call only unless `owned`, in which case it is ours to keep or free. */
void dsm__verbs_dispatch(unsigned from, unsigned kind, unsigned type, unsigned flags,
                         unsigned origin, uint64_t rid, uint8_t *data, size_t len, int owned);
/* Handle the completions queued while `me` serves the completion queue;
 * returns how many there were. */
int dsm__verbs_drain_cq(const struct dsm__tp_waiter *me);

/* ---- transport_verbs_read.c: one-sided reads ---------------------------------------------------- */

/* Read DSM_VERBS_EXPOSE_MB and _LANDING_KB, register the landing arena. */
void dsm__verbs_read_init(const char *devname);
void dsm__verbs_read_exit(void);
int dsm__verbs_can_read(void);
int dsm__verbs_expose(void *addr, size_t len, dsm__rmem_t *out);
void dsm__verbs_read_many(dsm__read_t *reads, unsigned n);

/* ---- transport_verbs_boot.c: setup and teardown ---------------------------------------------------- */

void dsm__verbs_init(unsigned rank, unsigned size);
void dsm__verbs_shutdown(void);

/* ---- transport_verbs.c: the service thread --------------------------------------------------------- */

void dsm__verbs_service_start(void);
void dsm__verbs_service_stop(void);
/* A shutdown condition changed: wake whoever waits for one. */
void dsm__verbs_ctl_changed(void);

#endif
