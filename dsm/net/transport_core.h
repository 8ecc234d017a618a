/*
 * transport_core.h — what the two backends share: the handlers, request ids
 * and the calls waiting for replies, the table of requests received (the
 * reply cache), and requests a process sends to itself.
 *
 * None of this touches the network or decides which thread runs: a backend
 * (transport_udp*.c, transport_verbs*.c) owns one struct dsm__tp_core,
 * guards it with its mu together with its own state, and moves the bytes.
 * Each backend has its own core because the verbs backend runs the UDP one
 * underneath for job control (transport_impl.h): two sets of handlers,
 * calls and cached requests in one process, never mixed up.
 *
 *   transport_core.c   handlers and delivery, request ids and calls,
 *                      requests to self, the service thread's life
 *   transport_cache.c  requests received: pending, answered (the reply kept
 *                      for duplicates), forwarded
 *   transport_wait.c   threads sleeping in the transport and waking each
 *                      other: waiters, roles
 */
#ifndef DSM_TRANSPORT_CORE_H
#define DSM_TRANSPORT_CORE_H

#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "transport.h"

/* One hash for (origin, rid) keys: the cache's table and UDP's messages in
 * flight. DSM__TP_NBUCKET is a power of two. */
#define DSM__TP_NBUCKET 4096
static inline unsigned dsm__tp_hash(unsigned origin, uint64_t rid)
{
  uint64_t h = (rid ^ ((uint64_t)origin << 40)) * 0x9e3779b97f4a7c15ull;
  return (unsigned)(h >> 52) & (DSM__TP_NBUCKET - 1);
}

/* ---- transport_cache.c ---------------------------------------------------------
 *
 * What became of every request this process received, keyed by (origin,
 * rid): its handler ran and has not answered yet (PENDING), it answered
 * (ANSWERED, the reply kept so that a retransmitted request gets it again),
 * it forwarded (FORWARDED, the target and payload kept), or its reply was
 * dropped under memory pressure (DROPPED). UDP keeps entries until the
 * origin says it has its answers; verbs (reliable connections, no
 * duplicates) drops an entry as soon as it is answered, and uses the table
 * only to catch a request answered twice. */

enum { DSM__TP_PENDING = 1, DSM__TP_ANSWERED, DSM__TP_FORWARDED, DSM__TP_DROPPED };

struct dsm__tp_centry {
  struct dsm__tp_centry *hnext;
  struct dsm__tp_centry *prev, *next;   /* per-origin list, rid order */
  unsigned origin, type, state, from, fwd_dst, hops;
  uint64_t rid, t_arrive;
  int oneway;
  int deferred;                  /* its handler returned without answering */
  int told_pending;              /* a duplicate was answered PENDING (UDP) */
  int first_resent;              /* UDP: a copy that arrived first was a retransmission */
  uint8_t *payload;              /* reply (answered) or forwarded request */
  size_t len;
  void *tx;                      /* the backend's transmission of payload in
                                    progress (UDP: a multi-datagram reply) */
};

struct dsm__tp_cache {
  struct dsm__tp_centry *bucket[DSM__TP_NBUCKET];
  struct dsm__tp_centry **head, **tail;   /* per origin */
  uint64_t *low_seen;            /* per origin: its lowest outstanding rid */
  unsigned nprocs;
  size_t bytes, cap;             /* payload bytes held, and the cap */
  void (*drop_tx)(void *tx);     /* ends e->tx when e's payload goes */
};

void dsm__tp_cache_init(struct dsm__tp_cache *c, unsigned nprocs, void (*drop_tx)(void *tx));
struct dsm__tp_centry *dsm__tp_cache_find(struct dsm__tp_cache *c, unsigned origin, uint64_t rid);
/* A new PENDING entry. */
struct dsm__tp_centry *dsm__tp_cache_add(struct dsm__tp_cache *c, unsigned origin, uint64_t rid,
                                         unsigned type, unsigned from, int oneway);
