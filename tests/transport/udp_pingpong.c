/*
 * udp_pingpong.c — raw UDP ping-pong between two processes on loopback: the
 * floor that the transport's small-call round trip is measured against.
 *
 *   udp_pingpong [count] [bytes]
 *
 * The parent sends `bytes` (default 8) to the child, which echoes them; both
 * block in recv(). Prints the mean round-trip time.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int bound_socket(struct sockaddr_in *a)
{
  int s = socket(AF_INET, SOCK_DGRAM, 0);
  memset(a, 0, sizeof *a);
  a->sin_family = AF_INET;
  a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t l = sizeof *a;
  if (s < 0 || bind(s, (struct sockaddr *)a, sizeof *a) || getsockname(s, (struct sockaddr *)a, &l)) {
    perror("udp_pingpong: socket");
    exit(1);
  }
  return s;
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 10000;
  size_t len = argc > 2 ? (size_t)atol(argv[2]) : 8;
  if (n < 1 || len < 1 || len > 65000) {
    fprintf(stderr, "usage: udp_pingpong [count] [bytes <= 65000]\n");
    return 2;
  }
  struct sockaddr_in pa, ca;
  int ps = bound_socket(&pa), cs = bound_socket(&ca);
  char *buf = calloc(1, len);
  pid_t pid = fork();
  if (pid == 0) {
    for (long i = 0; i < n + 100; i++) {
      ssize_t r = recv(cs, buf, len, 0);
      if (r < 0 || sendto(cs, buf, (size_t)r, 0, (struct sockaddr *)&pa, sizeof pa) < 0)
        _exit(1);
    }
    _exit(0);
  }
  double t0 = 0;
  for (long i = 0; i < n + 100; i++) {
    if (i == 100) t0 = now_us();   /* the first 100 warm up */
    memcpy(buf, &i, sizeof i < len ? sizeof i : len);
    if (sendto(ps, buf, len, 0, (struct sockaddr *)&ca, sizeof ca) < 0 ||
        recv(ps, buf, len, 0) != (ssize_t)len) {
      perror("udp_pingpong");
      return 1;
    }
    long back;
    memcpy(&back, buf, sizeof back < len ? sizeof back : len);
    if (len >= sizeof back && back != i) {
      fprintf(stderr, "udp_pingpong: echo %ld for %ld\n", back, i);
      return 1;
    }
  }
  double t1 = now_us();
  int st;
  waitpid(pid, &st, 0);
  printf("raw UDP round trip (%zu bytes): %.1f us (%ld round trips)\n", len, (t1 - t0) / n, n);
  free(buf);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
