/*
 * transport_udp.c — transport.h over UDP: the backend's interface
 * (transport_impl.h), and who serves which socket. transport_udp.h lists
 * the other files of the backend.
 *
 * Threads. The service socket is served by the service thread, except while
 * a thread waits for an event (dsm__tp_event_wait): that thread takes the
 * socket over and runs the handlers itself, and the service thread parks,
 * watching only the launcher's lifeline. So the request that fires an event
 * (a barrier's last arrival, a FORK, a JOIN, a lock's TOKEN) is received and
 * handled by the thread waiting for it. The reply socket is read only by a
 * thread waiting in dsm__tp_call_many, which also runs its calls'
 * retransmission timers: a reply wakes the thread that waits for it, and the
 * service thread never wakes for replies or their timers. A call to the
 * caller's own rank runs its handler on the calling thread.
 *
 * Each socket's reader sleeps until a datagram, its next retransmission
 * deadline or a poke of its own eventfd (the only way one thread wakes
 * another: transport_wait.c). Nothing spins.
 *
 * The service thread sleeps in epoll_wait, and an event wait takes the
 * socket over without waking it: the waiter sets the service thread's epoll
 * entries for the socket and the timer to watch nothing, and back when it
 * is done (EPOLL_CTL_MOD). If a datagram or the timer is ready by then, the service thread
 * wakes for it, as it would have had the socket never left; if not, it
 * sleeps on. It used to sleep in a blocking receive, which only a datagram
 * could interrupt, so every event wait cost it two wake-ups (one to park,
 * one to come back): on this VM ~40 us of CPU each, often on the other vCPU
 * where they preempted the other rank's application (the stencil's barrier
 * manager made 1,177 of them in 500 barriers). Two epoll_ctl calls cost
 * ~2 us; the price is one system call more per wake-up of the service
 * thread (epoll_wait, then a non-blocking recvmmsg).
 *
 * What this backend does not do: congestion control beyond a fixed window,
 * and path MTU discovery (fragments toward non-loopback peers are small
 * enough for any Ethernet).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "transport_udp.h"

struct dsm__udp dsm__udp = {
  .core = { .mu = PTHREAD_MUTEX_INITIALIZER, .run_mu = PTHREAD_MUTEX_INITIALIZER },
  .ctl_cv = PTHREAD_COND_INITIALIZER,
  .sock = { -1, -1 }, .lifeline = -1, .tfd = -1, .tfd_armed = UINT64_MAX,
  .rto_min = 10 * MS,
  .window_bytes = WINDOW_BYTES,
};

static int may_run_handlers_here(void)
{
  return !dsm__tp_stack_guard || dsm__tp_stack_guard(__builtin_frame_address(0));
}

static void arm_timer(uint64_t deadline)
{
  U.tfd_stale = 0;
  if (deadline == U.tfd_armed || U.tfd < 0)
    return;
  struct itimerspec its = { { 0, 0 }, { (time_t)(deadline / 1000000000u),
                                        (long)(deadline % 1000000000u) } };
  if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
    its.it_value.tv_nsec = 1;   /* zero would disarm it */
  timerfd_settime(U.tfd, TFD_TIMER_ABSTIME, &its, NULL);
  U.tfd_armed = deadline;
}

void dsm__udp_tfd_dropped(uint64_t deadline)
{
  if (U.tfd_armed != UINT64_MAX && deadline <= U.tfd_armed)
    U.tfd_stale = 1;
}

/* The next of the SVC deadlines: timers, held ACKs, keepalives, and at
 * most a second away, as svc_timers would return it (running nothing). */
static uint64_t svc_next(void)
{
  uint64_t next = dsm__now_ns() + 1000 * MS, t;
  if ((t = dsm__udp_timers_next(SVC)) < next) next = t;
  if ((t = dsm__udp_acks_next()) < next) next = t;
  if ((t = dsm__udp_keepalive_next()) < next) next = t;
  return next;
}

