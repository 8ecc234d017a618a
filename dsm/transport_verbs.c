/*
 * transport_verbs.c — transport.h over RDMA Reliable Connected queue pairs:
 * the backend's interface (transport_impl.h) and its service thread.
 * transport_verbs.h lists the other files and the layers.
 *
 * The service thread handles completions; application threads post sends
 * themselves (under the mutex) and sleep on condition variables. When
 * there is nothing to do, the service thread arms the CQ, polls it once
 * more (a completion that arrived between the last poll and the arming
 * raises no event and would otherwise sleep with us), and then blocks in
 * poll() on the completion channel's fd and an eventfd that other threads
 * use to wake it. It never spins.
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "transport_verbs.h"

struct dsm__verbs dsm__verbs = {
  .core = { .mu = PTHREAD_MUTEX_INITIALIZER, .call_cv = PTHREAD_COND_INITIALIZER },
  .ctl_cv = PTHREAD_COND_INITIALIZER,
  .wake_fd = -1,
  .nrecv = 32,
  .nread = 8,
  .slot_sz = 8192,
  .use_read = 1,
};

/* ---- the service thread ---------------------------------------------------------- */

/* Block until a completion event or a wake-up (mu held on entry and return). */
static void sleep_on_channel(void)
{
  pthread_mutex_unlock(&V.core.mu);
  struct pollfd fds[2] = { { V.wake_fd, POLLIN, 0 }, { V.chan->fd, POLLIN, 0 } };
  int r = poll(fds, 2, -1);
  pthread_mutex_lock(&V.core.mu);
  if (r < 0)
    return;
  if (fds[0].revents & POLLIN)
    dsm__tp_unpoke(V.wake_fd);
  if (fds[1].revents & POLLIN) {
    struct ibv_cq *ev_cq;
    void *ev_ctx;
    if (!IBV.get_cq_event(V.chan, &ev_cq, &ev_ctx))
      IBV.ack_cq_events(ev_cq, 1);
  }
}

static void *service(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&V.core.mu);
  while (!V.core.svc_stop) {
    int work = 0;
    struct dsm__tp_local *l;
    while ((l = dsm__tp_local_pop(&V.core))) {
      dsm__verbs_dispatch(V.self, l->kind, l->type, l->flags, l->origin, l->rid, l->data, l->len,
                          1);
      free(l);
      work = 1;
    }
    if (dsm__verbs_drain_cq())
      work = 1;
    if (work || V.core.lq_head || V.core.svc_stop)
      continue;
    /* Arm, then look again: a completion that arrived between the last poll
     * and the arming raises no event, and would otherwise sleep with us. */
    if (ibv_req_notify_cq(V.cq, 0))
      dsm__fatal(DSM__EXIT_FATAL, "ibv_req_notify_cq failed");
    if (dsm__verbs_drain_cq())
      continue;
    sleep_on_channel();
  }
  pthread_mutex_unlock(&V.core.mu);
  return NULL;
}

void dsm__verbs_service_start(void)
{
  dsm__tp_service_start(&V.core, service);
}

void dsm__verbs_service_stop(void)
{
  dsm__tp_service_stop(&V.core, V.wake_fd);
}

/* ---- the interface ---------------------------------------------------------------- */

static void v_handle(unsigned type, dsm__handler_t fn)
{
  dsm__tp_core_handle(&V.core, type, fn);
}

