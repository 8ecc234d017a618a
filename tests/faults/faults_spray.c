/*
 * faults_spray SECONDS RATE ADDR:PORT:RANK... — for SECONDS, send hostile
 * UDP datagrams to every target, RATE datagrams per second per target, in
 * turn of three kinds:
 *   random     0..1400 random bytes
 *   truncated  a datagram that starts like an ompdsm header ("DSM1") but
 *              ends before the header and MAC are complete (1..55 bytes)
 *   wrong key  a complete, plausible header (valid kind and type, src a
 *              different rank, dst the target's rank) plus payload, with a
 *              MAC that was not made with the job's key
 * Prints how many of each it sent. The receiving job must drop them all,
 * count them (stat bad_datagrams) and keep running.
 */

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAXT 64

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)   /* xorshift64*: reproducible with FAULTS_SEED */
{
  rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
  return rng * 0x2545f4914f6cdd1dull;
}

static void put32(uint8_t *b, uint32_t v)
{
  for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *b, uint64_t v)
{
  put32(b, (uint32_t)v);
  put32(b + 4, (uint32_t)(v >> 32));
}

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
  if (argc < 4) {
    fprintf(stderr, "usage: %s SECONDS RATE ADDR:PORT:RANK...\n", argv[0]);
    return 2;
  }
  double secs = atof(argv[1]);
  long rate = atol(argv[2]);
  if (rate < 1) rate = 1;
  if (getenv("FAULTS_SEED")) rng = strtoull(getenv("FAULTS_SEED"), NULL, 0) | 1;
  struct sockaddr_in to[MAXT];
  unsigned rank[MAXT], nt = 0;
  for (int i = 3; i < argc && nt < MAXT; i++) {
    char host[64];
    unsigned port, r;
    if (sscanf(argv[i], "%63[^:]:%u:%u", host, &port, &r) != 3 ||
        inet_pton(AF_INET, host, &to[nt].sin_addr) != 1 || port == 0 || port > 65535) {
      fprintf(stderr, "faults_spray: bad target '%s'\n", argv[i]);
      return 2;
    }
    to[nt].sin_family = AF_INET;
    to[nt].sin_port = htons((uint16_t)port);
    rank[nt++] = r;
  }
  int s = socket(AF_INET, SOCK_DGRAM, 0);
  if (s < 0) { perror("socket"); return 1; }

  long sent[3] = {0, 0, 0}, errors = 0;
  uint8_t b[1500] = {0};
  double t0 = now(), step = 1.0 / (double)rate;
  for (long k = 0; now() - t0 < secs; k++) {
    int kind = (int)(k % 3);
    for (unsigned t = 0; t < nt; t++) {
      size_t len;
      for (size_t i = 0; i + 8 <= sizeof b; i += 8) put64(b + i, rnd());   /* 1500 = 187 * 8 + 4 */
      if (kind == 0) {
        len = rnd() % 1401;
      } else if (kind == 1) {
        put32(b, 0x314d5344u);                  /* "DSM1" */
        len = 1 + rnd() % 55;                   /* < header + MAC */
      } else {
        unsigned src = (unsigned)(rank[t] + 1 + rnd() % 3);
        put32(b, 0x314d5344u);
        b[4] = (uint8_t)(1 + rnd() % 6);        /* kind: REQ..ABORT */
        b[5] = (uint8_t)(1 + rnd() % 8);        /* a small message type */
        b[6] = (uint8_t)(rnd() % 8);
        b[7] = 0;
        put32(b + 8, src == rank[t] ? rank[t] + 1 : src);
        put32(b + 12, rank[t]);
        put32(b + 16, src);
        len = 48 + rnd() % 200 + 8;
        put32(b + 20, (uint32_t)(len - 56));    /* fragment size */
        put64(b + 24, 1 + rnd() % 1000);        /* a plausible request id */
        put32(b + 40, (uint32_t)(len - 56));    /* total length */
        put32(b + 44, 0);
        /* the last 8 bytes stay random: a MAC under some other key */
      }
      if (sendto(s, b, len, 0, (struct sockaddr *)&to[t], sizeof to[t]) < 0)
        errors++;
      else
        sent[kind]++;
    }
    double due = t0 + (double)(k + 1) * step, w = due - now();
    if (w > 0) {
      struct timespec ts = { (time_t)w, (long)((w - (double)(time_t)w) * 1e9) };
      nanosleep(&ts, NULL);
    }
  }
  printf("faults_spray: sent random=%ld truncated=%ld wrong_key=%ld (send errors %ld)\n",
         sent[0], sent[1], sent[2], errors);
  return sent[0] + sent[1] + sent[2] > 0 ? 0 : 1;
}
