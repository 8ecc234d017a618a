/*
 * dsmbench — the costs of ompdsm's basic operations, each as a ratio to a
 * reference measured in the same run (absolute times on a shared machine are
 * noise; ratios are not):
 *   network operations  / the raw UDP round trip between the same two processes
 *   local operations    / a memcpy of one 4 KiB page
 * Run it under dsmrun with 8 processes (fewer limits the barrier sizes):
 *   dsmrun -n 8 build/tools/dsmbench [--iters N] [--csv FILE]
 * It is a fork/join program: regions with teams of 2, 4 and 8 processes time
 * barriers of those sizes.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <sched.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "dsm.h"
#include "diff.h"
#include "dsm_internal.h"
#include "net/transport.h"
#include "runtime.h"
#include "sync.h"
#include "dsmbench.h"
#include "ompdsm_rt.h"


static int iters = 2000;
static FILE *csv;

static double now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One line: time, ratio to a reference, wake-ups per operation (wk < 0:
 * not counted, for a library without the counter or a local operation). */
static void row_ratio(const char *what, double ns, double ratio, const char *refname, double wk)
{
  char w[32] = "-";
  if (wk >= 0) snprintf(w, sizeof w, "%.2f", wk);
  printf("%-44s %12.2f us %10.2f x %-9s %8s\n", what, ns / 1000, ratio, refname, w);
  if (csv) fprintf(csv, "%s,%.1f,%.3f,%s,%s\n", what, ns, ratio, refname, w);
}

static void row(const char *what, double ns, double ref, const char *refname, double wk)
{
  row_ratio(what, ns, ns / ref, refname, wk);
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- shared state ---------------------------------------------------------------- */

DSM_SHARED_BSS static volatile int echo_port;
DSM_SHARED_BSS static double result_ns[8];
DSM_SHARED_BSS static double rtt_ratio;
/* Wake-ups each process counted during a measurement (wk_end). */
DSM_SHARED_BSS static double wk[256];

/* ---- wake-ups ---------------------------------------------------------------------- */

static int64_t wk0;

static void wk_begin(void)
{
  wk0 = bench_wakeups();
}

static void wk_end(void)
{
  if (dsm_proc_id() < 256)
    wk[dsm_proc_id()] = (double)(bench_wakeups() - wk0);
}

/* The master, after the join: wake-ups per operation, summed over the team. */
static double wk_per_op(unsigned team, double ops)
{
  if (bench_wakeups() < 0)
    return -1;
  double sum = 0;
  for (unsigned r = 0; r < team && r < 256; r++) {
    sum += wk[r];
    wk[r] = 0;
  }
  return sum / ops;
}

/* ---- round trips: raw UDP and the transport, interleaved ---------------------------- */

/* Both are timed in the same region, in alternating blocks, so that load
 * from other processes on the machine falls on both alike: the ratio is the
 * median of the blocks' ratios. Rank 1 echoes raw datagrams on its
 * application thread, so the transport's requests are served by its service
 * thread meanwhile (a peer that is busy computing). */
#define RTT_BLOCKS 10

struct raw_arg { int n; };

static int udp_socket(int *port)
{
  int s = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
  socklen_t len = sizeof a;
  if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) < 0 || getsockname(s, (struct sockaddr *)&a, &len) < 0) {
    perror("dsmbench: udp socket");
    exit(1);
  }
  *port = ntohs(a.sin_port);
  return s;
}

/* Rank 1's echo socket, as rank 0 reaches it: DSM_RANK 1 runs on the host
 * dsmrun placed it; for a local job this is loopback. The benchmark is
 * meant for local and namespace jobs, where DSMBENCH_PEER gives the peer's
 * address. */
static struct sockaddr_in echo_addr(void)
{
  const char *peer = getenv("DSMBENCH_PEER") ? getenv("DSMBENCH_PEER") : "127.0.0.1";
  struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons((uint16_t)echo_port) };
  inet_pton(AF_INET, peer, &to.sin_addr);
  return to;
}

/* A request of "BULK" is answered with BULK_BYTES (bulk_region). */
#define BULK_DGRAM 65000
#define BULK_N 4
#define BULK_BYTES (BULK_DGRAM * BULK_N)
static uint8_t *bulk_buf;     /* main fills it before the job starts */

