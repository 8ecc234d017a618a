/*
 * transport_udp_socket.c — the process's two UDP sockets, the address
 * table (rank -> IPv4 address, service port and reply port), and moving
 * datagrams in and out.
 *
 * Sending never blocks: a full socket buffer, like any transient error, is
 * a lost datagram that the retransmission machinery recovers. DSM_LOSS
 * drops a fraction of outgoing datagrams on purpose, for the tests.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "dsm_internal.h"
#include "transport_udp.h"

/* ---- addresses --------------------------------------------------------------- */

int dsm__udp_parse_addr(const char *s, struct sockaddr_in *a)
{
  char host[64];
  const char *colon = strrchr(s, ':');
  if (!colon || (size_t)(colon - s) >= sizeof host)
    return -1;
  memcpy(host, s, (size_t)(colon - s));
  host[colon - s] = 0;
  char *end;
  long port = strtol(colon + 1, &end, 10);
  if (*end || port <= 0 || port > 65535)
    return -1;
  memset(a, 0, sizeof *a);
  a->sin_family = AF_INET;
  a->sin_port = htons((uint16_t)port);
  return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0 : -1;
}

/* Fragments toward loopback peers are large; toward others one Ethernet
 * frame each, so a lost frame loses one small datagram. */
uint32_t dsm__udp_frag_size_for(const struct sockaddr_in *a)
{
  if (U.frag_force)
    return U.frag_force;
  return (ntohl(a->sin_addr.s_addr) >> 24) == 127 ? FSZ_LO : FSZ_WAN;
}

void dsm__udp_set_peer(unsigned r, const struct sockaddr_in *a)
{
  U.peers[r].addr = *a;
  U.peers[r].known = 1;
  U.peers[r].fsz = dsm__udp_frag_size_for(a);
}

void dsm__udp_set_peer_reply(unsigned r, uint16_t port)
{
  U.peers[r].raddr = U.peers[r].addr;
  U.peers[r].raddr.sin_port = port;
  U.peers[r].rknown = port != 0;
}

/* ---- the sockets ---------------------------------------------------------------- */

static struct sockaddr_in self_addr[2];   /* our own sockets, for wake-up datagrams */
static uint64_t rcvtimeo[2];              /* SO_RCVTIMEO of each, ns (0: none) */

/* Big buffers so a window of large fragments fits; as root, force past
 * net.core.rmem_max. */