void dsm__tp_cache_remove(struct dsm__tp_cache *c, struct dsm__tp_centry *e);
/* Frees e's payload (and ends its transmission). */
void dsm__tp_cache_drop_payload(struct dsm__tp_cache *c, struct dsm__tp_centry *e);
/* e keeps payload (malloc()ed, taken) as its reply or forwarded request. */
void dsm__tp_cache_keep(struct dsm__tp_cache *c, struct dsm__tp_centry *e, uint8_t *payload,
                        size_t len);
/* The origin's lowest outstanding rid is low: answered entries below it go. */
void dsm__tp_cache_prune(struct dsm__tp_cache *c, unsigned origin, uint64_t low);
/* Past the cap, the oldest replies' bodies are dropped. */
void dsm__tp_cache_enforce_cap(struct dsm__tp_cache *c);
/* The PENDING entry a reply (forward = 0) or a forward (forward = 1) of h
 * settles; answering twice, or a request never received, is fatal. */
struct dsm__tp_centry *dsm__tp_cache_settle(struct dsm__tp_cache *c, dsm__reqh_t h, int forward);

/* ---- transport_wait.c -------------------------------------------------------------
 *
 * A thread that sleeps in the transport sleeps in poll() on its own eventfd
 * (and on what it serves meanwhile); to wake it, poke the eventfd. Each poke
 * that wakes a sleeping thread counts as a wake-up (stat wakeups). */

struct dsm__tp_core;

struct dsm__tp_waiter {
  struct dsm__tp_waiter *next;   /* in a role's queue */
  pthread_t thread;
  int fd;                        /* the thread's eventfd */
  int asleep;                    /* asleep right now (set and cleared under mu) */
  uint64_t until;                /* when that sleep ends by itself (UINT64_MAX: never) */
  /* How to wake it when it sleeps in a backend's own way (a blocking
   * receive) instead of in dsm__tp_sleep; NULL: poke fd. */
  void (*poke)(struct dsm__tp_waiter *w);
  int poke_arg;
};

/* Something one thread at a time serves (a socket, the completion queue). */
struct dsm__tp_role {
  struct dsm__tp_waiter *owner;  /* serving it now (NULL: nobody) */
  struct dsm__tp_waiter *queue;  /* waiting to serve it, in order */
};

/* The calling thread as a waiter (its eventfd is made on first use). */
void dsm__tp_waiter_init(struct dsm__tp_waiter *w);
/* Wake w if it sleeps and is not the calling thread (mu held). */
void dsm__tp_wake(struct dsm__tp_waiter *w);
/* Wake w if it sleeps past deadline (a sooner timer came up). */
void dsm__tp_wake_before(struct dsm__tp_waiter *w, uint64_t deadline);
/* Sleep in ppoll on w's eventfd (fds[0], filled in here) and fds[1..n-1]
 * until one is readable or until `until` (ns, UINT64_MAX: no limit). mu is
 * held on entry and return and released while asleep. Returns ppoll's
 * result, revents set. */
int dsm__tp_sleep(struct dsm__tp_core *co, struct dsm__tp_waiter *w, struct pollfd *fds,
                  unsigned n, uint64_t until);
/* Queue w to take the role over (once); take it off the queue. */
void dsm__tp_role_enqueue(struct dsm__tp_role *r, struct dsm__tp_waiter *w);
void dsm__tp_role_dequeue(struct dsm__tp_role *r, struct dsm__tp_waiter *w);
/* The owner is done: the first queued waiter, or else `fallback`, owns the
 * role now, and is woken to serve it. */
void dsm__tp_role_pass(struct dsm__tp_role *r, struct dsm__tp_waiter *fallback);
/* A new non-blocking eventfd (fatal when none can be had). */
int dsm__tp_eventfd(void);
/* Add one to an eventfd: whoever polls it wakes. */
void dsm__tp_poke(int fd);
/* Reset a (non-blocking) eventfd after a wake-up. */
void dsm__tp_unpoke(int fd);