static void on_bench_ping(const dsm__msg_t *m)
{
  if (m->len == 4 && !memcmp(m->data, "BULK", 4))
    dsm__tp_reply(dsm__reqh(m), bulk_buf, BULK_BYTES);
  else
    dsm__tp_reply(dsm__reqh(m), m->data, m->len);
}

/* The reference round trip is between two processes on CPUs of their own,
 * as at 2 processes (dsmrun binds each rank to a CPU when there is one per
 * rank). With more ranks than CPUs nothing is bound, and ranks 0 and 1 on
 * one CPU made a round trip of two context switches and no wake-up of an
 * idle CPU: 10 us against 40-67 us across CPUs, in the same minutes, and
 * the 8-process barrier 11x that "round trip" in one run, 2x in the next.
 * So for this measurement every thread of rank r (the service thread
 * answers the transport's calls) runs on the r-th CPU the rank may use, if
 * it may use two or more, as dsmrun's binding does at 2 processes; after it
 * they go back to the rank's own set. */
static cpu_set_t rtt_saved;
static int rtt_pinned;

static void pin_threads(const cpu_set_t *set)
{
  DIR *d = opendir("/proc/self/task");
  if (!d)
    return;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.')
      (void)sched_setaffinity((pid_t)atoi(e->d_name), sizeof *set, set);
  closedir(d);
}

static void rtt_pin(int on)
{
  if (on) {
    rtt_pinned = 0;
    if (sched_getaffinity(0, sizeof rtt_saved, &rtt_saved) != 0 || CPU_COUNT(&rtt_saved) < 2)
      return;
    for (int c = 0, k = 0; c < CPU_SETSIZE; c++)
      if (CPU_ISSET(c, &rtt_saved) && k++ == (int)dsm_proc_id()) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(c, &one);
        pin_threads(&one);
        rtt_pinned = 1;
        break;
      }
  } else if (rtt_pinned) {
    pin_threads(&rtt_saved);
    rtt_pinned = 0;
  }
}

static void rtt_region(void *p)
{
  struct raw_arg *a = p;
  int per = a->n / RTT_BLOCKS > 20 ? a->n / RTT_BLOCKS : 20;
  rtt_pin(1);
  if (dsm_proc_id() == 1) {
    int port, s = udp_socket(&port);
    echo_port = port;
    dsm_barrier(1);
    wk_begin();
    char b[64];
    struct sockaddr_in from;
    for (;;) {
      socklen_t fl = sizeof from;
      ssize_t r = recvfrom(s, b, sizeof b, 0, (struct sockaddr *)&from, &fl);
      if (r == 2) break;    /* the end */
      if (r > 0) sendto(s, b, (size_t)r, 0, (struct sockaddr *)&from, fl);
    }
    wk_end();
    close(s);
  } else if (dsm_proc_id() == 0) {
    int myport, s = udp_socket(&myport);
    dsm_barrier(1);
    struct sockaddr_in to = echo_addr();
    char b[1] = { 'x' };
    for (int i = 0; i < 10; i++) {
      sendto(s, b, 1, 0, (struct sockaddr *)&to, sizeof to);
      recv(s, b, 1, 0);
      dsm__tp_call(1, DSM__MSG_PING, b, 1, NULL, NULL);
    }
    double raw[RTT_BLOCKS], tp[RTT_BLOCKS], ratio[RTT_BLOCKS];
    wk_begin();
    for (int k = 0; k < RTT_BLOCKS; k++) {
      double t0 = now_ns();
      for (int i = 0; i < per; i++) {
        sendto(s, b, 1, 0, (struct sockaddr *)&to, sizeof to);
        recv(s, b, 1, 0);
      }
      double t1 = now_ns();
      for (int i = 0; i < per; i++)
        dsm__tp_call(1, DSM__MSG_PING, b, 1, NULL, NULL);
      double t2 = now_ns();
      raw[k] = (t1 - t0) / per;
      tp[k] = (t2 - t1) / per;
      ratio[k] = tp[k] / raw[k];
    }
    wk_end();
    for (int i = 0; i < 3; i++)
      sendto(s, "ok", 2, 0, (struct sockaddr *)&to, sizeof to);
    result_ns[0] = median(raw, RTT_BLOCKS);
    result_ns[1] = median(tp, RTT_BLOCKS);
    result_ns[2] = (double)RTT_BLOCKS * per;
    rtt_ratio = median(ratio, RTT_BLOCKS);
    close(s);
  }
  rtt_pin(0);
}