static void size_buffers(int sock)
{
  int sz = 16 << 20;
  if (setsockopt(sock, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof sz) < 0)
    setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
  if (setsockopt(sock, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof sz) < 0)
    setsockopt(sock, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
  int got = 0;
  socklen_t gl = sizeof got;
  if (!getsockopt(sock, SOL_SOCKET, SO_RCVBUF, &got, &gl) && got > 0 &&
      (uint32_t)got / 4 < U.window_bytes) {
    /* Without the big buffer, a window of 2 MiB would only overflow it. */
    U.window_bytes = (uint32_t)got / 4 < 64 * 1024 ? 64 * 1024 : (uint32_t)got / 4;
  }
}

static int open_one(const struct sockaddr_in *a)
{
  int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (sock < 0)
    dsm__fatal(DSM__EXIT_FATAL, "socket: %s", strerror(errno));
  size_buffers(sock);
  if (bind(sock, (const struct sockaddr *)a, sizeof *a) < 0) {
    if (a->sin_port == 0)     /* the kernel picks: the ephemeral range is used up */
      dsm__fatal(DSM__EXIT_FATAL, "no free UDP port for rank %u: %s (too many processes for "
                 "the ephemeral port range, net.ipv4.ip_local_port_range?)", U.self,
                 strerror(errno));
    dsm__fatal(DSM__EXIT_FATAL, "cannot bind the master's UDP port %u: %s (another job on it? "
               "dsmrun picks a free one)", ntohs(a->sin_port), strerror(errno));
  }
  return sock;
}

/* Rank 0 started by dsmrun on this host inherits the master's socket,
 * already bound (DSM_MASTER_FD; tools/dsmrun_env.c): dsmrun held the port
 * from the moment it chose it, so no other process could take it. Only a
 * UDP socket bound to the master's port is taken; anything else (a
 * descriptor a wrapper closed or reused) falls back to binding the port. */
static int inherited_master(const struct sockaddr_in *a)
{
  const char *v = getenv("DSM_MASTER_FD");
  if (!v || !*v)
    return -1;
  char *end;
  long fd = strtol(v, &end, 10);
  unsetenv("DSM_MASTER_FD");   /* not for the program's own children */
  if (*end || fd < 3 || fd > 1024)
    return -1;
  int type = 0;
  socklen_t tl = sizeof type;
  struct sockaddr_in got;
  socklen_t gl = sizeof got;
  if (getsockopt((int)fd, SOL_SOCKET, SO_TYPE, &type, &tl) < 0 || type != SOCK_DGRAM ||
      getsockname((int)fd, (struct sockaddr *)&got, &gl) < 0 || got.sin_family != AF_INET ||
      got.sin_port != a->sin_port)
    return -1;
  fcntl((int)fd, F_SETFD, FD_CLOEXEC);
  size_buffers((int)fd);
  return (int)fd;
}

void dsm__udp_open_sockets(const struct sockaddr_in *master)
{
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
  if (U.self != 0) {
    const char *bind_ip = getenv("DSM_BIND");
    if (bind_ip && *bind_ip && inet_pton(AF_INET, bind_ip, &a.sin_addr) != 1)
      dsm__fatal(DSM__EXIT_FATAL, "DSM_BIND='%s' is not an IPv4 address", bind_ip);
  }
  /* The reply socket on an ephemeral port of the same address; peers learn
   * its port from the address table. */
  U.sock[REPLY] = open_one(&a);
  if (U.self == 0)
    a.sin_port = master->sin_port;
  U.sock[SVC] = U.self == 0 ? inherited_master(&a) : -1;
  if (U.sock[SVC] < 0)
    U.sock[SVC] = open_one(&a);
  /* Where a wake-up datagram for each goes (transport_udp.h). */
  for (int i = 0; i < 2; i++) {
    socklen_t l = sizeof self_addr[i];
    if (getsockname(U.sock[i], (struct sockaddr *)&self_addr[i], &l) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "getsockname: %s", strerror(errno));
    if (self_addr[i].sin_addr.s_addr == htonl(INADDR_ANY))
      self_addr[i].sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  }
}

/* ---- sending ---------------------------------------------------------------------- */

static int lose(void)
{
  if (U.loss <= 0)
    return 0;
  /* xorshift64*, under mu or in the abort path; a race only perturbs the
   * sequence of a test knob. */
  uint64_t x = U.rnd_state;
  x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
  U.rnd_state = x;
  return (double)((x * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0 < U.loss;
}

void dsm__udp_send_dgram(unsigned dst, int to, const struct hdr *h, const void *p, size_t n,
                         int retrans)
{
  struct peer *pe = &U.peers[dst];
  if (!(to == REPLY ? pe->rknown : pe->known))
    return;   /* bootstrap: nowhere to send yet; the sender's timer retries */
  /* ACKs held for this peer, of one-ways it sent itself, ride in the
   * datagram if it is a REQ or a REP with room for them within the peer's
   * fragment size: an ACK of its own is a datagram more for both kernels
   * and often a wake-up (transport_udp_acks.c). */
  uint8_t tb[ACK_RIDE_LEN * ACKS_RIDE + 1];
  size_t tn = 0;
  struct hdr hh = *h;
  if ((h->kind == K_REQ || h->kind == K_REP) && n < pe->fsz)
    tn = dsm__udp_acks_pack(dst, tb, pe->fsz - n);
  if (tn)
    hh.flags |= F_ACKS;
  /* Those that did not fit, held for the caller of a reply, go before it,
   * to the same socket. */
  if (h->kind == K_REP && to == REPLY)
    dsm__udp_acks_ride(dst, 1);
  uint8_t hb[HDR_LEN], mb[MAC_LEN];
  dsm__udp_hdr_put(hb, &hh);
  put64(mb, dsm__udp_mac_acks(hb, p, n, tb, tn));
  DSM__STAT_INC(datagrams_sent);
  if (retrans)
    DSM__STAT_INC(retransmits);
  if (lose())
    return;
  struct iovec iov[4] = { { hb, HDR_LEN }, { (void *)p, n }, { tb, tn }, { mb, MAC_LEN } };
  struct sockaddr_in *a = to == REPLY ? &pe->raddr : &pe->addr;
  struct msghdr mh = { .msg_name = a, .msg_namelen = sizeof *a, .msg_iov = iov, .msg_iovlen = 4 };
  /* A full socket buffer or a transient error is a lost datagram; the
   * retransmission machinery recovers from it like from any other loss.
   * Everything leaves through the service socket, whose address is the one
   * the table gives for this rank. */
  if (sendmsg(U.sock[SVC], &mh, MSG_DONTWAIT) < 0 && errno != EAGAIN && errno != ENOBUFS &&
      errno != ECONNREFUSED && errno != EINTR)
    DSM__DEBUG("sendmsg to rank %u: %s", dst, strerror(errno));
  /* ACKs held for this peer follow: it wakes once for the lot (after this
   * datagram, which may be on someone's critical path). */
  if (h->kind == K_REQ || h->kind == K_REP)
    dsm__udp_acks_ride(dst, 0);
}

/* ---- receiving ---------------------------------------------------------------------- */

/* Datagrams are read RECV_BATCH at a time with one recvmmsg, into buffers
 * of the thread that reads them: the service socket can change hands while
 * a handler runs (the old reader finishes the datagrams it already has),
 * so two threads may each hold a batch. */
#define RECV_BATCH 16
#define RECV_BUF   65536

struct rxbatch {
  uint8_t buf[RECV_BATCH][RECV_BUF];
  struct sockaddr_in from[RECV_BATCH];
  struct iovec iov[RECV_BATCH];
  struct mmsghdr msg[RECV_BATCH];
};

static pthread_key_t batch_key;
static pthread_once_t batch_once = PTHREAD_ONCE_INIT;
static __thread struct rxbatch *thread_batch;

static void make_key(void)
{
  if (pthread_key_create(&batch_key, free))
    dsm__fatal(DSM__EXIT_FATAL, "pthread_key_create failed");
}

static struct rxbatch *my_batch(void)
{
  if (!thread_batch) {
    pthread_once(&batch_once, make_key);
    thread_batch = malloc(sizeof *thread_batch);
    DSM__ASSERT(thread_batch);
    pthread_setspecific(batch_key, thread_batch);
  }
  struct rxbatch *b = thread_batch;
  for (int i = 0; i < RECV_BATCH; i++) {
    b->iov[i] = (struct iovec){ b->buf[i], RECV_BUF };
    b->msg[i].msg_hdr = (struct msghdr){ .msg_name = &b->from[i],
                                         .msg_namelen = sizeof b->from[i],
                                         .msg_iov = &b->iov[i], .msg_iovlen = 1 };
  }
  return b;
}

/* A wake-up datagram: empty, from our own service socket. */
static int is_poke(const struct rxbatch *b, int i)
{
  return b->msg[i].msg_len == 0 && b->from[i].sin_port == self_addr[SVC].sin_port &&
         b->from[i].sin_addr.s_addr == self_addr[SVC].sin_addr.s_addr;
}

/* Lazy one-ways that a caller read from the reply socket, for the server of
 * the service socket: copies, oldest first. Bounded: past LAZY_MAX the
 * datagram is dropped as if lost (its sender resends it to the service
 * socket), so a flood of forged ones costs no more than that much memory
 * before the MAC check. */
#define LAZY_MAX 256
struct lazy {
  struct lazy *next;
  struct sockaddr_in from;
  size_t len;
  uint8_t b[];
};
static struct lazy *lazy_head, **lazy_tail = &lazy_head;
static unsigned lazy_n;

/* A lazy one-way by its header (not checked yet: dsm__udp_on_datagram does). */
static int is_lazy(const uint8_t *b, size_t len)
{
  if (len < HDR_LEN)
    return 0;
  struct hdr h;
  dsm__udp_hdr_get(b, &h);
  return h.kind == K_REQ && (h.flags & (F_LAZY | F_ONEWAY)) == (F_LAZY | F_ONEWAY);
}

static void lazy_hand(const uint8_t *b, size_t len, const struct sockaddr_in *from)
{
  if (lazy_n >= LAZY_MAX) {
    DSM__STAT_INC(lazy_dropped);
    return;
  }
  struct lazy *l = malloc(sizeof *l + len);
  DSM__ASSERT(l);
  l->next = NULL;
  l->from = *from;
  l->len = len;
  memcpy(l->b, b, len);
  *lazy_tail = l;
  lazy_tail = &l->next;
  lazy_n++;
  DSM__STAT_INC(lazy_handed);
  /* Only a thread waiting for an event is woken for it: the service thread
   * takes it on its next round, or the next thread to wait does. */
  if (U.role[SVC].owner != &U.core.svc_w)
    dsm__udp_wake_role(SVC, 0);
}

int dsm__udp_lazy_waiting(void)
{
  return lazy_head != NULL;
}

void dsm__udp_lazy_run(const struct dsm__tp_waiter *me)
{
  struct lazy *l;
  while (U.role[SVC].owner == me && (l = lazy_head)) {
    lazy_head = l->next;
    if (!lazy_head)
      lazy_tail = &lazy_head;
    lazy_n--;
    dsm__udp_on_datagram(l->b, l->len, &l->from, SVC);
    free(l);
  }
}

static void handle_batch(struct rxbatch *b, int n, int which, const struct dsm__tp_waiter *me)
{
  for (int i = 0; i < n; i++) {
    if (b->msg[i].msg_hdr.msg_namelen != sizeof b->from[i] || b->from[i].sin_family != AF_INET) {
      DSM__STAT_INC(bad_datagrams);
      continue;
    }
    if (is_poke(b, i))
      continue;
    int to = which;
    if (which == REPLY && is_lazy(b->buf[i], b->msg[i].msg_len)) {
      /* A thread waiting for an event serves both sockets and handles it;
       * a caller, which must not run handlers, hands it over. */
      if (U.role[SVC].owner != me) {
        lazy_hand(b->buf[i], b->msg[i].msg_len, &b->from[i]);
        continue;
      }
      to = SVC;
    }
    dsm__udp_on_datagram(b->buf[i], b->msg[i].msg_len, &b->from[i], to);
  }
  dsm__udp_acks_flush();
}

int dsm__udp_recv_queued(int which, const struct dsm__tp_waiter *me, int max)
{
  int sock = U.sock[which], got = 0;
  if (sock < 0)
    return 0;
  while (got < max && !U.core.svc_stop && U.role[which].owner == me) {
    struct rxbatch *b = my_batch();
    int n = recvmmsg(sock, b->msg, RECV_BATCH, MSG_DONTWAIT, NULL);
    if (n <= 0)
      break;
    handle_batch(b, n, which, me);
    got += n;
    if (n < RECV_BATCH)
      break;     /* the socket is empty: no need to ask again */
  }
  return got;
}

void dsm__udp_poke_socket(int which)
{
  if (sendto(U.sock[SVC], NULL, 0, MSG_DONTWAIT, (struct sockaddr *)&self_addr[which],
             sizeof self_addr[which]) < 0)
    DSM__DEBUG("wake-up datagram: %s", strerror(errno));
}

static void poke_waiter(struct dsm__tp_waiter *w)
{
  dsm__udp_poke_socket(w->poke_arg);
}

/* The socket's receive timeout, near `want` ns (0: none). Changing it costs
 * a system call, so a setting within [3/4, 4] of what is wanted stays: the
 * sleeper wakes early (and sleeps again) or at most a quarter late. */
static uint64_t set_timeout(int which, uint64_t want)
{
  uint64_t cur = rcvtimeo[which];
  if (cur == want || (cur && want && want >= cur - cur / 4 && want <= 4 * cur))
    return cur;
  struct timeval tv = { (time_t)(want / 1000000000u), (suseconds_t)(want % 1000000000u / 1000) };
  if (want && !tv.tv_sec && !tv.tv_usec)
    tv.tv_usec = 1;
  setsockopt(U.sock[which], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  rcvtimeo[which] = want;
  return want;
}

int dsm__udp_recv_block(int which, struct dsm__tp_waiter *me, uint64_t until, int max)
{
  uint64_t now = dsm__now_ns();
  if (until <= now || U.sock[which] < 0)
    return dsm__udp_recv_queued(which, me, max);
  uint64_t t = set_timeout(which, until == UINT64_MAX ? 0 : until - now);
  struct rxbatch *b = my_batch();
  /* A waker sees asleep under mu and sends a datagram to this socket: it
   * stays queued, so the receive returns even if it starts after that. */
  me->asleep = 1;
  me->until = t ? now + t : UINT64_MAX;
  me->poke = poke_waiter;
  me->poke_arg = which;
  pthread_mutex_unlock(&U.core.mu);
  int n = recvmmsg(U.sock[which], b->msg, RECV_BATCH, MSG_WAITFORONE, NULL);
  pthread_mutex_lock(&U.core.mu);
  me->asleep = 0;
  me->until = UINT64_MAX;
  me->poke = NULL;
  if (n <= 0)
    return 0;    /* the time is up (or a signal) */
  handle_batch(b, n, which, me);
  if (n == RECV_BATCH)
    n += dsm__udp_recv_queued(which, me, max - n);
  return n;
}
