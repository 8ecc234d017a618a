/*
 * transport_impl.h — the backends behind transport.h, and how they are chosen.
 *
 * transport.c picks a backend once, in dsm__tp_init, from DSM_TRANSPORT
 * (udp by default, or verbs) and forwards every dsm__tp_* call to it through
 * this table, so the protocol code calls the same functions whichever
 * network carries its messages.
 *
 * The UDP backend's functions are also callable by name (dsm__udp_*): the
 * verbs backend runs the UDP transport underneath for bootstrap and job
 * control (address table, queue pair exchange, liveness, ABORT, the
 * launcher's lifeline and the collective EXIT); see docs/verbs.md.
 */
#ifndef DSM_TRANSPORT_IMPL_H
#define DSM_TRANSPORT_IMPL_H

#include "transport.h"

struct dsm__tp_ops {
  const char *name;
  void (*init)(unsigned rank, unsigned size);
  void (*shutdown)(void);
  void (*handle)(unsigned type, dsm__handler_t fn);
  void (*call_many)(dsm__call_t *calls, unsigned n);
  /* Takes data, malloc()ed (NULL when len is 0), and frees it when done. */
  void (*send)(unsigned dst, unsigned type, void *data, size_t len);
  void (*replyv)(dsm__reqh_t h, const void *const *bufs, const size_t *lens, unsigned n);
  void (*forward)(dsm__reqh_t h, unsigned dst, const void *data, size_t len);
  void (*broadcast_abort)(const char *reason);
  void (*event_wait)(dsm__tp_event_t *e);
  void (*event_fire)(dsm__tp_event_t *e);
  /* One-sided reads; NULL in a backend without them (UDP). */
  int (*can_read)(void);
  int (*expose)(void *addr, size_t len, dsm__rmem_t *out);
  void (*read_many)(dsm__read_t *reads, unsigned n);
  /* One call with work of the caller's between the send and the wait
   * (dsm__tp_call_overlap); NULL: transport.c runs the work, then the call. */
  void (*call_overlap)(dsm__call_t *call, void (*work)(void *), void *arg);
  /* dsm__tp_send_lazy, taking data as send does; NULL: send. */
  void (*send_lazy)(unsigned dst, unsigned type, void *data, size_t len);
};

/* The concatenation of a gathered reply, malloc()ed (NULL when empty), and
 * its length; every backend's replyv starts with it. */
uint8_t *dsm__tp_gather(const void *const *bufs, const size_t *lens, unsigned n, size_t *len);
/* One call through a backend's call_many: dsm__tp_call, and the UDP
 * backend's own for job control. */
void dsm__tp_call_through(void (*call_many)(dsm__call_t *, unsigned), unsigned dst,
                          unsigned type, const void *req, size_t req_len, void **reply,
                          size_t *reply_len);
/* A malloc()ed copy of n bytes (NULL when n is 0). */
uint8_t *dsm__tp_dup(const void *p, size_t n);

extern const struct dsm__tp_ops dsm__tp_udp_ops;
/* Present in every build: without libibverbs' headers its init is a clear
 * fatal error ("built without the verbs transport"). */
extern const struct dsm__tp_ops dsm__tp_verbs_ops;

/* The UDP backend (transport_udp.c). */
void dsm__udp_init(unsigned rank, unsigned size);
void dsm__udp_shutdown(void);
void dsm__udp_handle(unsigned type, dsm__handler_t fn);
void dsm__udp_call(unsigned dst, unsigned type, const void *req, size_t req_len,
                   void **reply, size_t *reply_len);
void dsm__udp_call_many(dsm__call_t *calls, unsigned n);
void dsm__udp_call_overlap(dsm__call_t *call, void (*work)(void *), void *arg);
void dsm__udp_send(unsigned dst, unsigned type, void *data, size_t len);
void dsm__udp_send_lazy(unsigned dst, unsigned type, void *data, size_t len);
void dsm__udp_reply(dsm__reqh_t h, const void *data, size_t len);
void dsm__udp_replyv(dsm__reqh_t h, const void *const *bufs, const size_t *lens, unsigned n);
void dsm__udp_forward(dsm__reqh_t h, unsigned dst, const void *data, size_t len);
void dsm__udp_broadcast_abort(const char *reason);
/* HELLOs that reach rank 0 after the address table went out (set before
 * dsm__udp_init: a rank may send one as soon as it has the table). */
void dsm__udp_hello_chain(dsm__handler_t fn);

#endif