/* ---- a bulk reply: raw UDP and the transport, interleaved ------------------------------- */

/* A page run's fetch moves up to 256 KiB in one reply: the transport cuts
 * it into 60 KiB fragments, keeps a copy for retransmission, authenticates
 * each fragment and reassembles them. The raw reference is the same bytes
 * as four datagrams of BULK_DGRAM, answered to a 3-byte request. Blocks
 * alternate as for the round trip. A raw datagram lost (a receive buffer
 * smaller than four datagrams) leaves the row out. */
#define BULK_BLOCKS 6
DSM_SHARED_BSS static double bulk_result[3];   /* raw ns, transport ns, ratio (<0: none) */

static void bulk_region(void *p)
{
  struct raw_arg *a = p;
  int per = a->n / 40 > 10 ? a->n / 40 : 10;
  rtt_pin(1);       /* placed as for the round trip it is shown against */
  if (dsm_proc_id() == 1) {
    int port, s = udp_socket(&port);
    echo_port = port;
    dsm_barrier(1);
    static char b[BULK_DGRAM];
    struct sockaddr_in from;
    for (;;) {
      socklen_t fl = sizeof from;
      ssize_t r = recvfrom(s, b, sizeof b, 0, (struct sockaddr *)&from, &fl);
      if (r == 2) break;    /* the end */
      if (r == 3)
        for (int k = 0; k < BULK_N; k++)
          sendto(s, b, BULK_DGRAM, 0, (struct sockaddr *)&from, fl);
    }
    close(s);
  } else if (dsm_proc_id() == 0) {
    int myport, s = udp_socket(&myport);
    int rcv = 4 * BULK_BYTES;
    setsockopt(s, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof rcv);
    struct timeval tv = { 2, 0 };
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    dsm_barrier(1);
    struct sockaddr_in to = echo_addr();
    static char b[BULK_DGRAM];
    double raw[BULK_BLOCKS], tp[BULK_BLOCKS], ratio[BULK_BLOCKS];
    int lost = 0;
    for (int k = -1; k < BULK_BLOCKS && !lost; k++) {      /* block -1 warms up */
      double t0 = now_ns();
      for (int i = 0; i < per && !lost; i++) {
        sendto(s, "big", 3, 0, (struct sockaddr *)&to, sizeof to);
        for (int d = 0; d < BULK_N && !lost; d++)
          lost = recv(s, b, sizeof b, 0) != BULK_DGRAM;
      }
      double t1 = now_ns();
      for (int i = 0; i < per; i++) {
        void *rep = NULL;
        size_t len = 0;
        dsm__tp_call(1, DSM__MSG_PING, "BULK", 4, &rep, &len);
        if (len != BULK_BYTES) { fprintf(stderr, "dsmbench: wrong bulk reply\n"); exit(1); }
        free(rep);
      }
      double t2 = now_ns();
      if (k >= 0) {
        raw[k] = (t1 - t0) / per;
        tp[k] = (t2 - t1) / per;
        ratio[k] = tp[k] / raw[k];
      }
    }
    for (int i = 0; i < 3; i++)
      sendto(s, "ok", 2, 0, (struct sockaddr *)&to, sizeof to);
    bulk_result[0] = lost ? -1 : median(raw, BULK_BLOCKS);
    bulk_result[1] = lost ? -1 : median(tp, BULK_BLOCKS);
    bulk_result[2] = lost ? -1 : median(ratio, BULK_BLOCKS);
    close(s);
  }
  rtt_pin(0);
}

/* ---- barriers of a team ------------------------------------------------------------------- */

