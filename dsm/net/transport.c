/*
 * transport.c — runtime choice of the transport backend (transport_impl.h).
 *
 * The choice is made at run time, not at build time, so one libdsm.a (and
 * every program linked with it) runs over UDP anywhere and over RDMA where
 * a device exists: dsmrun --transport verbs sets DSM_TRANSPORT for every
 * rank. Handlers may be registered before the backend is known, so this file
 * keeps them and hands them over at init.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "transport_impl.h"

static const struct dsm__tp_ops *tp;
static dsm__handler_t early[DSM__MSG_COUNT];

/* Before dsm__tp_init only a test harness that drives the UDP backend's
 * internals directly (tests/transport/fuzz_datagram.c) can get here. */
static const struct dsm__tp_ops *be(void)
{
  return tp ? tp : &dsm__tp_udp_ops;
}

void dsm__tp_init(unsigned rank, unsigned size)
{
  DSM__ASSERT(!tp);
  const char *name = getenv("DSM_TRANSPORT");
  if (!name || !*name || !strcmp(name, "udp"))
    tp = &dsm__tp_udp_ops;
  else if (!strcmp(name, "verbs"))
    tp = &dsm__tp_verbs_ops;
  else
    dsm__fatal(DSM__EXIT_FATAL, "DSM_TRANSPORT='%s': the transport must be udp or verbs", name);
  for (unsigned t = 0; t < DSM__MSG_COUNT; t++)
    if (early[t])
      tp->handle(t, early[t]);
  tp->init(rank, size);
}

void dsm__tp_shutdown(void)
{
  if (tp)
    tp->shutdown();
}

void dsm__tp_handle(unsigned type, dsm__handler_t fn)
{
  DSM__ASSERT(type < DSM__MSG_COUNT);
  early[type] = fn;
  if (tp)
    tp->handle(type, fn);
}

void (*dsm__tp_first_use)(void);
int (*dsm__tp_stack_guard)(const void *addr);
void (*dsm__tp_msg_hook)(int dir, int kind, unsigned type, unsigned peer, unsigned origin,
                         uint64_t rid, size_t len, int on_svc);

static inline void first_use(void)
{
  if (dsm__tp_first_use)
    dsm__tp_first_use();
}

void dsm__tp_call_many(dsm__call_t *calls, unsigned n)
{
  first_use();
  be()->call_many(calls, n);
}

void dsm__tp_call_through(void (*call_many)(dsm__call_t *, unsigned), unsigned dst,
                          unsigned type, const void *req, size_t req_len, void **reply,
                          size_t *reply_len)
{
  dsm__call_t c = { dst, type, req, req_len, NULL, 0 };
  call_many(&c, 1);
  if (reply) *reply = c.reply; else free(c.reply);
  if (reply_len) *reply_len = c.reply_len;
}

void dsm__tp_call(unsigned dst, unsigned type, const void *req, size_t req_len, void **reply,
                  size_t *reply_len)
{
  dsm__tp_call_through(dsm__tp_call_many, dst, type, req, req_len, reply, reply_len);
}

void dsm__tp_call_overlap(unsigned dst, unsigned type, const void *req, size_t req_len,
                          void **reply, size_t *reply_len, void (*work)(void *), void *arg)
{
  first_use();
  dsm__call_t c = { dst, type, req, req_len, NULL, 0 };
  if (be()->call_overlap) {
    be()->call_overlap(&c, work, arg);
  } else {
    /* The work first: the same effect, without the overlap. */
    work(arg);
    be()->call_many(&c, 1);
  }
  if (reply) *reply = c.reply; else free(c.reply);
  if (reply_len) *reply_len = c.reply_len;
}

void dsm__tp_send(unsigned dst, unsigned type, const void *data, size_t len)
{
  be()->send(dst, type, dsm__tp_dup(data, len), len);
}

void dsm__tp_send_owned(unsigned dst, unsigned type, void *data, size_t len)
{
  be()->send(dst, type, data, len);
}

void dsm__tp_send_lazy(unsigned dst, unsigned type, const void *data, size_t len)
{
  uint8_t *copy = dsm__tp_dup(data, len);
  if (be()->send_lazy)
    be()->send_lazy(dst, type, copy, len);
  else
    be()->send(dst, type, copy, len);
}

uint8_t *dsm__tp_dup(const void *p, size_t n)
{
  if (!n) return NULL;
  uint8_t *b = malloc(n);
  DSM__ASSERT(b);
  memcpy(b, p, n);
  return b;
}

uint8_t *dsm__tp_gather(const void *const *bufs, const size_t *lens, unsigned n, size_t *len)
{
  size_t total = 0;
  for (unsigned i = 0; i < n; i++)
    total += lens[i];
  DSM__ASSERT(total <= DSM__TP_MAX_MSG);
  uint8_t *payload = total ? malloc(total) : NULL;
  DSM__ASSERT(payload || !total);
  for (size_t i = 0, off = 0; i < n; off += lens[i], i++)
    if (lens[i]) memcpy(payload + off, bufs[i], lens[i]);
  *len = total;
  return payload;
}

void dsm__tp_replyv(dsm__reqh_t h, const void *const *bufs, const size_t *lens, unsigned n)
{
  be()->replyv(h, bufs, lens, n);
}

void dsm__tp_reply(dsm__reqh_t h, const void *data, size_t len)
{
  dsm__tp_replyv(h, &data, &len, 1);
}

void dsm__tp_forward(dsm__reqh_t h, unsigned dst, const void *data, size_t len)
{
  be()->forward(h, dst, data, len);
}

void dsm__tp_broadcast_abort(const char *reason)
{
  /* From dsm__fatal, possibly before any backend was chosen. */
  if (tp)
    tp->broadcast_abort(reason);
}

/* Events before a backend exists (a job of one process has none): a plain
 * condition variable; nothing serves the network because there is none. */
static pthread_mutex_t ev_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ev_cv = PTHREAD_COND_INITIALIZER;

void dsm__tp_event_wait(dsm__tp_event_t *e)
{
  first_use();
  if (tp) {
    tp->event_wait(e);
    return;
  }
  pthread_mutex_lock(&ev_mu);
  while (!e->fired)
    pthread_cond_wait(&ev_cv, &ev_mu);
  e->fired = 0;
  pthread_mutex_unlock(&ev_mu);
}

void dsm__tp_event_fire(dsm__tp_event_t *e)
{
  if (tp) {
    tp->event_fire(e);
    return;
  }
  pthread_mutex_lock(&ev_mu);
  e->fired = 1;
  pthread_cond_broadcast(&ev_cv);
  pthread_mutex_unlock(&ev_mu);
}

int dsm__tp_can_read(void)
{
  return tp && tp->can_read && tp->can_read();
}

int dsm__tp_expose(void *addr, size_t len, dsm__rmem_t *out)
{
  return tp && tp->expose ? tp->expose(addr, len, out) : -1;
}

void dsm__tp_read_many(dsm__read_t *reads, unsigned n)
{
  DSM__ASSERT(dsm__tp_can_read() || !n);
  first_use();
  if (n)
    tp->read_many(reads, n);
}
