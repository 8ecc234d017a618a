/*
 * transport_udp_socket.c — the process's UDP socket, the address table
 * (rank -> IPv4 address and port), and moving single datagrams in and out.
 *
 * Sending never blocks: a full socket buffer, like any transient error, is
 * a lost datagram that the retransmission machinery recovers. DSM_LOSS
 * drops a fraction of outgoing datagrams on purpose, for the tests.
 */
#include <arpa/inet.h>
#include <errno.h>
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

/* ---- the socket ---------------------------------------------------------------- */

void dsm__udp_open_socket(const struct sockaddr_in *master)
{
  int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (sock < 0)
    dsm__fatal(DSM__EXIT_FATAL, "socket: %s", strerror(errno));
  U.sock = sock;
  /* Big buffers so a window of large fragments fits; as root, force past
   * net.core.rmem_max. */
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
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
  if (U.self == 0) {
    a.sin_port = master->sin_port;
  } else {
    const char *bind_ip = getenv("DSM_BIND");
    if (bind_ip && *bind_ip && inet_pton(AF_INET, bind_ip, &a.sin_addr) != 1)
      dsm__fatal(DSM__EXIT_FATAL, "DSM_BIND='%s' is not an IPv4 address", bind_ip);
  }
  if (bind(sock, (struct sockaddr *)&a, sizeof a) < 0) {
    if (a.sin_port == 0)     /* the kernel picks: the ephemeral range is used up */
      dsm__fatal(DSM__EXIT_FATAL, "no free UDP port for rank %u: %s (too many processes for "
                 "the ephemeral port range, net.ipv4.ip_local_port_range?)", U.self,
                 strerror(errno));
    dsm__fatal(DSM__EXIT_FATAL, "cannot bind the master's UDP port %u: %s (another job on it? "
               "dsmrun picks a free one)", ntohs(a.sin_port), strerror(errno));
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

void dsm__udp_send_dgram(unsigned dst, const struct hdr *h, const void *p, size_t n, int retrans)
{
  if (!U.peers[dst].known)
    return;   /* bootstrap: nowhere to send yet; the sender's timer retries */
  uint8_t hb[HDR_LEN], mb[MAC_LEN];
  dsm__udp_hdr_put(hb, h);
  put64(mb, dsm__udp_mac(hb, p, n));
  DSM__STAT_INC(datagrams_sent);
  if (retrans)
    DSM__STAT_INC(retransmits);
  if (lose())
    return;
  struct iovec iov[3] = { { hb, HDR_LEN }, { (void *)p, n }, { mb, MAC_LEN } };
  struct msghdr mh = { .msg_name = &U.peers[dst].addr, .msg_namelen = sizeof U.peers[dst].addr,
                       .msg_iov = iov, .msg_iovlen = 3 };
  /* A full socket buffer or a transient error is a lost datagram; the
   * retransmission machinery recovers from it like from any other loss. */
  if (sendmsg(U.sock, &mh, MSG_DONTWAIT) < 0 && errno != EAGAIN && errno != ENOBUFS &&
      errno != ECONNREFUSED && errno != EINTR)
    DSM__DEBUG("sendmsg to rank %u: %s", dst, strerror(errno));
}

void dsm__udp_send_small(unsigned kind, unsigned type, unsigned flags, unsigned dst,
                         unsigned origin, uint64_t rid)
{
  struct hdr h = dsm__udp_hdr_make(kind, type, flags, dst, origin, rid);
  dsm__udp_send_dgram(dst, &h, NULL, 0, 0);
}

/* ---- receiving ---------------------------------------------------------------------- */

int dsm__udp_recv_queued(int max)
{
  static uint8_t buf[65536];
  int got = 0;
  if (U.sock < 0)
    return 0;
  for (; got < max && !U.core.svc_stop; got++) {
    struct sockaddr_in from;
    socklen_t fl = sizeof from;
    ssize_t n = recvfrom(U.sock, buf, sizeof buf, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
    if (n < 0)
      break;
    if (fl != sizeof from || from.sin_family != AF_INET) {
      DSM__STAT_INC(bad_datagrams);
      continue;
    }
    dsm__udp_on_datagram(buf, (size_t)n, &from);
  }
  return got;
}
