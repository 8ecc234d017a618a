/*
 * netprobe — measures a test network (apps/bench/net.sh, issue 53): the
 * round trip of UDP datagrams and the throughput of a TCP stream between
 * two namespaces, so that a profile's delay and bandwidth are checked on
 * the links themselves rather than taken from its settings.
 *
 *   netprobe serve PORT                       UDP echo and TCP sink, until killed
 *   netprobe rtt ADDR PORT [COUNT [SIZE]]     COUNT round trips of SIZE bytes, one at a time
 *   netprobe stream ADDR PORT MBYTES          MBYTES MiB over TCP; time until the sink's ack
 *
 * rtt prints "rtt_us n=.. min=.. p10=.. p50=.. p90=.. p99=.. max=.."
 * (a lost datagram is resent after 200 ms and its round trip not
 * counted); stream prints "stream_mbit=.. bytes=.. seconds=..". The
 * sink answers a stream with one byte after it read the writer's EOF, so
 * the time covers every byte delivered, not only those the sender's
 * socket buffer took.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
  fprintf(stderr, "netprobe: %s: %s\n", what, strerror(errno));
  exit(1);
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct sockaddr_in addr_of(const char *ip, const char *port)
{
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port)) };
  if (inet_pton(AF_INET, ip, &a.sin_addr) != 1) {
    fprintf(stderr, "netprobe: bad address %s\n", ip);
    exit(2);
  }
  return a;
}

static _Noreturn void serve(const char *port)
{
  struct sockaddr_in a = addr_of("0.0.0.0", port);
  int u = socket(AF_INET, SOCK_DGRAM, 0), t = socket(AF_INET, SOCK_STREAM, 0), one = 1;
  if (u < 0 || t < 0)
    die("socket");
  setsockopt(t, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(u, (struct sockaddr *)&a, sizeof a) < 0 || bind(t, (struct sockaddr *)&a, sizeof a) < 0 ||
      listen(t, 4) < 0)
    die("bind");
  static char buf[1 << 16];
  for (;;) {
    struct pollfd p[2] = { { .fd = u, .events = POLLIN }, { .fd = t, .events = POLLIN } };
    if (poll(p, 2, -1) < 0 && errno != EINTR)
      die("poll");
    if (p[0].revents & POLLIN) {
      struct sockaddr_in from;
      socklen_t fl = sizeof from;
      ssize_t n = recvfrom(u, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
      if (n >= 0)
        sendto(u, buf, (size_t)n, 0, (struct sockaddr *)&from, fl);
    }
    if (p[1].revents & POLLIN) {
      /* One stream at a time: the measurements run one after another. */
      int c = accept(t, NULL, NULL);
      if (c < 0)
        continue;
      while (read(c, buf, sizeof buf) > 0)
        ;
      if (write(c, "k", 1) != 1)
        perror("netprobe: ack");
      close(c);
    }
  }
}

static int cmp_double(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

static int rtt(const char *ip, const char *port, int count, int size)
{
  struct sockaddr_in a = addr_of(ip, port);
  int s = socket(AF_INET, SOCK_DGRAM, 0);
  if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a) < 0)
    die("connect");
  char *out = calloc(1, (size_t)size), *in = malloc((size_t)size);
  double *v = malloc(sizeof *v * (size_t)count);
  if (!out || !in || !v)
    die("malloc");
  int n = 0, warm = 20;
  for (int i = -warm; i < count; i++) {
    uint32_t seq = (uint32_t)(i + warm);
    memcpy(out, &seq, sizeof seq);
    double t0 = now_s();
    if (send(s, out, (size_t)size, 0) < 0)
      die("send");
    for (;;) {
      struct pollfd p = { .fd = s, .events = POLLIN };
      int r = poll(&p, 1, 200);
      if (r == 0) {            /* lost: send again, count nothing */
        t0 = -1;
        if (send(s, out, (size_t)size, 0) < 0)
          die("send");
        continue;
      }
      ssize_t got = recv(s, in, (size_t)size, 0);
      uint32_t back;
      if (got < (ssize_t)sizeof back)
        continue;
      memcpy(&back, in, sizeof back);
      if (back != seq)
        continue;              /* an old echo of a resent datagram */
      break;
    }
    if (i >= 0 && t0 >= 0)
      v[n++] = (now_s() - t0) * 1e6;
  }
  qsort(v, (size_t)n, sizeof *v, cmp_double);
#define Q(q) v[(int)((q) * (n - 1) + 0.5)]
  printf("rtt_us n=%d size=%d min=%.1f p10=%.1f p50=%.1f p90=%.1f p99=%.1f max=%.1f\n", n, size,
         v[0], Q(0.1), Q(0.5), Q(0.9), Q(0.99), v[n - 1]);
  return 0;
}

static int stream(const char *ip, const char *port, long mbytes)
{
  struct sockaddr_in a = addr_of(ip, port);
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a) < 0)
    die("connect");
  static char buf[1 << 16];
  memset(buf, 0x5a, sizeof buf);
  long total = mbytes << 20, sent = 0;
  double t0 = now_s();
  while (sent < total) {
    size_t want = (size_t)(total - sent) < sizeof buf ? (size_t)(total - sent) : sizeof buf;
    ssize_t w = write(s, buf, want);
    if (w < 0)
      die("write");
    sent += w;
  }
  shutdown(s, SHUT_WR);
  char k;
  if (read(s, &k, 1) != 1)
    die("the sink's ack");
  double dt = now_s() - t0;
  printf("stream_mbit=%.1f bytes=%ld seconds=%.4f\n", (double)total * 8 / dt / 1e6, total, dt);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc == 3 && !strcmp(argv[1], "serve"))
    serve(argv[2]);
  if ((argc >= 4 && argc <= 6) && !strcmp(argv[1], "rtt")) {
    int count = argc > 4 ? atoi(argv[4]) : 1000, size = argc > 5 ? atoi(argv[5]) : 64;
    if (count < 1 || size < 4 || size > 65000)
      goto usage;
    return rtt(argv[2], argv[3], count, size);
  }
  if (argc == 5 && !strcmp(argv[1], "stream") && atol(argv[4]) > 0)
    return stream(argv[2], argv[3], atol(argv[4]));
usage:
  fprintf(stderr, "usage: netprobe serve PORT | rtt ADDR PORT [COUNT [SIZE]] | "
          "stream ADDR PORT MBYTES\n");
  return 2;
}