void dsm__udp_wake_role(int which, uint64_t deadline)
{
  struct dsm__tp_waiter *o = U.role[which].owner;
  if (which == SVC && deadline) {
    /* Whoever serves the service socket sleeps on the timer too. A stale
     * timer is moved to the real next deadline, later or not: one system
     * call instead of a wake-up of the server for nothing. */
    if (U.tfd_stale) {
      uint64_t next = svc_next();
      arm_timer(deadline < next ? deadline : next);
    } else if (deadline < U.tfd_armed) {
      arm_timer(deadline);
    }
    return;
  }
  dsm__tp_wake_before(o, deadline);
}

void dsm__udp_ctl_changed(void)
{
  if (U.ctl_waiting) {
    pthread_cond_broadcast(&U.ctl_cv);
    DSM__STAT_INC(wakeups);
  }
}

void dsm__udp_ctl_wait(const struct timespec *until)
{
  U.ctl_waiting++;
  if (until)
    pthread_cond_timedwait(&U.ctl_cv, &U.core.mu, until);
  else
    pthread_cond_wait(&U.ctl_cv, &U.core.mu);
  U.ctl_waiting--;
}

/* ---- serving the sockets ---------------------------------------------------------- */

/* Datagrams read in one go before timers and requests to self get a turn. */
#define BACKLOG 4096

/* The service socket's keepalives, timers and held ACKs that are due run,
 * as its server; returns the next deadline among them. */
static uint64_t svc_timers(void)
{
  uint64_t now = dsm__now_ns(), next = now + 1000 * MS;
  dsm__udp_keepalive(now, &next);
  next = dsm__udp_timers_run(SVC, now, next);
  return dsm__udp_acks_run(now, next);
}

/* One round of serving the service socket as `me`: requests to self, what
 * is queued on the socket (unless `read` is 0: it was empty when the caller
 * last looked), and when that is all, keepalives and timers (after the socket, so an
 * ACK waiting there never lets a timer fire spuriously). Returns the
 * deadline to sleep until, or 0 when there is more to do at once or the
 * socket went to another thread. */
static uint64_t serve_svc(struct dsm__tp_waiter *me, int read)
{
  dsm__udp_run_local(me);
  dsm__udp_lazy_run(me);
  int backlog = read && dsm__udp_recv_queued(SVC, me, BACKLOG) >= BACKLOG;
  if (U.core.svc_stop || U.role[SVC].owner != me || backlog || U.core.lq_head ||
      dsm__udp_lazy_waiting())
    return 0;
  uint64_t next = svc_timers();
  if (U.core.lq_head || dsm__udp_lazy_waiting() || U.role[SVC].owner != me)
    return 0;
  return next;
}

/* Read the replies queued, then run the calls' timers, as `me`, the reader
 * of the reply socket. Returns the next call deadline. */
static uint64_t serve_reply(struct dsm__tp_waiter *me)
{
  dsm__udp_recv_queued(REPLY, me, 1 << 30);
  uint64_t now = dsm__now_ns();
  return dsm__udp_timers_run(REPLY, now, now + 1000 * MS);
}

static void check_lifeline(const struct pollfd *pf)
{
  if (!pf->revents)
    return;
  char c[64];
  ssize_t rd = (pf->revents & POLLIN) ? read(U.lifeline, c, sizeof c) : 0;
  if (rd > 0)
    dsm__launcher_says(c, (size_t)rd);   /* dsmrun says why it stops the job */
  if (pf->revents & POLLNVAL)
    U.lifeline = -1;
  else if (rd == 0 || (rd < 0 && errno != EAGAIN && errno != EINTR) ||
           (rd < (ssize_t)sizeof c && (pf->revents & (POLLHUP | POLLERR))))
    dsm__launcher_gone();
}

/* The server of the service socket goes to sleep until `next`: the socket
 * and the timer join its poll set (fds[*n], fds[*n + 1]). */
static void svc_poll_set(struct pollfd *fds, unsigned *n, uint64_t next)
{
  /* Only ever sooner: a timer armed for later than needed costs a useless
   * wake-up at most, and re-arming on every round would cost a system
   * call each. */
  if (next < U.tfd_armed || U.tfd_stale)
    arm_timer(next);
  fds[(*n)++] = (struct pollfd){ U.sock[SVC], POLLIN, 0 };
  fds[(*n)++] = (struct pollfd){ U.tfd, POLLIN, 0 };
}

