/*
 * transport_core.c — the request/reply model of transport.h, apart from
 * any network (transport_core.h): handlers and their delivery, request ids
 * and the calls that wait for replies, and requests a process sends itself.
 *
 * Called with the owning backend's mu held unless said otherwise.
 */
#include <errno.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "transport_core.h"

void dsm__tp_core_init(struct dsm__tp_core *co, unsigned self, unsigned nprocs,
                       void (*drop_tx)(void *tx))
{
  co->self = self;
  co->nprocs = nprocs;
  co->next_rid = 1;
  dsm__tp_cache_init(&co->cache, nprocs, drop_tx);
}

void dsm__tp_core_handle(struct dsm__tp_core *co, unsigned type, dsm__handler_t fn)
{
  DSM__ASSERT(type < DSM__MSG_COUNT);
  co->handlers[type] = fn;
}

/* ---- delivery -------------------------------------------------------------------- */

void dsm__tp_run_handler(struct dsm__tp_core *co, unsigned origin, unsigned from,
                         unsigned type, uint64_t rid, const void *data, size_t len, void **keep)
{
  dsm__handler_t fn = co->handlers[type];
  if (!fn)
    dsm__fatal(DSM__EXIT_FATAL, "rank %u sent a %s request, which has no handler", from,
               dsm__msg_name(type));
  if (from != co->self)
    DSM__STAT_MSG(recv, type, len);
  dsm__msg_t m = { origin, from, type, rid, data, len, keep };
  pthread_mutex_unlock(&co->mu);
  pthread_mutex_lock(&co->run_mu);
  fn(&m);
  pthread_mutex_unlock(&co->run_mu);
  pthread_mutex_lock(&co->mu);
}

/* ---- calls ------------------------------------------------------------------------ */

void dsm__tp_call_add(struct dsm__tp_core *co, struct dsm__tp_call *c, unsigned dst,
                      unsigned type, unsigned *left, struct dsm__tp_waiter *w)
{
  DSM__ASSERT(dst < co->nprocs && type < DSM__MSG_COUNT);
  c->rid = co->next_rid++;
  c->dst = dst;
  c->type = type;
  c->left = left;
  c->w = w;
  c->next = co->calls;
  co->calls = c;
}

struct dsm__tp_call *dsm__tp_call_find(struct dsm__tp_core *co, uint64_t rid)
{
  for (struct dsm__tp_call *c = co->calls; c; c = c->next)
    if (c->rid == rid)
      return c;
  return NULL;
}

void dsm__tp_call_finish(struct dsm__tp_core *co, struct dsm__tp_call *c, uint8_t *reply,
                         size_t len)
{
  DSM__ASSERT(!c->done);
  c->done = 1;
  c->reply = reply;
  c->reply_len = len;
  if (!--*c->left)
    dsm__tp_wake(c->w);
}

void dsm__tp_call_remove(struct dsm__tp_core *co, struct dsm__tp_call *c)
{
  for (struct dsm__tp_call **pp = &co->calls; *pp; pp = &(*pp)->next)
    if (*pp == c) {
      *pp = c->next;
      return;
    }
}

/* ---- the service thread -------------------------------------------------------------- */

/* The service thread asks for a short scheduler slice (util.c says why)
 * before dsm__tp_service_start returns, so that the slice is in place when
 * the first request comes (and when a test looks).
 *
 * It reads its function before it lets the starter go: the verbs backend
 * starts the UDP core's service thread and then its own, through these
 * same two variables, and a UDP thread that read svc_fn after its
 * sem_post could find the verbs function there. Two verbs service threads
 * then ran and none served UDP, and the job hung at exit joining one of
 * them (about one run in twenty of mpirun spmd verbs n=3 with the CPUs
 * busy). */
static void *(*svc_fn)(void *);
static sem_t svc_sliced;

static void *svc_main(void *arg)
{
  void *(*fn)(void *) = svc_fn;
  dsm__short_slice();
  sem_post(&svc_sliced);
  return fn(arg);
}

void dsm__tp_service_start(struct dsm__tp_core *co, void *(*fn)(void *))
{
  /* Under mu: the thread starts by taking it, and finds itself described. */
  pthread_mutex_lock(&co->mu);
  memset(&co->svc_w, 0, sizeof co->svc_w);
  co->svc_w.fd = dsm__tp_eventfd();
  co->svc_w.until = UINT64_MAX;
  svc_fn = fn;
  sem_init(&svc_sliced, 0, 0);
  if (pthread_create(&co->svc, NULL, svc_main, NULL))
    dsm__fatal(DSM__EXIT_FATAL, "cannot start the service thread");
  while (sem_wait(&svc_sliced) != 0 && errno == EINTR) {}
  co->svc_w.thread = co->svc;
  co->svc_running = 1;
  pthread_mutex_unlock(&co->mu);
}

void dsm__tp_service_stop(struct dsm__tp_core *co)
{
  pthread_mutex_lock(&co->mu);
  co->svc_stop = 1;
  dsm__tp_wake(&co->svc_w);     /* however it sleeps (it checks svc_stop first) */
  pthread_mutex_unlock(&co->mu);
  pthread_join(co->svc, NULL);
  co->svc_running = 0;
  close(co->svc_w.fd);
}

/* ---- requests to self --------------------------------------------------------------- */

void dsm__tp_local_push(struct dsm__tp_core *co, const struct dsm__tp_local *tmpl)
{
  struct dsm__tp_local *l = malloc(sizeof *l);
  DSM__ASSERT(l);
  *l = *tmpl;
  l->next = NULL;
  if (co->lq_tail) co->lq_tail->next = l; else co->lq_head = l;
  co->lq_tail = l;
}

struct dsm__tp_local *dsm__tp_local_pop(struct dsm__tp_core *co)
{
  struct dsm__tp_local *l = co->lq_head;
  if (l) {
    co->lq_head = l->next;
    if (!co->lq_head) co->lq_tail = NULL;
  }
  return l;
}