/* ---- transport_core.c ------------------------------------------------------------ */

/* A request this process sent and waits for: one element of a round of
 * dsm__tp_call_many. A backend that needs more per call embeds this as the
 * first member of its own structure. */
struct dsm__tp_call {
  struct dsm__tp_call *next;
  uint64_t rid;
  unsigned dst, type;
  int done;
  uint8_t *reply;
  size_t reply_len;
  unsigned *left;                /* the round's counter, decremented when done */
  struct dsm__tp_waiter *w;      /* the thread waiting for the round */
};

/* A request (or, for verbs, any message) a process sent to itself, waiting
 * to be run like one from the network. Fields are the backend's to use. */
struct dsm__tp_local {
  struct dsm__tp_local *next;
  unsigned kind, type, flags, origin, from, hops;
  uint64_t rid;
  uint8_t *data;
  size_t len;
};

struct dsm__tp_core {
  pthread_mutex_t mu;            /* this core and the backend's own state */
  /* Held while a handler runs: handlers run one at a time, whichever thread
   * runs them. Taken without mu, never while mu is held. */
  pthread_mutex_t run_mu;
  unsigned self, nprocs;
  dsm__handler_t handlers[DSM__MSG_COUNT];
  uint64_t next_rid;
  struct dsm__tp_call *calls;    /* outstanding */
  struct dsm__tp_local *lq_head, *lq_tail;
  struct dsm__tp_cache cache;
  pthread_t svc;                 /* the service thread */
  struct dsm__tp_waiter svc_w;   /* ... as a waiter */
  int svc_running, svc_stop;
};

void dsm__tp_core_init(struct dsm__tp_core *co, unsigned self, unsigned nprocs,
                       void (*drop_tx)(void *tx));
void dsm__tp_core_handle(struct dsm__tp_core *co, unsigned type, dsm__handler_t fn);

/* Run the handler of a request (mu held on entry and on return, released
 * while the handler runs, run_mu held then); a type without a handler is
 * fatal. */
void dsm__tp_run_handler(struct dsm__tp_core *co, unsigned origin, unsigned from,
                         unsigned type, uint64_t rid, const void *data, size_t len, void **keep);

/* Register c (zeroed by the caller, then filled in here) as outstanding,
 * one of a round counted by *left and waited for by w. */
void dsm__tp_call_add(struct dsm__tp_core *co, struct dsm__tp_call *c, unsigned dst,
                      unsigned type, unsigned *left, struct dsm__tp_waiter *w);
struct dsm__tp_call *dsm__tp_call_find(struct dsm__tp_core *co, uint64_t rid);
/* The reply (malloc()ed, taken) arrived: c is done; the last of its round
 * wakes the round's waiter (unless that is the calling thread). */
void dsm__tp_call_finish(struct dsm__tp_core *co, struct dsm__tp_call *c, uint8_t *reply,
                         size_t len);
/* Take c off the outstanding list (its round is over). */
void dsm__tp_call_remove(struct dsm__tp_core *co, struct dsm__tp_call *c);

/* Start the backend's service thread, fn, which sleeps as co->svc_w (its
 * eventfd is made here). */
void dsm__tp_service_start(struct dsm__tp_core *co, void *(*fn)(void *));
/* Tell it to stop, wake it, and join it (without mu). */
void dsm__tp_service_stop(struct dsm__tp_core *co);

/* Queue a request to self (data taken); the backend wakes whoever runs them. */
void dsm__tp_local_push(struct dsm__tp_core *co, const struct dsm__tp_local *l);
/* The oldest queued request to self, or NULL; the caller frees it and its data. */
struct dsm__tp_local *dsm__tp_local_pop(struct dsm__tp_core *co);

#endif