/* After the sleep: the timer fired (and is spent), or not. */
static void svc_timer_check(const struct pollfd *tfd)
{
  if (tfd->revents & POLLIN) {
    dsm__tp_unpoke(U.tfd);
    U.tfd_armed = UINT64_MAX;
    U.tfd_stale = 0;
  }
}

/* ---- the service thread's sleep ----------------------------------------------------- */

/* The service thread's epoll set: its eventfd and the lifeline, and the
 * service socket and the timer, watched only while it serves them. Made by
 * the service thread itself; only changed under mu. */
static int svc_ep = -1;
enum { EV_POKE, EV_SOCK, EV_TIMER, EV_LIFELINE };

static void svc_ep_ctl(int op, int fd, uint32_t tag, uint32_t events)
{
  if (fd < 0 || svc_ep < 0)
    return;
  struct epoll_event ev = { .events = events, .data.u32 = tag };
  if (epoll_ctl(svc_ep, op, fd, &ev) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "epoll_ctl: %s", strerror(errno));
}

/* The socket and its timer join the service thread's sleep (on) or leave
 * it; a sleeping service thread is not woken either way, unless one of
 * them is ready when it joins. They stay registered, watched for nothing
 * while away: a change of the events is cheaper than removing the entry
 * and adding it again, and an event wait makes two at each end. */
static void svc_watch(int on)
{
  uint32_t events = on ? EPOLLIN : 0;
  svc_ep_ctl(EPOLL_CTL_MOD, U.sock[SVC], EV_SOCK, events);
  svc_ep_ctl(EPOLL_CTL_MOD, U.tfd, EV_TIMER, events);
}

static void svc_ep_open(struct dsm__tp_waiter *me)
{
  svc_ep = epoll_create1(EPOLL_CLOEXEC);
  if (svc_ep < 0)
    dsm__fatal(DSM__EXIT_FATAL, "epoll_create1: %s", strerror(errno));
  svc_ep_ctl(EPOLL_CTL_ADD, me->fd, EV_POKE, EPOLLIN);
  svc_ep_ctl(EPOLL_CTL_ADD, U.lifeline, EV_LIFELINE, EPOLLIN);
  uint32_t events = U.role[SVC].owner == me ? EPOLLIN : 0;
  svc_ep_ctl(EPOLL_CTL_ADD, U.sock[SVC], EV_SOCK, events);
  svc_ep_ctl(EPOLL_CTL_ADD, U.tfd, EV_TIMER, events);
}

/* Sleep until a poke, the lifeline, or (while we serve them) a datagram or
 * the timer. Returns whether the socket should be read. */
static int svc_sleep(struct dsm__tp_waiter *me)
{
  struct epoll_event ev[4];
  me->asleep = 1;
  pthread_mutex_unlock(&U.core.mu);
  int n = epoll_wait(svc_ep, ev, 4, -1);
  pthread_mutex_lock(&U.core.mu);
  me->asleep = 0;
  int sock = 0;
  for (int i = 0; i < n; i++) {
    switch (ev[i].data.u32) {
    case EV_POKE:
      dsm__tp_unpoke(me->fd);
      break;
    case EV_SOCK:
      sock = 1;
      break;
    case EV_TIMER:
      /* Spent only by the socket's server: a thread that took the socket
       * over meanwhile sleeps on this expiry now. The socket is read
       * before the timers run, so that an ACK that came meanwhile does not
       * let one fire spuriously. */
      if (U.role[SVC].owner == me) {
        dsm__tp_unpoke(U.tfd);
        if (svc_next() > dsm__now_ns() + MS)
          DSM__STAT_INC(svc_idle_timer_wakes);
        U.tfd_armed = UINT64_MAX;
        U.tfd_stale = 0;
        sock = 1;
      }
      break;
    case EV_LIFELINE: {
      struct pollfd lf = { U.lifeline, POLLIN, (short)(ev[i].events & (POLLIN | POLLHUP | POLLERR)) };
      check_lifeline(&lf);
      break;
    }
    }
  }
  if (sock)
    DSM__STAT_INC(svc_net_wakes);
  return sock;
}

