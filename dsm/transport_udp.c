/*
 * transport_udp.c — transport.h over UDP: the backend's interface
 * (transport_impl.h) and its service thread. transport_udp.h lists the
 * other files of the backend.
 *
 * Threads: one service thread polls the socket, the launcher's lifeline and
 * a wake-up eventfd, with a timeout equal to the next retransmission
 * deadline. It reassembles messages, runs handlers (without the lock held)
 * and retransmits. Application threads send the first datagrams of their
 * requests themselves and then sleep on a condition variable until the
 * service thread has the replies.
 *
 * What this backend does not do: congestion control beyond a fixed window,
 * and path MTU discovery (fragments toward non-loopback peers are small
 * enough for any Ethernet).
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "transport_udp.h"

struct dsm__udp dsm__udp = {
  .core = { .mu = PTHREAD_MUTEX_INITIALIZER, .call_cv = PTHREAD_COND_INITIALIZER },
  .ctl_cv = PTHREAD_COND_INITIALIZER,
  .sock = -1, .wake_fd = -1, .lifeline = -1,
  .rto_min = 10 * MS,
  .window_bytes = WINDOW_BYTES,
};

/* ---- the service thread ------------------------------------------------------- */

void dsm__udp_wake_service(uint64_t deadline)
{
  if (U.svc_sleeping && deadline < U.svc_deadline && U.wake_fd >= 0) {
    dsm__tp_poke(U.wake_fd);
    U.svc_sleeping = 0;
  }
}

/* Sleep in poll until a datagram, a wake-up or the deadline (mu held on
 * entry and return, released while asleep). */
static void sleep_until(uint64_t next, uint64_t now)
{
  U.svc_deadline = next;
  U.svc_sleeping = 1;
  pthread_mutex_unlock(&U.core.mu);
  struct pollfd fds[3] = { { U.wake_fd, POLLIN, 0 }, { U.sock, POLLIN, 0 },
                           { U.lifeline, POLLIN, 0 } };
  uint64_t wait = next > now ? next - now : 0;
  struct timespec ts = { (time_t)(wait / 1000000000u), (long)(wait % 1000000000u) };
  int r = ppoll(fds, U.lifeline >= 0 ? 3 : 2, &ts, NULL);
  pthread_mutex_lock(&U.core.mu);
  U.svc_sleeping = 0;
  if (r < 0)
    return;
  if (fds[0].revents & POLLIN)
    dsm__tp_unpoke(U.wake_fd);
  if (U.lifeline >= 0 && fds[2].revents) {
    char c[64];
    ssize_t rd = (fds[2].revents & POLLIN) ? read(U.lifeline, c, sizeof c) : 0;
    if (fds[2].revents & POLLNVAL)
      U.lifeline = -1;
    else if (rd == 0 || (fds[2].revents & (POLLHUP | POLLERR)))
      dsm__fatal(DSM__EXIT_PEER_LOST, "launcher went away");
  }
  /* Datagrams are read at the top of the loop. */
}

static void *service(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&U.core.mu);
  for (;;) {
    if (U.core.svc_stop)
      break;
    dsm__udp_run_local();
    /* Read everything queued before looking at timers: an ACK waiting in
     * the socket must not let a retransmission timer fire spuriously. */
    int backlog = dsm__udp_recv_queued(4096) == 4096;
    if (U.core.svc_stop)
      break;
    if (backlog || U.core.lq_head)
      continue;    /* still busy: timers wait until the queue is empty */
    uint64_t now = dsm__now_ns(), next = now + 1000 * MS;
    dsm__udp_keepalive(now, &next);
    next = dsm__udp_timers_run(now, next);
    now = dsm__now_ns();
    if (U.core.lq_head || U.core.svc_stop)
      continue;
    sleep_until(next, now);
  }
  pthread_mutex_unlock(&U.core.mu);
  return NULL;
}

void dsm__udp_service_start(void)
{
  dsm__tp_service_start(&U.core, service);
}

void dsm__udp_service_stop(void)
{
  pthread_mutex_lock(&U.core.mu);
  U.shutting_down = 2;
  pthread_mutex_unlock(&U.core.mu);
  dsm__tp_service_stop(&U.core, U.wake_fd);
}

/* ---- the interface ---------------------------------------------------------------- */

void dsm__udp_handle(unsigned type, dsm__handler_t fn)
{
  dsm__tp_core_handle(&U.core, type, fn);
}

