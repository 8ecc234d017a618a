/*
 * transport_verbs.c — transport.h over RDMA Reliable Connected queue pairs:
 * the backend's interface (transport_impl.h), and who serves the completion
 * queue. transport_verbs.h lists the other files and the layers.
 *
 * The completion queue (and requests to self) is served by the service
 * thread, except while a thread waits for an event: that thread takes it
 * over and handles what comes, handlers included, so the message that fires
 * its event needs no hand-off; the service thread parks meanwhile. Threads
 * post their own sends (under the mutex). A caller of call_many sleeps until
 * the server of the queue has its replies.
 *
 * Whoever serves the queue, when there is nothing to do, arms the CQ, polls
 * it once more (a completion that arrived between the last poll and the
 * arming raises no event and would otherwise sleep with us), and then blocks
 * in poll() on the completion channel's fd and its own eventfd
 * (transport_wait.c). It never spins.
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "transport_verbs.h"

struct dsm__verbs dsm__verbs = {
  .core = { .mu = PTHREAD_MUTEX_INITIALIZER, .run_mu = PTHREAD_MUTEX_INITIALIZER },
  .ctl_cv = PTHREAD_COND_INITIALIZER,
  .nrecv = 32,
  .nread = 8,
  .slot_sz = 8192,
  .use_read = 1,
};

void dsm__verbs_ctl_changed(void)
{
  if (V.ctl_waiting) {
    pthread_cond_broadcast(&V.ctl_cv);
    DSM__STAT_INC(wakeups);
  }
}

/* ---- serving the completion queue ---------------------------------------------------- */

/* One round as `me`: requests to self, then the completions queued.
 * Returns 1 if there was anything (look again before sleeping). */
static int serve_cq(struct dsm__tp_waiter *me)
{
  int work = 0;
  struct dsm__tp_local *l;
  while (V.role.owner == me && (l = dsm__tp_local_pop(&V.core))) {
    dsm__verbs_dispatch(V.self, l->kind, l->type, l->flags, l->origin, l->rid, l->data, l->len,
                        1);
    free(l);
    work = 1;
  }
  if (dsm__verbs_drain_cq(me))
    work = 1;
  return work || V.core.lq_head;
}

/* Arm the CQ and sleep until a completion event or a wake-up (unless a
 * completion slipped in before the arming took effect).
 *
 * Two threads can be in here at once for a moment: the service thread,
 * told to park, has not left its poll yet when a thread that waits for an
 * event takes the role, arms the CQ and polls the same channel. A
 * completion then makes one event, and if the service thread reads it, the
 * new owner sleeps on with the completion queued and the CQ disarmed (the
 * job hung at its first barrier over verbs). So whoever reads an event
 * without owning the role wakes the owner, which drains the queue. */
static void sleep_on_cq(struct dsm__tp_waiter *me)
{
  if (ibv_req_notify_cq(V.cq, 0))
    dsm__fatal(DSM__EXIT_FATAL, "ibv_req_notify_cq failed");
  if (dsm__verbs_drain_cq(me))
    return;
  struct pollfd fds[2];
  fds[1] = (struct pollfd){ V.chan->fd, POLLIN, 0 };
  if (dsm__tp_sleep(&V.core, me, fds, 2, UINT64_MAX) > 0 && (fds[1].revents & POLLIN)) {
    struct ibv_cq *ev_cq;
    void *ev_ctx;
    if (!IBV.get_cq_event(V.chan, &ev_cq, &ev_ctx))
      IBV.ack_cq_events(ev_cq, 1);
    if (V.role.owner && V.role.owner != me)
      dsm__tp_wake(V.role.owner);
  }
}

static void *service(void *arg)
{
  (void)arg;
  struct dsm__tp_waiter *me = &V.core.svc_w;
  pthread_mutex_lock(&V.core.mu);
  while (!V.core.svc_stop) {
    if (V.role.owner != me) {
      /* Parked: a thread waiting for an event serves the queue and wakes
       * us when it is done. */
      struct pollfd fd;
      dsm__tp_sleep(&V.core, me, &fd, 1, UINT64_MAX);
      continue;
    }
    if (serve_cq(me) || V.core.svc_stop || V.role.owner != me)
      continue;
    sleep_on_cq(me);
  }
  pthread_mutex_unlock(&V.core.mu);
  return NULL;
}