static void *service(void *arg)
{
  (void)arg;
  struct dsm__tp_waiter *me = &U.core.svc_w;
  int readable = 1;
  pthread_mutex_lock(&U.core.mu);
  svc_ep_open(me);
  while (!U.core.svc_stop) {
    /* While a thread waiting for an event serves the socket, the service
     * thread sleeps without it, watching the lifeline. */
    if (U.role[SVC].owner == me) {
      uint64_t next = serve_svc(me, readable);
      readable = 1;
      if (!next)
        continue;
      /* Only ever sooner: a timer armed for later than needed costs a
       * useless wake-up at most, and re-arming on every round would cost a
       * system call each. */
      if (next < U.tfd_armed || U.tfd_stale)
        arm_timer(next);
    }
    readable = svc_sleep(me);
  }
  close(svc_ep);
  svc_ep = -1;
  pthread_mutex_unlock(&U.core.mu);
  return NULL;
}

void dsm__udp_service_start(void)
{
  U.role[SVC].owner = &U.core.svc_w;
  dsm__tp_service_start(&U.core, service);
}

void dsm__udp_service_stop(void)
{
  pthread_mutex_lock(&U.core.mu);
  U.shutting_down = 2;
  pthread_mutex_unlock(&U.core.mu);
  dsm__tp_service_stop(&U.core);
}

/* ---- waiting for replies ------------------------------------------------------------- */

/* Until *left calls are answered: read the reply socket (and run the calls'
 * timers) if nobody else does, else wait for the reader to hand over. */
static void wait_calls(struct dsm__tp_waiter *me, const unsigned *left)
{
  struct dsm__tp_role *r = &U.role[REPLY];
  while (*left) {
    struct pollfd fds[1];
    if (!r->owner) {
      r->owner = me;
      dsm__tp_role_dequeue(r, me);
    }
    if (r->owner == me) {
      /* Timers after what came in: a reply waiting in the socket must not
       * let a timer fire spuriously. Right after sending, nothing is due. */
      uint64_t now = dsm__now_ns();
      uint64_t until = dsm__udp_timers_run(REPLY, now, now + 1000 * MS);
      if (!*left)
        break;
      dsm__udp_recv_block(REPLY, me, until, 1 << 30);
    } else {
      /* Another thread reads replies (a second caller, or one waiting for
       * an event): it finishes our calls and wakes us, or hands the socket
       * over when it is done. */
      dsm__tp_role_enqueue(r, me);
      dsm__tp_sleep(&U.core, me, fds, 1, UINT64_MAX);
    }
  }
  if (r->owner == me)
    dsm__tp_role_pass(r, NULL);
  else
    dsm__tp_role_dequeue(r, me);
}

static void serve_until(struct dsm__tp_waiter *me, int (*done)(const void *), const void *arg);
static int calls_done(const void *left) { return !*(const unsigned *)left; }

static void call_many_then(dsm__call_t *cs, unsigned n, void (*work)(void *), void *arg)
{
  if (!n) return;
  struct call *c = calloc(n, sizeof *c);
  DSM__ASSERT(c);
  /* A handler that waits for a reply would stop the thread that delivers it. */
  DSM__ASSERT(!U.core.svc_running || !pthread_equal(pthread_self(), U.core.svc));
  struct dsm__tp_waiter me;
  dsm__tp_waiter_init(&me);
  int inline_self = may_run_handlers_here();
  unsigned left = n;
  pthread_mutex_lock(&U.core.mu);
  DSM__ASSERT(U.core.svc_running);
  for (unsigned i = 0; i < n; i++)
    dsm__udp_call_start(&c[i], cs[i].dst, cs[i].type, cs[i].req, cs[i].req_len, &left, &me,
                        inline_self);
  /* Requests to ourselves: run here, now, rather than hand them to the
   * service thread and be woken by it. */
  for (unsigned i = 0; inline_self && i < n; i++)
    if (cs[i].dst == U.self && !c[i].c.done)
      dsm__udp_call_inline(&c[i], cs[i].req, cs[i].req_len);
  if (work) {
    /* No round-trip sample from these calls (Karn's rule, in effect): a
     * reply may wait in the socket while the work runs. */
    for (unsigned i = 0; i < n; i++)
      c[i].retransmitted = 1;
    /* The requests are out. A reply that comes meanwhile stays in the
     * socket (or, read by another thread's wait, completes its call and
     * the wake finds us awake: a no-op); wait_calls below finds it. No
     * timer of ours can be due yet: the work is shorter than a
     * retransmission floor, and a late one only resends. */
    pthread_mutex_unlock(&U.core.mu);
    work(arg);
    pthread_mutex_lock(&U.core.mu);
  }
  uint64_t t0 = dsm__now_ns();
  /* A call to ourselves that its handler left unanswered (a semaphore at
   * zero, a condition wait) is answered by a handler here when another
   * process's request comes: serve the network meanwhile, as an event wait
   * does, so that request wakes this thread, not the service thread which
   * would then have to wake this one. */
  int self_only = inline_self && left;
  for (unsigned i = 0; self_only && i < n; i++)
    if (!c[i].c.done && cs[i].dst != U.self)
      self_only = 0;
  if (self_only)
    serve_until(&me, calls_done, &left);
  else
    wait_calls(&me, &left);
  dsm__blocked_since(t0);
  for (unsigned i = 0; i < n; i++) {
    dsm__tp_call_remove(&U.core, &c[i].c);
    cs[i].reply = c[i].c.reply;
    cs[i].reply_len = c[i].c.reply_len;
  }
  pthread_mutex_unlock(&U.core.mu);
  free(c);
}