static void barrier_region(void *p)
{
  struct raw_arg *a = p;
  for (int i = 0; i < 10; i++) dsm__barrier_red(2, NULL);
  wk_begin();
  double t0 = now_ns();
  for (int i = 0; i < a->n; i++) dsm__barrier_red(2, NULL);
  if (dsm_proc_id() == 0) result_ns[2] = (now_ns() - t0) / a->n;
  wk_end();
}

/* The same barrier over raw UDP sockets, with no DSM at all: each process
 * sends one datagram to rank 0 and blocks for one back; rank 0 blocks for
 * all of them, then answers each. The floor of any centralized barrier on
 * this machine: with more processes than CPUs, every one of them must be
 * woken and run once per barrier, whatever the protocol (8 processes on 2
 * CPUs: ~5x the round trip on this VM, 2026-11-28). Local jobs only: the
 * datagrams go to loopback. */
DSM_SHARED_BSS static volatile int raw_port[256];

static void raw_barrier_region(void *p)
{
  struct raw_arg *a = p;
  unsigned me = dsm_proc_id(), k = dsm__team;
  int port, s = udp_socket(&port);
  raw_port[me] = port;
  dsm__barrier_red(2, NULL);
  struct sockaddr_in root = { .sin_family = AF_INET, .sin_port = htons((uint16_t)raw_port[0]),
                              .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
  struct sockaddr_in *to = calloc(k, sizeof *to);
  if (!to) exit(1);
  for (unsigned r = 1; r < k; r++)
    to[r] = (struct sockaddr_in){ .sin_family = AF_INET, .sin_port = htons((uint16_t)raw_port[r]),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
  char b[4] = { 0 };
  double t0 = 0;
  for (int i = -10; i < a->n; i++) {
    if (i == 0) t0 = now_ns();
    if (me == 0) {
      for (unsigned r = 1; r < k; r++) recv(s, b, sizeof b, 0);
      for (unsigned r = 1; r < k; r++) sendto(s, b, 1, 0, (struct sockaddr *)&to[r], sizeof to[r]);
    } else {
      sendto(s, b, 1, 0, (struct sockaddr *)&root, sizeof root);
      recv(s, b, sizeof b, 0);
    }
  }
  if (me == 0) result_ns[2] = (now_ns() - t0) / a->n;
  free(to);
  close(s);
}

/* A reduction of one double across the team, combined inside the barrier's
 * messages: the cost over a plain barrier is the payload. */
static void reduce_region(void *p)
{
  struct raw_arg *a = p;
  double in = dsm_proc_id() + 1.0, out = 0;
  dsm__red_t red = { OMPDSM_T_DOUBLE, OMPDSM_RED_ADD, 1, &in, &out };
  for (int i = 0; i < 10; i++) dsm__barrier_red(2, &red);
  wk_begin();
  double t0 = now_ns();
  for (int i = 0; i < a->n; i++) dsm__barrier_red(2, &red);
  wk_end();
  if (dsm_proc_id() == 0) {
    result_ns[6] = (now_ns() - t0) / a->n;
    unsigned n = dsm_nprocs();
    if (out != n * (n + 1) / 2.0) { fprintf(stderr, "dsmbench: wrong reduction %g\n", out); exit(1); }
  }
}

/* ---- page and diff fetches ---------------------------------------------------------------- */

#define FETCH_PAGES 512
DSM_SHARED_BSS static char *fetch_area;

/* Wake-ups of the page fetches, then of the diff fetches (both processes,
 * each window between two barriers). */
DSM_SHARED_BSS static double fetch_wk[2][2];

static void fetch_region(void *p)
{
  (void)p;
  volatile char *area = fetch_area;
  unsigned me = dsm_proc_id();
  dsm_barrier(5);
  int64_t w0 = bench_wakeups();
  if (me == 1) {
    /* Cold: every page arrives whole (DSM_PREFETCH=1 is set by main). */
    double t0 = now_ns();
    for (int i = 0; i < FETCH_PAGES; i++) (void)area[(size_t)i * 4096];
    result_ns[3] = (now_ns() - t0) / FETCH_PAGES;
  }
  dsm_barrier(3);
  fetch_wk[0][me] = (double)(bench_wakeups() - w0);
  if (me == 0)
    for (int i = 0; i < FETCH_PAGES; i++) area[(size_t)i * 4096 + 8] = (char)i;
  dsm_barrier(4);
  w0 = bench_wakeups();
  if (me == 1) {
    /* Copies with one notice each: one round trip per page to refresh it
     * from its home (pushes are off, see main). */
    double t0 = now_ns();
    for (int i = 0; i < FETCH_PAGES; i++)
      if (area[(size_t)i * 4096 + 8] != (char)i) { fprintf(stderr, "dsmbench: wrong data\n"); exit(1); }
    result_ns[4] = (now_ns() - t0) / FETCH_PAGES;
  }
  dsm_barrier(6);
  fetch_wk[1][me] = (double)(bench_wakeups() - w0);
}

/* ---- local costs ----------------------------------------------------------------------------- */

static double bench_memcpy(void)
{
  static char a[4096], b[4096];
  double best = 1e18;
  for (int r = 0; r < 20; r++) {
    double t0 = now_ns();
    for (int i = 0; i < 1000; i++) {
      memcpy(a, b, sizeof a);
      __asm__ volatile("" ::"r"(a) : "memory");
    }
    double t = (now_ns() - t0) / 1000;
    if (t < best) best = t;
  }
  return best;
}

static double bench_diff_encode(void)
{
  static unsigned char twin[4096], page[4096], out[5 * 4096 / 2 + 64];
  for (int i = 0; i < 4096; i++) twin[i] = page[i] = (unsigned char)i;
  for (int i = 0; i < 4096; i += 64) page[i] ^= 0x5a;   /* one word in eight changed */
  double best = 1e18;
  for (int r = 0; r < 20; r++) {
    double t0 = now_ns();
    for (int i = 0; i < 1000; i++) {
      size_t n = dsm__diff_encode(twin, page, 4096, out);
      __asm__ volatile("" ::"r"(n) : "memory");
    }
    double t = (now_ns() - t0) / 1000;
    if (t < best) best = t;
  }
  return best;
}

/* Faults are timed over WF_PAGES pages per round, WF_ROUNDS rounds, and
 * the median round is reported for both the platform and the DSM: the
 * first round of the DSM also grows the pool of twins (fresh memory the
 * kernel allocates and zeroes; later rounds reuse it), which is shown on a
 * row of its own. */
#define WF_PAGES  1024
#define WF_ROUNDS 5

/* The platform's own cost of what a DSM write fault must do at least: take a
 * SIGSEGV on a read-only page and mprotect it writable (no DSM involved).
 * On a paravirtualized VM this alone can cost tens of microseconds. */
static void raw_fault_handler(int sig, siginfo_t *si, void *uc)
{
  (void)sig; (void)uc;
  mprotect((void *)((uintptr_t)si->si_addr & ~(uintptr_t)4095), 4096, PROT_READ | PROT_WRITE);
}

static double bench_raw_fault(void)
{
  size_t n = WF_PAGES;
  char *a = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  for (size_t i = 0; i < n; i++) a[i * 4096] = 1;         /* resident */
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = raw_fault_handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigaction(SIGSEGV, &sa, &old);
  double t[WF_ROUNDS];
  for (int r = 0; r < WF_ROUNDS; r++) {
    mprotect(a, n * 4096, PROT_READ);
    double t0 = now_ns();
    for (size_t i = 0; i < n; i++) a[i * 4096] = 2;
    t[r] = (now_ns() - t0) / n;
  }
  sigaction(SIGSEGV, &old, NULL);
  munmap(a, n * 4096);
  return median(t, WF_ROUNDS);
}

/* In a region of 2: rank 1 reads pages homed at rank 0 (so it holds valid,
 * write-protected copies), then writes each once: one fault that takes a
 * twin per page, the cost a writer pays on a page homed elsewhere. (A home
 * writing its own pages pays nothing while nobody else holds a copy.) Each
 * round has fresh pages (a page only rank 1 writes may move its home there
 * at the barrier), and the barrier's release turns the twins into diffs
 * and returns them to the pool. */
DSM_SHARED_BSS static char *twin_area;
static void write_fault_region(void *p)
{
  (void)p;
  double t[WF_ROUNDS];
  for (int r = 0; r < WF_ROUNDS; r++) {
    if (dsm_proc_id() == 1) {
      volatile char *a = twin_area + (size_t)r * WF_PAGES * 4096;
      for (size_t i = 0; i < WF_PAGES; i++) (void)a[i * 4096];
      double t0 = now_ns();
      for (size_t i = 0; i < WF_PAGES; i++) a[i * 4096] = 1;
      t[r] = (now_ns() - t0) / WF_PAGES;
    }
    dsm_barrier(7);
  }
  if (dsm_proc_id() == 1) {
    result_ns[7] = t[0];
    result_ns[5] = median(t, WF_ROUNDS);
  }
}

/* Synchronization latencies (dsmbench_sync.c), collective over the team. */
DSM_SHARED_BSS static bench_result_t sync_result[5];

static void sync_region(void *p)
{
  (void)p;
  bench_result_t r[5] = { bench_lock_local(), bench_lock_manager(), bench_lock_forward(),
                          bench_sema(), bench_lock_manager_busy() };
  if (dsm_proc_id() == 0)
    memcpy(sync_result, r, sizeof r);
}

static int bench_main(int argc, char **argv)
{
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc) csv = fopen(argv[++i], "w");
    else if (!strcmp(argv[i], "--help")) {
      printf("usage: dsmrun -n 8 dsmbench [--iters N] [--csv FILE]\n"
             "Prints each operation's cost as a ratio to the raw UDP round trip or to a\n"
             "memcpy of one page, measured in the same run.\n");
      return 0;
    }
    else { fprintf(stderr, "dsmbench: error: unknown option '%s'\n", argv[i]); return 2; }
  }
  unsigned n = dsm_nprocs();
  if (n < 2) { fprintf(stderr, "dsmbench: error: run it under dsmrun with at least 2 processes\n"); return 2; }
  struct raw_arg a = { iters };
  int have_wk = bench_wakeups() >= 0;
  printf("dsmbench: %u processes, %d iterations\n", n, iters);
  printf("%-44s %15s %12s %-9s %8s\n", "operation", "time", "ratio", "", "wake-ups");

  dsm__fork_team(rtt_region, &a, sizeof a, 2); dsm_join();
  double rtt = result_ns[0];
  row("raw UDP round trip (1 byte)", rtt, rtt, "udp-rtt", -1);
  /* The median of the blocks' ratios, not the ratio of the medians. */
  row_ratio("transport request/reply (1 byte)", result_ns[1], rtt_ratio, "udp-rtt",
            wk_per_op(2, result_ns[2]));
  dsm__fork_team(bulk_region, &a, sizeof a, 2); dsm_join();
  if (bulk_result[2] > 0) {
    row("raw UDP, 254 KiB answer in 4 datagrams", bulk_result[0], rtt, "udp-rtt", -1);
    row_ratio("transport request, 254 KiB reply", bulk_result[1], bulk_result[2], "raw-bulk", -1);
  } else {
    printf("(bulk reply rows left out: a raw datagram was lost; the receive buffer is too small)\n");
  }
  for (unsigned k = 2; k <= n && k <= 8; k *= 2) {
    dsm__fork_team(barrier_region, &a, sizeof a, k); dsm_join();
    char what[64];
    snprintf(what, sizeof what, "barrier, %u processes", k);
    double bar = result_ns[2];
    row(what, bar, rtt, "udp-rtt", wk_per_op(k, iters));
    if (k > 2 && !getenv("DSMBENCH_PEER")) {
      dsm__fork_team(raw_barrier_region, &a, sizeof a, k); dsm_join();
      snprintf(what, sizeof what, "  raw UDP barrier, %u processes (no DSM)", k);
      row(what, result_ns[2], rtt, "udp-rtt", -1);
      snprintf(what, sizeof what, "  barrier, %u processes / raw UDP barrier", k);
      row(what, bar, result_ns[2], "raw-bar", -1);
    }
  }
  if (n >= 8) {
    dsm__fork_team(reduce_region, &a, sizeof a, 8); dsm_join();
    row("reduction (+, double), 8 processes", result_ns[6], rtt, "udp-rtt", wk_per_op(8, iters));
  }
  fetch_area = dsm_malloc((size_t)FETCH_PAGES * 4096);
  for (int i = 0; i < FETCH_PAGES; i++) fetch_area[(size_t)i * 4096] = 1;
  dsm__fork_team(fetch_region, &a, sizeof a, 2); dsm_join();
  row("page fetch (cold miss, 4 KiB)", result_ns[3], rtt, "udp-rtt",
      have_wk ? (fetch_wk[0][0] + fetch_wk[0][1]) / FETCH_PAGES : -1);
  row("page refresh (one writer's notice)", result_ns[4], rtt, "udp-rtt",
      have_wk ? (fetch_wk[1][0] + fetch_wk[1][1]) / FETCH_PAGES : -1);

  dsm__fork_team(sync_region, &a, sizeof a, n); dsm_join();
  row("lock re-acquire, local (no message)", sync_result[0].ns, rtt, "udp-rtt", sync_result[0].wakeups);
  row("lock acquire granted by the manager", sync_result[1].ns, rtt, "udp-rtt", sync_result[1].wakeups);
  row("  the same, manager still leaving a barrier", sync_result[4].ns, rtt, "udp-rtt",
      sync_result[4].wakeups);
  if (sync_result[2].ns >= 0)
    row("lock acquire forwarded to the last holder", sync_result[2].ns, rtt, "udp-rtt",
        sync_result[2].wakeups);
  row("semaphore signal -> wait", sync_result[3].ns, rtt, "udp-rtt", sync_result[3].wakeups);

  double mc = bench_memcpy();
  row("memcpy of one 4 KiB page", mc, mc, "memcpy", -1);
  twin_area = dsm_malloc((size_t)WF_ROUNDS * WF_PAGES * 4096);
  for (size_t i = 0; i < (size_t)WF_ROUNDS * WF_PAGES; i++) twin_area[i * 4096] = 1;
  dsm__fork_team(write_fault_region, &a, sizeof a, 2); dsm_join();
  row("write fault + twin, first round (new twins)", result_ns[7], mc, "memcpy", -1);
  row("write fault + twin (local)", result_ns[5], mc, "memcpy", -1);
  double rf = bench_raw_fault();
  row("raw SIGSEGV + mprotect (platform, no DSM)", rf, mc, "memcpy", -1);
  row("write fault + twin / raw fault", result_ns[5], rf, "raw-fault", -1);
  /* A fetch cannot cost less than a fault and a round trip: on a guest
   * where a fault costs as much as the round trip (this VM: ~18 us each),
   * the ratio to the round trip alone cannot go below ~2. */
  row("page fetch (cold miss) / (raw fault + rtt)", result_ns[3], rf + rtt, "floor", -1);
  row("page refresh / (raw fault + rtt)", result_ns[4], rf + rtt, "floor", -1);
  row("diff creation of a 4 KiB page (local)", bench_diff_encode(), mc, "memcpy", -1);
  if (have_wk)
    printf("wake-ups: per operation, over the team: of a thread by another of its process, and\n"
           "of a service thread by a datagram or its timer (the waiting thread reading its\n"
           "own reply is the message's, not counted)\n");
  if (csv) fclose(csv);
  return 0;
}

int main(int argc, char **argv)
{
  /* One page per cold miss, so the page-fetch figure is one page's cost;
   * no pushes, so that a refresh is a real round trip; and no write-ahead,
   * so that the write-fault figure is one fault per page (the benchmark
   * writes its pages in order, which write-ahead would turn into a fault
   * per run of 16). */
  setenv("DSM_PREFETCH", "1", 0);
  setenv("DSM_PUSH", "0", 0);
  setenv("DSM_WRITE_AHEAD", "0", 0);
  bulk_buf = malloc(BULK_BYTES);
  if (!bulk_buf) { fprintf(stderr, "dsmbench: out of memory\n"); return 1; }
  for (size_t i = 0; i < BULK_BYTES; i++) bulk_buf[i] = (uint8_t)(i * 131);
  dsm__tp_handle(DSM__MSG_PING, on_bench_ping);
  dsm_main(bench_main, argc, argv);
}