void dsm__udp_call_many(dsm__call_t *cs, unsigned n)
{
  if (!n) return;
  struct call *c = calloc(n, sizeof *c);
  DSM__ASSERT(c);
  /* A handler that waits for a reply would stop the thread that delivers it. */
  DSM__ASSERT(!U.core.svc_running || !pthread_equal(pthread_self(), U.core.svc));
  unsigned left = n;
  pthread_mutex_lock(&U.core.mu);
  DSM__ASSERT(U.core.svc_running);
  for (unsigned i = 0; i < n; i++)
    dsm__udp_call_start(&c[i], cs[i].dst, cs[i].type, cs[i].req, cs[i].req_len, &left);
  dsm__tp_calls_wait(&U.core, &left);
  for (unsigned i = 0; i < n; i++) {
    dsm__tp_call_remove(&U.core, &c[i].c);
    cs[i].reply = c[i].c.reply;
    cs[i].reply_len = c[i].c.reply_len;
  }
  pthread_mutex_unlock(&U.core.mu);
  free(c);
}

void dsm__udp_call(unsigned dst, unsigned type, const void *req, size_t req_len, void **reply,
                   size_t *reply_len)
{
  dsm__tp_call_through(dsm__udp_call_many, dst, type, req, req_len, reply, reply_len);
}

void dsm__udp_send(unsigned dst, unsigned type, const void *data, size_t len)
{
  DSM__ASSERT(dst < U.nprocs && type < DSM__MSG_COUNT && len <= DSM__TP_MAX_MSG);
  pthread_mutex_lock(&U.core.mu);
  DSM__ASSERT(U.core.svc_running);
  dsm__udp_send_oneway_locked(dst, type, data, len);
  pthread_mutex_unlock(&U.core.mu);
}

void dsm__udp_replyv(dsm__reqh_t h, const void *const *bufs, const size_t *lens, unsigned n)
{
  size_t len;
  uint8_t *payload = dsm__tp_gather(bufs, lens, n, &len);
  pthread_mutex_lock(&U.core.mu);
  struct dsm__tp_cache *cache = &U.core.cache;
  struct dsm__tp_centry *e = dsm__tp_cache_settle(cache, h, 0);
  dsm__tp_cache_drop_payload(cache, e);   /* a forwarded-to-self request's copy */
  e->state = DSM__TP_ANSWERED;
  if (e->oneway) {
    free(payload);
  } else {
    dsm__tp_cache_keep(cache, e, payload, len);
    if (h.origin != U.self)
      DSM__STAT_MSG(sent, h.type, len);
    dsm__udp_reply_transmit(e);
    if (h.origin == U.self)
      dsm__tp_cache_drop_payload(cache, e);   /* no duplicates without a network */
    dsm__tp_cache_enforce_cap(cache);
  }
  pthread_mutex_unlock(&U.core.mu);
}

void dsm__udp_reply(dsm__reqh_t h, const void *data, size_t len)
{
  dsm__udp_replyv(h, &data, &len, 1);
}

void dsm__udp_forward(dsm__reqh_t h, unsigned dst, const void *data, size_t len)
{
  DSM__ASSERT(dst < U.nprocs && len <= DSM__TP_MAX_MSG);
  uint8_t *payload = dsm__tp_dup(data, len);
  pthread_mutex_lock(&U.core.mu);
  struct dsm__tp_cache *cache = &U.core.cache;
  struct dsm__tp_centry *e = dsm__tp_cache_settle(cache, h, 1);
  dsm__tp_cache_drop_payload(cache, e);
  e->state = DSM__TP_FORWARDED;
  e->fwd_dst = dst;
  dsm__tp_cache_keep(cache, e, payload, len);
  if (dst != U.self)
    DSM__STAT_MSG(sent, h.type, len);
  dsm__udp_forward_transmit(e, 0);
  dsm__tp_cache_enforce_cap(cache);
  pthread_mutex_unlock(&U.core.mu);
}

void dsm__udp_broadcast_abort(const char *reason)
{
  /* Called from dsm__fatal, possibly with mu held by this very thread: touch
   * only the socket and the address table, which no longer change. */
  if (U.sock < 0 || !U.peers || !dsm__peers_known)
    return;
  size_t n = strlen(reason);
  if (n > ABORT_MAX) n = ABORT_MAX;
  for (int copy = 0; copy < 2; copy++)
    for (unsigned r = 0; r < U.nprocs; r++)
      if (r != U.self && U.peers[r].known) {
        struct hdr h = dsm__udp_hdr_make(K_ABORT, DSM__MSG_ABORT, 0, r, U.self, 0);
        dsm__udp_send_dgram(r, &h, reason, n, 0);
      }
}

const struct dsm__tp_ops dsm__tp_udp_ops = {
  "udp", dsm__udp_init, dsm__udp_shutdown, dsm__udp_handle, dsm__udp_call_many, dsm__udp_send,
  dsm__udp_replyv, dsm__udp_forward, dsm__udp_broadcast_abort,
  NULL, NULL, NULL,   /* no one-sided reads over UDP */
};