void dsm__udp_call_many(dsm__call_t *cs, unsigned n)
{
  call_many_then(cs, n, NULL, NULL);
}

void dsm__udp_call_overlap(dsm__call_t *c, void (*work)(void *), void *arg)
{
  call_many_then(c, 1, work, arg);
}

/* ---- events ------------------------------------------------------------------------------ */

/* Serve the network as `me` (U.core.mu held) until done(arg): take the
 * service socket over from the service thread, out of its sleep (it is not
 * woken; if it is awake, it finds the socket is not its own before it reads
 * it again), or queue for it behind another thread doing the same; the reply
 * socket too when no caller reads it. For a thread whose wait ends with a
 * request that another process sends: the request is received and handled
 * on the thread that needs it, with no hand-off. */
static void serve_until(struct dsm__tp_waiter *me, int (*done)(const void *), const void *arg)
{
  struct dsm__tp_role *s = &U.role[SVC], *r = &U.role[REPLY];
  if (!s->owner || s->owner == &U.core.svc_w) {
    s->owner = me;
    svc_watch(0);
  } else {
    dsm__tp_role_enqueue(s, me);
  }
  while (!done(arg)) {
    struct pollfd fds[4];
    unsigned n = 1, ti = 0;
    uint64_t until = UINT64_MAX;
    if (s->owner == me) {
      uint64_t next = serve_svc(me, 1);
      if (!next)
        continue;
      /* Replies too, when no caller reads them: a late duplicate or a
       * deferred reply's resend is acknowledged at once, and a lazy
       * one-way (a barrier arrival) is handled here. While a caller reads
       * them, it hands us the lazy ones, and the socket when it is done. */
      if (!r->owner) {
        r->owner = me;
        dsm__tp_role_dequeue(r, me);
      }
      if (r->owner == me) {
        until = serve_reply(me);
        fds[n++] = (struct pollfd){ U.sock[REPLY], POLLIN, 0 };
      } else {
        dsm__tp_role_enqueue(r, me);
      }
      if (done(arg))
        break;
      svc_poll_set(fds, &n, next);
      ti = n - 1;
    }
    if (dsm__tp_sleep(&U.core, me, fds, n, until) > 0 && ti)
      svc_timer_check(&fds[ti]);
  }
  if (r->owner == me)
    dsm__tp_role_pass(r, NULL);
  else
    dsm__tp_role_dequeue(r, me);
  if (s->owner == me) {
    if (s->queue) {
      dsm__tp_role_pass(s, NULL);    /* to the next thread waiting for an event */
    } else {
      /* Back to the service thread, asleep or not, with the timer set to
       * the next deadline as it is now, later ones too: what we handled
       * since we last looked (a barrier arrival with ACKs riding in it)
       * cancelled some, and a timer left at one of those woke the service
       * thread for nothing, on a CPU busy computing (the stencil: at one
       * barrier in seven, ACK deadlines 2.5 ms ahead outliving their ACKs,
       * which rode in the next arrival). A datagram or expiry already
       * there wakes it. */
      uint64_t next = svc_timers();
      s->owner = &U.core.svc_w;
      arm_timer(next);
      svc_watch(1);
      if (U.core.lq_head)
        dsm__tp_wake(&U.core.svc_w);
    }
  } else {
    dsm__tp_role_dequeue(s, me);
  }
}