void dsm__verbs_service_start(void)
{
  V.role.owner = &V.core.svc_w;
  dsm__tp_service_start(&V.core, service);
}

void dsm__verbs_service_stop(void)
{
  dsm__tp_service_stop(&V.core);
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
  struct dsm__tp_waiter me;
  dsm__tp_waiter_init(&me);
  unsigned left = n;
  pthread_mutex_lock(&V.core.mu);
  DSM__ASSERT(V.core.svc_running);
  for (unsigned i = 0; i < n; i++) {
    DSM__ASSERT(cs[i].req_len <= DSM__TP_MAX_MSG);
    dsm__tp_call_add(&V.core, &c[i], cs[i].dst, cs[i].type, &left, &me);
    if (cs[i].dst != V.self) {
      DSM__STAT_MSG(sent, cs[i].type, cs[i].req_len);
      DSM__STAT_REQ(cs[i].type);
    }
    dsm__verbs_enqueue(cs[i].dst, V_REQ, cs[i].type, 0, V.self, c[i].rid,
                       dsm__tp_dup(cs[i].req, cs[i].req_len), cs[i].req_len);
  }
  uint64_t t0 = dsm__now_ns();
  while (left) {
    struct pollfd fd;
    dsm__tp_sleep(&V.core, &me, &fd, 1, UINT64_MAX);
  }
  dsm__blocked_since(t0);
  for (unsigned i = 0; i < n; i++)
    dsm__tp_call_remove(&V.core, &c[i]);
  pthread_mutex_unlock(&V.core.mu);
  for (unsigned i = 0; i < n; i++) {
    cs[i].reply = c[i].reply;
    cs[i].reply_len = c[i].reply_len;
  }
  free(c);
}

static void v_event_wait(dsm__tp_event_t *e)
{
  DSM__ASSERT(!V.core.svc_running || !pthread_equal(pthread_self(), V.core.svc));
  pthread_mutex_lock(&V.core.mu);
  if (!e->fired) {
    struct dsm__tp_waiter me;
    dsm__tp_waiter_init(&me);
    DSM__ASSERT(!e->waiter);
    e->waiter = &me;
    if (!V.role.owner || V.role.owner == &V.core.svc_w) {
      V.role.owner = &me;
      dsm__tp_wake(&V.core.svc_w);     /* it parks */
    } else {
      dsm__tp_role_enqueue(&V.role, &me);
    }
    while (!e->fired) {
      if (V.role.owner != &me) {
        struct pollfd fd;
        dsm__tp_sleep(&V.core, &me, &fd, 1, UINT64_MAX);
      } else if (!serve_cq(&me) && !e->fired) {
        sleep_on_cq(&me);
      }
    }
    e->waiter = NULL;
    if (V.role.owner == &me)
      dsm__tp_role_pass(&V.role, &V.core.svc_w);
    else
      dsm__tp_role_dequeue(&V.role, &me);
  }
  e->fired = 0;
  pthread_mutex_unlock(&V.core.mu);
}

static void v_event_fire(dsm__tp_event_t *e)
{
  pthread_mutex_lock(&V.core.mu);
  e->fired = 1;
  dsm__tp_wake(e->waiter);
  pthread_mutex_unlock(&V.core.mu);
}

static void v_send(unsigned dst, unsigned type, void *data, size_t len)
{
  DSM__ASSERT(dst < V.nprocs && type < DSM__MSG_COUNT && len <= DSM__TP_MAX_MSG);
  pthread_mutex_lock(&V.core.mu);
  DSM__ASSERT(V.core.svc_running);
  V.oneways_out++;
  if (dst != V.self) {
    DSM__STAT_MSG(sent, type, len);
    DSM__STAT_REQ(type);
  }
  dsm__verbs_enqueue(dst, V_REQ, type, F_ONEWAY, V.self, V.core.next_rid++, data, len);
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
  v_forward, v_abort, v_event_wait, v_event_fire,
  dsm__verbs_can_read, dsm__verbs_expose, dsm__verbs_read_many,
};