static void v_call_many(dsm__call_t *cs, unsigned n)
{
  if (!n) return;
  DSM__ASSERT(!V.core.svc_running || !pthread_equal(pthread_self(), V.core.svc));
  struct dsm__tp_call *c = calloc(n, sizeof *c);
  DSM__ASSERT(c);
  unsigned left = n;
  pthread_mutex_lock(&V.core.mu);
  DSM__ASSERT(V.core.svc_running);
  for (unsigned i = 0; i < n; i++) {
    DSM__ASSERT(cs[i].req_len <= DSM__TP_MAX_MSG);
    dsm__tp_call_add(&V.core, &c[i], cs[i].dst, cs[i].type, &left);
    if (cs[i].dst != V.self)
      DSM__STAT_MSG(sent, cs[i].type, cs[i].req_len);
    dsm__verbs_enqueue(cs[i].dst, V_REQ, cs[i].type, 0, V.self, c[i].rid,
                       dsm__tp_dup(cs[i].req, cs[i].req_len), cs[i].req_len);
  }
  dsm__tp_calls_wait(&V.core, &left);
  for (unsigned i = 0; i < n; i++)
    dsm__tp_call_remove(&V.core, &c[i]);
  pthread_mutex_unlock(&V.core.mu);
  for (unsigned i = 0; i < n; i++) {
    cs[i].reply = c[i].reply;
    cs[i].reply_len = c[i].reply_len;
  }
  free(c);
}

static void v_send(unsigned dst, unsigned type, const void *data, size_t len)
{
  DSM__ASSERT(dst < V.nprocs && type < DSM__MSG_COUNT && len <= DSM__TP_MAX_MSG);
  pthread_mutex_lock(&V.core.mu);
  DSM__ASSERT(V.core.svc_running);
  V.oneways_out++;
  if (dst != V.self)
    DSM__STAT_MSG(sent, type, len);
  dsm__verbs_enqueue(dst, V_REQ, type, F_ONEWAY, V.self, V.core.next_rid++,
                     dsm__tp_dup(data, len), len);
  pthread_mutex_unlock(&V.core.mu);
}

static void v_replyv(dsm__reqh_t h, const void *const *bufs, const size_t *lens, unsigned n)
{
  size_t len;
  uint8_t *payload = dsm__tp_gather(bufs, lens, n, &len);
  pthread_mutex_lock(&V.core.mu);
  struct dsm__tp_centry *e = dsm__tp_cache_settle(&V.core.cache, h, 0);
  int oneway = e->oneway;
  dsm__tp_cache_remove(&V.core.cache, e);
  if (oneway) {
    /* A one-way has no reply; answering it only marks it done. */
    free(payload);
    dsm__verbs_enqueue(h.origin, V_ACK, h.type, 0, h.origin, h.rid, NULL, 0);
  } else {
    if (h.origin != V.self)
      DSM__STAT_MSG(sent, h.type, len);
    dsm__verbs_enqueue(h.origin, V_REP, h.type, 0, h.origin, h.rid, payload, len);
  }
  pthread_mutex_unlock(&V.core.mu);
}

static void v_forward(dsm__reqh_t h, unsigned dst, const void *data, size_t len)
{
  DSM__ASSERT(dst < V.nprocs && len <= DSM__TP_MAX_MSG);
  uint8_t *payload = dsm__tp_dup(data, len);
  pthread_mutex_lock(&V.core.mu);
  struct dsm__tp_centry *e = dsm__tp_cache_settle(&V.core.cache, h, 1);
  int oneway = e->oneway;
  dsm__tp_cache_remove(&V.core.cache, e);
  if (dst != V.self)
    DSM__STAT_MSG(sent, h.type, len);
  dsm__verbs_enqueue(dst, V_REQ, h.type, oneway ? F_ONEWAY : 0, h.origin, h.rid, payload, len);
  pthread_mutex_unlock(&V.core.mu);
}

static void v_abort(const char *reason)
{
  /* Job control stays on UDP, which every rank still listens to. */
  dsm__udp_broadcast_abort(reason);
}

const struct dsm__tp_ops dsm__tp_verbs_ops = {
  "verbs", dsm__verbs_init, dsm__verbs_shutdown, v_handle, v_call_many, v_send, v_replyv,
  v_forward, v_abort, dsm__verbs_can_read, dsm__verbs_expose, dsm__verbs_read_many,
};