static int event_fired(const void *e) { return ((const dsm__tp_event_t *)e)->fired; }

void dsm__udp_event_wait(dsm__tp_event_t *e)
{
  DSM__ASSERT(!U.core.svc_running || !pthread_equal(pthread_self(), U.core.svc));
  DSM__ASSERT(may_run_handlers_here());
  pthread_mutex_lock(&U.core.mu);
  if (!e->fired) {
    struct dsm__tp_waiter me;
    dsm__tp_waiter_init(&me);
    DSM__ASSERT(!e->waiter);
    e->waiter = &me;
    serve_until(&me, event_fired, e);
    e->waiter = NULL;
  }
  e->fired = 0;
  pthread_mutex_unlock(&U.core.mu);
}

void dsm__udp_event_fire(dsm__tp_event_t *e)
{
  pthread_mutex_lock(&U.core.mu);
  e->fired = 1;
  dsm__tp_wake(e->waiter);
  pthread_mutex_unlock(&U.core.mu);
}

/* ---- the interface ---------------------------------------------------------------- */

void dsm__udp_handle(unsigned type, dsm__handler_t fn)
{
  dsm__tp_core_handle(&U.core, type, fn);
}

void dsm__udp_call(unsigned dst, unsigned type, const void *req, size_t req_len, void **reply,
                   size_t *reply_len)
{
  dsm__tp_call_through(dsm__udp_call_many, dst, type, req, req_len, reply, reply_len);
}

static void send_oneway(unsigned dst, unsigned type, void *data, size_t len, int lazy)
{
  DSM__ASSERT(dst < U.nprocs && type < DSM__MSG_COUNT && len <= DSM__TP_MAX_MSG);
  pthread_mutex_lock(&U.core.mu);
  DSM__ASSERT(U.core.svc_running);
  dsm__udp_send_oneway_locked(dst, type, data, len, lazy);
  pthread_mutex_unlock(&U.core.mu);
}

void dsm__udp_send(unsigned dst, unsigned type, void *data, size_t len)
{
  send_oneway(dst, type, data, len, 0);
}

void dsm__udp_send_lazy(unsigned dst, unsigned type, void *data, size_t len)
{
  send_oneway(dst, type, data, len, 1);
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
    dsm__udp_msg(1, DSM__TP_MSG_REP, h.type, h.origin, h.origin, h.rid, len);
    dsm__udp_reply_transmit(e, 0);
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
  dsm__udp_msg(1, DSM__TP_MSG_REQ, h.type, dst, h.origin, h.rid, len);
  dsm__udp_forward_transmit(e, 0);
  dsm__tp_cache_enforce_cap(cache);
  pthread_mutex_unlock(&U.core.mu);
}

void dsm__udp_broadcast_abort(const char *reason)
{
  /* Called from dsm__fatal, possibly with mu held by this very thread: touch
   * only the socket and the address table, which no longer change. */
  if (U.sock[SVC] < 0 || !U.peers || !dsm__peers_known)
    return;
  size_t n = strlen(reason);
  if (n > ABORT_MAX) n = ABORT_MAX;
  for (int copy = 0; copy < 2; copy++)
    for (unsigned r = 0; r < U.nprocs; r++)
      if (r != U.self && U.peers[r].known) {
        struct hdr h = dsm__udp_hdr_make(K_ABORT, DSM__MSG_ABORT, 0, r, U.self, 0);
        dsm__udp_send_dgram(r, SVC, &h, reason, n, 0);
      }
}

const struct dsm__tp_ops dsm__tp_udp_ops = {
  "udp", dsm__udp_init, dsm__udp_shutdown, dsm__udp_handle, dsm__udp_call_many, dsm__udp_send,
  dsm__udp_replyv, dsm__udp_forward, dsm__udp_broadcast_abort,
  dsm__udp_event_wait, dsm__udp_event_fire,
  NULL, NULL, NULL,   /* no one-sided reads over UDP */
  dsm__udp_call_overlap, dsm__udp_send_lazy,
};
