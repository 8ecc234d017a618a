/*
 * tp_test.c — the UDP transport exercised by real processes under dsmrun.
 *
 *   tp_test MODE [count]
 *
 * MODE is one of
 *   roundtrip  many request/reply exchanges with every peer, contents checked,
 *              then parallel rounds with dsm__tp_call_many to all peers
 *   big        4 MiB request and 4 MiB reply with a checked pattern
 *   dup        a counting handler must run exactly once per call under loss
 *              (run with DSM_LOSS); dup_requests must be > 0 somewhere
 *   loss       many calls under DSM_LOSS, all correct, retransmits > 0
 *   forward    A asks B, B forwards to C, C answers A; deferred replies from
 *              another thread; a barrier whose manager answers all at once;
 *              one-way sends counted exactly once
 *   foreign    datagrams under another key (and garbage) sent into the job
 *              are dropped and counted, and the job still works
 *   bench      small-call round-trip time and 4 MiB transfer time (rank 0)
 *   abort      rank 1 fails; the others must stop on its ABORT (exit 75)
 *   acks       one-ways whose ACKs wait at the receiver (DSM_ACK_DELAY_US
 *              above the retransmission floor): never retransmitted
 *   ride       ranks 0 and 1 bat one-ways back and forth: each carries the
 *              ACK of the one it answers (acks_ridden), so a rally of n
 *              costs about n datagrams a side, not 2n; exactly once
 *              under DSM_LOSS too
 *   lazy       lazy one-ways (dsm__tp_send_lazy) between ranks 0 and 1: taken
 *              in by the receiver's thread when it waits for an event, never
 *              waking its service thread; delivered by a resend to a
 *              receiver that does not wait; handed over by a caller that
 *              reads one while waiting for a reply; exactly once, in order,
 *              under DSM_LOSS too
 *   bulk       rank 0 asks rank 1 for n replies of 256 KiB (5 datagrams on
 *              loopback), contents checked: without loss, the caller sends
 *              no ACK of its own for a reply that came whole (no fragment
 *              bitmaps; the COMPLETE rides in the next request), at most
 *              n + n/10 datagrams in all; under DSM_LOSS, correct
 *   deferred   calls answered 150 ms later by another thread, under DSM_LOSS:
 *              the origin, told PENDING, backs off, so the replier must
 *              resend a lost deferred reply itself (reply_resends > 0)
 *   slow       rank 0 calls rank 1, whose handler takes 30 ms, n times, with
 *              a retransmission floor below that (DSM_RTO_MIN_MS=5): the
 *              first call is resent, and counted spurious; then the caller's
 *              timeout covers the handler's time and at most n/4 calls are
 *              resent (one or more each without it); without loss, every
 *              resend is counted spurious; under DSM_LOSS, the resends of
 *              what was lost are not
 *
 * Every process runs main; each checks what it can see and exits non-zero on
 * the first failure. The launcher reports a failed rank.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "mac.h"
#include "net/transport.h"

static unsigned me, np;

#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: error: rank %u: check failed: %s\n", \
    __FILE__, __LINE__, me, #cond); exit(1); } } while (0)
#define CHECK_EQ(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); if (a_ != b_) {       \
    fprintf(stderr, "%s:%d: error: rank %u: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__,   \
            me, #a, a_, #b, b_); exit(1); } } while (0)

/* A statistic, read while other threads of ours count it. */
#define STAT(name) __atomic_load_n(&dsm__stats.name, __ATOMIC_RELAXED)

/* Message types borrowed for the tests; only their numbers matter here. */
enum {
  T_ECHO = DSM__MSG_PING,
  T_BIG = DSM__MSG_PAGE,
  T_COUNT = DSM__MSG_DIFF,
  T_FWD = DSM__MSG_LOCK,
  T_DEFER = DSM__MSG_COND,
  T_BARRIER = DSM__MSG_BARRIER,
  T_ONEWAY = DSM__MSG_SEMA,
  T_WAITN = DSM__MSG_UNSUB,
  T_SINK = DSM__MSG_FREE,
  T_BALL = DSM__MSG_PUSH,
  T_LAZY = DSM__MSG_PAIRBAR,
  T_LAZYCALL = DSM__MSG_FLUSH,
  T_SLOW = DSM__MSG_STDIO,
};

static uint8_t pattern(size_t i, unsigned seed)
{
  uint32_t x = (uint32_t)(i * 2654435761u) ^ (seed * 40503u);
  return (uint8_t)(x >> 13 ^ x);
}

/* ---- handlers ---------------------------------------------------------------- */

/* ECHO: every byte xor (rank + 1), prefixed with the handler's rank. */
static void on_echo(const dsm__msg_t *m)
{
  uint8_t *r = malloc(m->len + 4);
  memcpy(r, &me, 4);
  for (size_t i = 0; i < m->len; i++)
    r[4 + i] = ((const uint8_t *)m->data)[i] ^ (uint8_t)(me + 1);
  dsm__tp_reply(dsm__reqh(m), r, m->len + 4);
  free(r);
}

/* BIG: request = u32 reply size, then the origin's pattern; reply = our
 * pattern, or nothing if the request was corrupt. */
static void on_big(const dsm__msg_t *m)
{
  const uint8_t *d = m->data;
  uint32_t want;
  int ok = m->len >= 4;
  if (ok) memcpy(&want, d, 4);
  for (size_t i = 4; ok && i < m->len; i++)
    ok = d[i] == pattern(i, m->origin);
  if (!ok) {
    dsm__tp_reply(dsm__reqh(m), NULL, 0);
    return;
  }
  uint8_t *r = malloc(want);
  for (size_t i = 0; i < want; i++) r[i] = pattern(i, me + 100);
  dsm__tp_reply(dsm__reqh(m), r, want);
  free(r);
}

/* SINK (bench): answer with the requested number of bytes, no work. */
static uint8_t *sink_buf;
static void on_sink(const dsm__msg_t *m)
{
  uint32_t want = 0;
  if (m->len >= 4) memcpy(&want, m->data, 4);
  dsm__tp_reply(dsm__reqh(m), sink_buf, want <= (8u << 20) ? want : 0);
}

/* COUNT: how often the handler ran for each origin; the reply is the count. */
static uint64_t *counts;
static void on_count(const dsm__msg_t *m)
{
  uint64_t c = ++counts[m->origin];
  dsm__tp_reply(dsm__reqh(m), &c, sizeof c);
}

/* FWD: payload = hop list (u32 n, u32 ranks...) + u32 value. Each hop doubles
 * the value and forwards to the next; the last adds its rank and answers. */
static void on_fwd(const dsm__msg_t *m)
{
  uint32_t buf[16];
  CHECK(m->len >= 8 && m->len <= sizeof buf);
  memcpy(buf, m->data, m->len);
  uint32_t n = buf[0];
  CHECK(m->len == 4 * (n + 2));
  if (n == 0) {
    uint32_t v = buf[1] + me;
    dsm__tp_reply(dsm__reqh(m), &v, sizeof v);
    return;
  }
  uint32_t next = buf[1];
  memmove(&buf[1], &buf[2], 4 * n);    /* pop the hop, keep the value */
  buf[0] = n - 1;
  buf[n] *= 2;
  dsm__tp_forward(dsm__reqh(m), next, buf, 4 * (n + 1));
}

/* DEFER: answered 20 ms later by a worker thread. */
static pthread_mutex_t dq_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dq_cv = PTHREAD_COND_INITIALIZER;
static dsm__reqh_t dq[64];
static uint32_t dq_val[64];
static useconds_t defer_us = 20000;
static unsigned dq_n;
static int dq_stop;

static void on_defer(const dsm__msg_t *m)
{
  CHECK(m->len == 4);
  pthread_mutex_lock(&dq_mu);
  CHECK(dq_n < 64);
  dq[dq_n] = dsm__reqh(m);
  memcpy(&dq_val[dq_n], m->data, 4);
  dq_n++;
  pthread_cond_signal(&dq_cv);
  pthread_mutex_unlock(&dq_mu);
}

static void *defer_worker(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&dq_mu);
  for (;;) {
    while (!dq_n && !dq_stop)
      pthread_cond_wait(&dq_cv, &dq_mu);
    if (!dq_n && dq_stop)
      break;
    dsm__reqh_t h = dq[0];
    uint32_t v = dq_val[0] * 3;
    memmove(dq, dq + 1, --dq_n * sizeof dq[0]);
    memmove(dq_val, dq_val + 1, dq_n * sizeof dq_val[0]);
    pthread_mutex_unlock(&dq_mu);
    usleep(defer_us);
    dsm__tp_reply(h, &v, sizeof v);
    pthread_mutex_lock(&dq_mu);
  }
  pthread_mutex_unlock(&dq_mu);
  return NULL;
}

static void stop_defer_worker(pthread_t worker)
{
  pthread_mutex_lock(&dq_mu);
  dq_stop = 1;
  pthread_cond_signal(&dq_cv);
  pthread_mutex_unlock(&dq_mu);
  pthread_join(worker, NULL);
}

/* BARRIER at rank 0: the handler keeps every arrival and answers them all
 * when the last one comes in (the service thread answers). */
static dsm__reqh_t *bar_h;
static unsigned bar_n;
static uint32_t bar_epoch;
static void on_barrier(const dsm__msg_t *m)
{
  bar_h[bar_n++] = dsm__reqh(m);
  if (bar_n == np) {
    bar_epoch++;
    for (unsigned i = 0; i < np; i++)
      dsm__tp_reply(bar_h[i], &bar_epoch, sizeof bar_epoch);
    bar_n = 0;
  }
}

static void barrier(void)
{
  dsm__tp_call(0, T_BARRIER, NULL, 0, NULL, NULL);
}

/* ONEWAY: counted per origin. WAITN(n): answered once n one-ways from the
 * asking origin arrived (deferred if not yet). */
static uint64_t *oneway_n;
static dsm__reqh_t *waitn_h;
static uint64_t *waitn_want;
static void waitn_check(unsigned o)
{
  if (waitn_want[o] && oneway_n[o] >= waitn_want[o]) {
    uint64_t v = oneway_n[o];
    waitn_want[o] = 0;
    dsm__tp_reply(waitn_h[o], &v, sizeof v);
  }
}
static void on_oneway(const dsm__msg_t *m)
{
  uint64_t seq;
  CHECK(m->len == 8);
  memcpy(&seq, m->data, 8);
  oneway_n[m->origin]++;
  waitn_check(m->origin);
}
static void on_waitn(const dsm__msg_t *m)
{
  CHECK(m->len == 8);
  waitn_h[m->origin] = dsm__reqh(m);
  memcpy(&waitn_want[m->origin], m->data, 8);
  waitn_check(m->origin);
}

/* ---- modes --------------------------------------------------------------------- */

static void echo_check(unsigned dst, size_t len, unsigned salt)
{
  uint8_t *req = malloc(len ? len : 1);
  for (size_t i = 0; i < len; i++) req[i] = pattern(i, salt);
  void *rep;
  size_t rl;
  dsm__tp_call(dst, T_ECHO, req, len, &rep, &rl);
  CHECK_EQ(rl, len + 4);
  uint32_t who;
  memcpy(&who, rep, 4);
  CHECK_EQ(who, dst);
  for (size_t i = 0; i < len; i++)
    if (((uint8_t *)rep)[4 + i] != (req[i] ^ (uint8_t)(dst + 1))) {
      fprintf(stderr, "rank %u: byte %zu of echo from %u wrong\n", me, i, dst);
      exit(1);
    }
  free(rep);
  free(req);
}

static void mode_roundtrip(long n)
{
  /* Sizes around the fragment boundaries: 1, a few, many datagrams. */
  static const size_t sizes[] = { 0, 1, 100, 1399, 1400, 1401, 4096, 61440, 61441, 200000 };
  for (long i = 0; i < n; i++)
    for (unsigned d = 0; d < np; d++)
      echo_check(d, sizes[(size_t)i % (sizeof sizes / sizeof sizes[0])], (unsigned)i);
  barrier();
  dsm__call_t *cs = calloc(np, sizeof *cs);
  uint32_t *vals = calloc(np, sizeof *vals);
  for (long round = 0; round < n; round++) {
    for (unsigned d = 0; d < np; d++) {
      vals[d] = (uint32_t)(round * 1000 + d);
      cs[d] = (dsm__call_t){ d, T_ECHO, &vals[d], 4, NULL, 0 };
    }
    dsm__tp_call_many(cs, np);
    for (unsigned d = 0; d < np; d++) {
      CHECK_EQ(cs[d].reply_len, 8);
      uint32_t who, v;
      memcpy(&who, cs[d].reply, 4);
      memcpy(&v, (uint8_t *)cs[d].reply + 4, 4);
      CHECK_EQ(who, d);
      uint32_t x = (uint8_t)(d + 1) * 0x01010101u;
      CHECK_EQ(v, vals[d] ^ x);
      free(cs[d].reply);
    }
  }
  free(cs);
  free(vals);
  barrier();
}

/* The reply big_exchange expects from dst, made once per (dst, length): a
 * check through pattern() byte by byte took 5-12 ms per 256 KiB under
 * ThreadSanitizer, as long as the ACK delay the bulk test allows for the
 * next request, so that test measured the checker's speed, not the
 * transport's datagrams. */
static const uint8_t *expected_reply(unsigned dst, size_t len)
{
  static struct { unsigned dst; size_t len; uint8_t *buf; } made[4];
  static unsigned nmade;
  for (unsigned i = 0; i < nmade; i++)
    if (made[i].dst == dst && made[i].len == len)
      return made[i].buf;
  unsigned i = nmade < 4 ? nmade++ : 3;
  free(made[i].buf);
  made[i].dst = dst;
  made[i].len = len;
  made[i].buf = malloc(len ? len : 1);
  CHECK(made[i].buf);
  for (size_t k = 0; k < len; k++) made[i].buf[k] = pattern(k, dst + 100);
  return made[i].buf;
}

static void big_exchange(unsigned dst, size_t req_len, size_t rep_len)
{
  uint8_t *req = malloc(req_len);
  uint32_t want = (uint32_t)rep_len;
  memcpy(req, &want, 4);
  for (size_t i = 4; i < req_len; i++) req[i] = pattern(i, me);
  void *rep;
  size_t rl;
  dsm__tp_call(dst, T_BIG, req, req_len, &rep, &rl);
  CHECK_EQ(rl, rep_len);
  const uint8_t *expect = expected_reply(dst, rl);
  if (memcmp(rep, expect, rl))
    for (size_t i = 0; i < rl; i++)
      if (((uint8_t *)rep)[i] != expect[i]) {
        fprintf(stderr, "rank %u: byte %zu of big reply from %u wrong\n", me, i, dst);
        exit(1);
      }
  free(rep);
  free(req);
}

static void mode_big(long n)
{
  for (long i = 0; i < n; i++)
    big_exchange((me + 1) % np, 4u << 20, 4u << 20);
  big_exchange(me, 1u << 20, 1u << 20);   /* to self, through the same path */
  barrier();
}

/* See the top. Each reply fits in the sender's window, so nothing asks for
 * an ACK before it is whole (F_WANTACK, transport_udp_frag.c), and its
 * COMPLETE waits for the next request to the same peer (acks_ridden). With
 * an ACK per batch read and a COMPLETE of its own, as before, the caller
 * sent 2-4 datagrams per call. */
static void mode_bulk(long n)
{
  CHECK(np >= 2);
  if (me == 0) {
    uint64_t d0 = STAT(stat_datagrams_sent), r0 = STAT(stat_acks_ridden);
    for (long i = 0; i < n; i++)
      big_exchange(1, 64, 256u << 10);
    uint64_t dgrams = STAT(stat_datagrams_sent) - d0, ridden = STAT(stat_acks_ridden) - r0;
    fprintf(stderr, "rank 0: %ld calls with 256 KiB replies: %llu datagrams sent, %llu ACKs "
            "ridden, %llu retransmits\n", n, (unsigned long long)dgrams,
            (unsigned long long)ridden, (unsigned long long)STAT(stat_retransmits));
    const char *loss = getenv("DSM_LOSS");
    if (!loss || atof(loss) == 0) {
      CHECK(dgrams <= (uint64_t)n + (uint64_t)n / 10);
      CHECK(ridden >= (uint64_t)n - (uint64_t)n / 10 - 1);
    }
  }
  barrier();
}

/* SLOW: answers after 30 ms, as a handler that computes would. */
#define SLOW_MS 30
static void on_slow(const dsm__msg_t *m)
{
  struct timespec t = { 0, SLOW_MS * 1000000L };
  while (nanosleep(&t, &t))
    ;
  uint64_t v = m->rid;
  dsm__tp_reply(dsm__reqh(m), &v, sizeof v);
}

static void mode_slow(long n)
{
  CHECK(np >= 2);
  const char *loss = getenv("DSM_LOSS");
  int lossy = loss && atof(loss) > 0;
  if (me == 0) {
    uint64_t r0 = STAT(stat_retransmits), s0 = STAT(stat_spurious_retransmits);
    for (long i = 0; i < n; i++) {
      void *rep;
      size_t rl;
      dsm__tp_call(1, T_SLOW, NULL, 0, &rep, &rl);
      CHECK_EQ(rl, 8);
      free(rep);
      if (i == 0) {
        /* The timeout knew nothing of the handler yet. */
        CHECK(STAT(stat_retransmits) > r0);
        if (!lossy)
          CHECK(STAT(stat_spurious_retransmits) > s0);
      }
    }
    uint64_t rt = STAT(stat_retransmits) - r0, sp = STAT(stat_spurious_retransmits) - s0;
    fprintf(stderr, "rank 0: %ld calls to a %d ms handler: %llu retransmits, %llu spurious\n",
            n, SLOW_MS, (unsigned long long)rt, (unsigned long long)sp);
    /* Under loss, the resends of what was lost were needed, and are not
     * counted: the spurious ones stay those of the first calls. */
    CHECK(sp <= (uint64_t)n / 4);
    if (!lossy) {
      CHECK(rt <= (uint64_t)n / 4);
      CHECK_EQ(sp, rt);
    }
  }
  barrier();
}

static void mode_count(long n, int expect_dups)
{
  for (long i = 1; i <= n; i++)
    for (unsigned d = 0; d < np; d++) {
      if (d == me) continue;
      void *rep;
      size_t rl;
      dsm__tp_call(d, T_COUNT, NULL, 0, &rep, &rl);
      CHECK_EQ(rl, 8);
      uint64_t c;
      memcpy(&c, rep, 8);
      free(rep);
      CHECK_EQ(c, i);   /* the handler ran exactly once per call */
    }
  barrier();
  for (unsigned o = 0; o < np; o++)
    CHECK_EQ(counts[o], o == me ? 0 : n);
  /* Every rank got n requests per peer; under this much loss some reply was
   * lost and its request came back as a duplicate. */
  if (expect_dups) {
    fprintf(stderr, "rank %u: dup_requests %llu retransmits %llu\n", me,
            (unsigned long long)STAT(stat_dup_requests),
            (unsigned long long)STAT(stat_retransmits));
    CHECK(STAT(stat_dup_requests) > 0);
    CHECK(STAT(stat_retransmits) > 0);
  }
}

static void mode_loss(long n)
{
  for (long i = 0; i < n; i++)
    echo_check((me + 1 + (unsigned)i % (np - 1)) % np, (size_t)(i % 5) * 700, (unsigned)i);
  barrier();
  fprintf(stderr, "rank %u: retransmits %llu\n", me,
          (unsigned long long)STAT(stat_retransmits));
  CHECK(STAT(stat_retransmits) > 0);
}

static void mode_forward(long n)
{
  CHECK(np >= 2);
  pthread_t worker;
  pthread_create(&worker, NULL, defer_worker, NULL);
  for (long i = 0; i < n; i++) {
    /* A -> B -> C -> A's answer, with every rank as B and C in turn. */
    unsigned b = (me + 1 + (unsigned)i) % np, c = (me + 2 + (unsigned)i) % np;
    uint32_t msg[3] = { 1, c, (uint32_t)i + 7 };
    void *rep;
    size_t rl;
    dsm__tp_call(b, T_FWD, msg, sizeof msg, &rep, &rl);
    CHECK_EQ(rl, 4);
    uint32_t v;
    memcpy(&v, rep, 4);
    free(rep);
    CHECK_EQ(v, 2 * ((uint32_t)i + 7) + c);
    /* two hops */
    uint32_t msg2[4] = { 2, c, b, (uint32_t)i };
    dsm__tp_call(b, T_FWD, msg2, sizeof msg2, &rep, &rl);
    CHECK_EQ(rl, 4);
    memcpy(&v, rep, 4);
    free(rep);
    CHECK_EQ(v, 4 * (uint32_t)i + b);
  }
  /* Deferred replies answered by another thread, in one parallel round. */
  dsm__call_t *cs = calloc(np, sizeof *cs);
  uint32_t *vals = calloc(np, sizeof *vals);
  for (unsigned d = 0; d < np; d++) {
    vals[d] = 11 * d + me;
    cs[d] = (dsm__call_t){ d, T_DEFER, &vals[d], 4, NULL, 0 };
  }
  dsm__tp_call_many(cs, np);
  for (unsigned d = 0; d < np; d++) {
    uint32_t v;
    CHECK_EQ(cs[d].reply_len, 4);
    memcpy(&v, cs[d].reply, 4);
    CHECK_EQ(v, 3 * vals[d]);
    free(cs[d].reply);
  }
  free(cs);
  free(vals);
  /* Barriers: the manager answers everyone from its handler. */
  for (long i = 0; i < n; i++)
    barrier();
  /* One-ways: n to every peer, then wait until the peer counted them all. */
  for (unsigned d = 0; d < np; d++)
    for (long i = 0; i < n; i++) {
      uint64_t seq = (uint64_t)i;
      dsm__tp_send(d, T_ONEWAY, &seq, sizeof seq);
    }
  for (unsigned d = 0; d < np; d++) {
    uint64_t want = (uint64_t)n, got;
    void *rep;
    size_t rl;
    dsm__tp_call(d, T_WAITN, &want, sizeof want, &rep, &rl);
    CHECK_EQ(rl, 8);
    memcpy(&got, rep, 8);
    free(rep);
    CHECK_EQ(got, n);
  }
  barrier();
  for (unsigned o = 0; o < np; o++)
    CHECK_EQ(oneway_n[o], n);    /* exactly once, not more */
  stop_defer_worker(worker);
}

/* ACKs of one-way messages wait at the receiver to travel together
 * (dsm/net/transport_udp_acks.c). Run with DSM_ACK_DELAY_US far above the
 * retransmission floor: the wait is capped at a quarter of the floor, so a
 * one-way is never sent twice for want of its ACK. Every rank but 0 sends
 * n one-ways to rank 0 with idle gaps of three floors between them (nothing
 * else goes back, so only the ACK timer can answer): none is sent twice.
 * Then a burst of 20 n, and a call to rank 0 that confirms the count (the
 * reply, and the ACKs riding after it): each one-way counted once. (Run
 * with a 40 ms floor: an ACK 10 ms late is normal on a loaded host, and the
 * burst's confirmation may be retransmitted legitimately.) */
static void mode_acks(long n)
{
  CHECK(np >= 2);
  uint64_t floor_us = (uint64_t)dsm__env_long("DSM_RTO_MIN_MS", 10, 1, 1000) * 1000;
  if (me != 0) {
    uint64_t seq = 0, rt0 = STAT(stat_retransmits);
    for (long i = 0; i < n; i++, seq++) {
      dsm__tp_send(0, T_ONEWAY, &seq, sizeof seq);
      usleep((useconds_t)(3 * floor_us));
    }
    /* Only the ACK timer could answer these, within a quarter of the
     * floor: one sent again means it waited the whole floor. */
    CHECK_EQ(STAT(stat_retransmits) - rt0, 0);
    for (long i = 0; i < 20 * n; i++, seq++)
      dsm__tp_send(0, T_ONEWAY, &seq, sizeof seq);
    uint64_t want = seq, got;
    void *rep;
    size_t rl;
    dsm__tp_call(0, T_WAITN, &want, sizeof want, &rep, &rl);
    CHECK_EQ(rl, 8);
    memcpy(&got, rep, 8);
    free(rep);
    CHECK_EQ(got, 21 * n);
  }
  barrier();
  if (me == 0)
    for (unsigned o = 1; o < np; o++)
      CHECK_EQ(oneway_n[o], 21 * n);
}

/* BALL: a one-way carrying its number in the rally; the handler checks
 * the order (exactly once, in order) and wakes the main thread. */
static pthread_mutex_t ball_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ball_cv = PTHREAD_COND_INITIALIZER;
static uint64_t balls;
static void on_ball(const dsm__msg_t *m)
{
  uint64_t seq;
  CHECK(m->len == 8);
  memcpy(&seq, m->data, 8);
  pthread_mutex_lock(&ball_mu);
  CHECK_EQ(seq, balls);
  balls++;
  pthread_cond_signal(&ball_cv);
  pthread_mutex_unlock(&ball_mu);
}

static void wait_balls(uint64_t n)
{
  pthread_mutex_lock(&ball_mu);
  while (balls < n)
    pthread_cond_wait(&ball_cv, &ball_mu);
  pthread_mutex_unlock(&ball_mu);
}

/* ACKs riding inside datagrams (dsm/net/transport_udp_acks.c): rank 0 sends
 * one-way ball i, rank 1 answers with its ball i, and so on. Each ball's
 * ACK waits at its receiver and leaves inside the answering ball: without
 * that, every ball would be followed by an ACK datagram of its own.
 * Checked: the handler saw every ball once and in order; without loss,
 * nearly every ball after the first carried the ACK of the one it answered
 * and the rally took at most n + n/20 datagrams from each side (ACKs left
 * alone make it 2n). Run with ACKs held up to 10 ms (DSM_ACK_DELAY_US, a
 * 40 ms floor): at the default 500 us, an answer slower than that (a
 * sanitizer build) let an ACK go alone. */
static void mode_ride(long n)
{
  CHECK(np >= 2);
  if (me < 2) {
    unsigned peer = 1 - me;
    uint64_t d0 = STAT(stat_datagrams_sent), r0 = STAT(stat_acks_ridden);
    for (uint64_t i = 0; i < (uint64_t)n; i++) {
      if (me == 1)
        wait_balls(i + 1);
      dsm__tp_send(peer, T_BALL, &i, sizeof i);
      if (me == 0)
        wait_balls(i + 1);
    }
    uint64_t dgrams = STAT(stat_datagrams_sent) - d0,
             ridden = STAT(stat_acks_ridden) - r0;
    fprintf(stderr, "rank %u: a rally of %ld one-ways: %llu datagrams sent, %llu ACKs ridden, "
            "%llu retransmits\n", me, n, (unsigned long long)dgrams,
            (unsigned long long)ridden, (unsigned long long)STAT(stat_retransmits));
    const char *loss = getenv("DSM_LOSS");
    if (!loss || atof(loss) == 0) {
      CHECK(ridden >= (uint64_t)n - (uint64_t)n / 20);
      CHECK(dgrams <= (uint64_t)n + (uint64_t)n / 20);
    } else {
      CHECK(ridden > 0);
    }
  }
  barrier();
  pthread_mutex_lock(&ball_mu);
  CHECK_EQ(balls, me < 2 ? n : 0);
  pthread_mutex_unlock(&ball_mu);
}

/* LAZY: lazy balls, counted in order; which thread ran the handler is
 * noted (the main thread, waiting for the event, or another). LAZYCALL: a
 * lazy ball sent back to the caller, then the reply. */
static dsm__tp_event_t lazy_ev = DSM__TP_EVENT_INIT;
static uint64_t lazies, lazies_off_main;
static pthread_t main_thread;
static void on_lazy(const dsm__msg_t *m)
{
  uint64_t seq;
  CHECK(m->len == 8);
  memcpy(&seq, m->data, 8);
  uint64_t have = __atomic_load_n(&lazies, __ATOMIC_ACQUIRE);
  CHECK_EQ(seq, have);
  if (!pthread_equal(pthread_self(), main_thread))
    __atomic_add_fetch(&lazies_off_main, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&lazies, have + 1, __ATOMIC_RELEASE);
  dsm__tp_event_fire(&lazy_ev);
}
static void on_lazycall(const dsm__msg_t *m)
{
  uint64_t seq;
  CHECK(m->len == 8);
  memcpy(&seq, m->data, 8);
  dsm__tp_send_lazy(m->origin, T_LAZY, &seq, sizeof seq);
  dsm__tp_reply(dsm__reqh(m), NULL, 0);
}
static void wait_lazies(uint64_t n)
{
  while (__atomic_load_n(&lazies, __ATOMIC_ACQUIRE) < n)
    dsm__tp_event_wait(&lazy_ev);
}

/* Three parts, between ranks 0 and 1 (others join the barriers):
 * 1. A rally of n lazy balls, each sent while its receiver sleeps 2 ms and
 *    then waited for: the receiver's own thread takes each in when it
 *    waits. Without loss: no ball was handled off the main thread unless
 *    its sender resent it, the service thread woke for at most n/10
 *    datagrams or timers (and one per resend, heard or made), no more than twice by
 *    a timer with nothing due, and every ball went lazily (lazy_sent).
 *    (Sending them with dsm__tp_send instead fails the first two.)
 * 2. Rank 0 sends one lazy ball and rank 1 never waits in the transport
 *    (it polls the count while sleeping): it comes by a resend to the
 *    service socket (rank 0 retransmitted), and the service thread runs
 *    it.
 * 3. Rank 1 calls rank 0, which sends it a lazy ball before the reply: the
 *    caller reads the ball from the reply socket and hands it over
 *    (lazy_handed); it runs once rank 1 waits for it. */
static void mode_lazy(long n)
{
  CHECK(np >= 2);
  const char *loss = getenv("DSM_LOSS");
  int lossy = loss && atof(loss) > 0;
  if (me < 2) {
    unsigned peer = 1 - me;
    uint64_t w0 = STAT(stat_svc_net_wakes), s0 = STAT(stat_lazy_sent);
    uint64_t i0 = STAT(stat_svc_idle_timer_wakes), h0 = STAT(stat_resends_heard);
    uint64_t r0 = STAT(stat_retransmits);
    /* Rank 1 serves first: rank 0, the barrier's manager, left it before
     * rank 1 did, and a first ball of its could find rank 1 still in the
     * barrier's call, whose reader hands it over (part 3). */
    for (uint64_t i = 0; i < (uint64_t)n; i++) {
      if (me == 0) {
        usleep(2000);
        wait_lazies(i + 1);
      }
      dsm__tp_send_lazy(peer, T_LAZY, &i, sizeof i);
      if (me == 1) {
        usleep(2000);
        wait_lazies(i + 1);
      }
    }
    uint64_t wakes = STAT(stat_svc_net_wakes) - w0, sent = STAT(stat_lazy_sent) - s0;
    uint64_t idle = STAT(stat_svc_idle_timer_wakes) - i0, heard = STAT(stat_resends_heard) - h0;
    uint64_t resent = STAT(stat_retransmits) - r0;
    fprintf(stderr, "rank %u: a rally of %ld lazy one-ways: %llu sent lazily, %llu handled off "
            "the waiting thread, %llu service thread wake-ups (%llu by a timer with nothing "
            "due), %llu retransmits, %llu resends heard\n", me, n, (unsigned long long)sent,
            (unsigned long long)lazies_off_main, (unsigned long long)wakes,
            (unsigned long long)idle, (unsigned long long)resent, (unsigned long long)heard);
    CHECK_EQ(lazies, n);
    if (!lossy) {
      CHECK_EQ(sent, n);
      /* Only a ball its sender resent (its ACK was late: this process was
       * kept off the CPU for a timeout) may reach the service socket. */
      CHECK(lazies_off_main <= heard);
      CHECK(wakes <= (uint64_t)n / 10 + heard + resent);
      /* Each ball's ACK came in time and took its deadline with it: the
       * timer is moved on, not left to wake the service thread (before
       * 2026-12-07 it did so once per timeout, 8-12 times here under load). */
      CHECK(idle <= 2);
    }
  }
  barrier();
  /* 2: nobody waits. Rank 1 says (a ball) when it is past the barrier's
   * call, which would read the lazy one from the reply socket. */
  if (me == 0) {
    uint64_t r0 = STAT(stat_retransmits), i = (uint64_t)n;
    wait_balls(1);
    dsm__tp_send_lazy(1, T_LAZY, &i, sizeof i);
    barrier();
    CHECK(STAT(stat_retransmits) > r0);
  } else if (me == 1) {
    uint64_t off0 = lazies_off_main, b = 0;
    dsm__tp_send(0, T_BALL, &b, sizeof b);
    for (int t = 0; t < 10000 && __atomic_load_n(&lazies, __ATOMIC_ACQUIRE) < (uint64_t)n + 1; t++)
      usleep(1000);
    CHECK_EQ(lazies, n + 1);
    CHECK_EQ(lazies_off_main, off0 + 1);
    barrier();
  } else {
    barrier();
  }
  /* 3: a caller reads it. */
  if (me == 1) {
    uint64_t h0 = STAT(stat_lazy_handed), i = (uint64_t)n + 1;
    dsm__tp_call(0, T_LAZYCALL, &i, sizeof i, NULL, NULL);
    wait_lazies(i + 1);
    fprintf(stderr, "rank 1: lazy one-ways handed over by a caller: %llu\n",
            (unsigned long long)(STAT(stat_lazy_handed) - h0));
    if (!lossy)
      CHECK(STAT(stat_lazy_handed) > h0);
  }
  barrier();
  CHECK_EQ(lazies, me == 1 ? n + 2 : me == 0 ? n : 0);
}

static void mode_deferred(long n)
{
  CHECK(np >= 2);
  defer_us = 150000;
  pthread_t worker;
  pthread_create(&worker, NULL, defer_worker, NULL);
  unsigned to = (me + 1) % np;
  uint64_t t0 = dsm__now_ns();
  for (long i = 0; i < n; i++) {
    uint32_t v = (uint32_t)i * 5 + me, got;
    void *rep;
    size_t rl;
    dsm__tp_call(to, T_DEFER, &v, sizeof v, &rep, &rl);
    CHECK_EQ(rl, 4);
    memcpy(&got, rep, 4);
    free(rep);
    CHECK_EQ(got, 3 * v);
  }
  double ms = (double)(dsm__now_ns() - t0) / 1e6 / (double)n;
  barrier();
  fprintf(stderr, "rank %u: %ld deferred calls, %.1f ms each (150 ms of it the deferral), "
          "%llu deferred replies resent, %llu retransmits\n", me, n, ms,
          (unsigned long long)STAT(stat_reply_resends),
          (unsigned long long)STAT(stat_retransmits));
  CHECK(STAT(stat_reply_resends) > 0);
  stop_defer_worker(worker);
}

/* Datagrams from outside the job: garbage, too short, and a well-formed
 * datagram whose MAC is computed under another key. */
static void mode_foreign(long n)
{
  const char *m = getenv("DSM_MASTER");
  CHECK(m && strchr(m, ':'));
  struct sockaddr_in a = { .sin_family = AF_INET };
  char host[64];
  snprintf(host, sizeof host, "%.*s", (int)(strchr(m, ':') - m), m);
  CHECK(inet_pton(AF_INET, host, &a.sin_addr) == 1);
  a.sin_port = htons((uint16_t)atoi(strchr(m, ':') + 1));
  int s = socket(AF_INET, SOCK_DGRAM, 0);
  CHECK(s >= 0);
  const unsigned sent = 3;
  if (me == np - 1) {
    uint8_t d[120];
    memset(d, 0, sizeof d);
    /* 1: too short */
    sendto(s, "hi", 2, 0, (struct sockaddr *)&a, sizeof a);
    /* 2: an ECHO request to rank 0 from rank me, MAC'd under a wrong key */
    uint32_t v32;
    v32 = 0x314d5344u; memcpy(d, &v32, 4);
    d[4] = 1; d[5] = T_ECHO;
    v32 = me; memcpy(d + 8, &v32, 4);
    v32 = 0; memcpy(d + 12, &v32, 4);
    v32 = me; memcpy(d + 16, &v32, 4);
    v32 = 1400; memcpy(d + 20, &v32, 4);
    uint64_t v64 = 1u << 30; memcpy(d + 24, &v64, 8);
    v32 = 4; memcpy(d + 40, &v32, 4);
    uint8_t wrong[16] = { 0xde, 0xad };
    uint64_t mac = dsm__siphash(wrong, d, 52);
    memcpy(d + 52, &mac, 8);
    sendto(s, d, 60, 0, (struct sockaddr *)&a, sizeof a);
    /* 3: random bytes */
    for (size_t i = 0; i < sizeof d; i++) d[i] = pattern(i, 77);
    sendto(s, d, sizeof d, 0, (struct sockaddr *)&a, sizeof a);
  }
  close(s);
  barrier();
  if (me == 0) {
    fprintf(stderr, "rank 0: bad_datagrams %llu\n",
            (unsigned long long)STAT(stat_bad_datagrams));
    CHECK(STAT(stat_bad_datagrams) >= sent);
  }
  mode_roundtrip(n);   /* and the job still works */
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void mode_bench(long n)
{
  if (me == 0) {
    CHECK(np >= 2);
    uint64_t x = 0;
    for (int i = 0; i < 200; i++)     /* warm up, let the RTT settle */
      dsm__tp_call(1, T_ECHO, &x, sizeof x, NULL, NULL);
    uint64_t *lat = calloc((size_t)n, sizeof *lat);
    uint64_t t0 = dsm__now_ns();
    for (long i = 0; i < n; i++) {
      uint64_t a = dsm__now_ns();
      dsm__tp_call(1, T_ECHO, &x, sizeof x, NULL, NULL);
      lat[i] = dsm__now_ns() - a;
    }
    uint64_t t1 = dsm__now_ns();
    qsort(lat, (size_t)n, sizeof *lat, cmp_u64);
    printf("small call round trip: %.1f us (%ld calls; median %.1f, 90%% %.1f, 99%% %.1f, "
           "max %.1f us)\n", (t1 - t0) / 1e3 / n, n, lat[n / 2] / 1e3, lat[n * 9 / 10] / 1e3,
           lat[n * 99 / 100] / 1e3, lat[n - 1] / 1e3);
    free(lat);
    /* Replies of 64 KiB: two datagrams on loopback, a typical page-fetch. */
    for (uint32_t sz = 4096; sz <= 65536 * 4; sz *= 4) {
      uint64_t t5 = dsm__now_ns();
      for (int i = 0; i < 500; i++) {
        void *r;
        size_t rl;
        dsm__tp_call(1, T_SINK, &sz, 4, &r, &rl);
        CHECK_EQ(rl, sz);
        free(r);
      }
      printf("%u-byte reply: %.1f us per call\n", sz, (dsm__now_ns() - t5) / 1e3 / 500);
    }
    /* Transfers only: buffers are ready, the handler just answers. */
    uint8_t *req = calloc(1, 4u << 20);
    uint32_t small = 4, big = 4u << 20;
    double best_req = 1e9, best_rep = 1e9, sum_req = 0, sum_rep = 0;
    const int reps = 10;
    for (int rep = 0; rep < reps + 1; rep++) {
      void *r;
      size_t rl;
      memcpy(req, &small, 4);
      uint64_t t2 = dsm__now_ns();
      dsm__tp_call(1, T_SINK, req, 4u << 20, &r, &rl);
      uint64_t t3 = dsm__now_ns();
      free(r);
      dsm__tp_call(1, T_SINK, &big, 4, &r, &rl);
      uint64_t t4 = dsm__now_ns();
      CHECK_EQ(rl, 4u << 20);
      free(r);
      if (rep == 0) continue;   /* the first one warms up buffers and estimates */
      double a = (t3 - t2) / 1e6, b = (t4 - t3) / 1e6;
      sum_req += a; sum_rep += b;
      if (a < best_req) best_req = a;
      if (b < best_rep) best_rep = b;
    }
    printf("4 MiB request: mean %.2f ms best %.2f ms; 4 MiB reply: mean %.2f ms best %.2f ms\n",
           sum_req / reps, best_req, sum_rep / reps, best_rep);
    free(req);
    printf("retransmits %llu datagrams_sent %llu\n",
           (unsigned long long)STAT(stat_retransmits),
           (unsigned long long)STAT(stat_datagrams_sent));
  }
  barrier();
}

/* Rank 1 fails; the others are blocked in a call to it and must stop with
 * DSM__EXIT_PEER_LOST because of its ABORT, long before the liveness timeout. */
static void mode_abort(long n)
{
  (void)n;
  if (me == 1)
    dsm__fatal(DSM__EXIT_FATAL, "tp_test: failing on purpose");
  dsm__tp_call(1, T_DEFER, &me, 4, NULL, NULL);
  fprintf(stderr, "rank %u: call to a failed rank returned\n", me);
  exit(1);
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s roundtrip|big|dup|loss|forward|foreign|acks|ride|lazy|bulk|deferred|bench|abort [n]\n", argv[0]);
    return 2;
  }
  me = (unsigned)dsm__env_long("DSM_RANK", 0, 0, 65535);
  np = (unsigned)dsm__env_long("DSM_SIZE", 1, 1, 65536);
  dsm__rank = me;
  dsm__nprocs = np;
  dsm__verbose = getenv("DSM_DEBUG") && atoi(getenv("DSM_DEBUG"));
  long n = argc > 2 ? atol(argv[2]) : 50;
  counts = calloc(np, sizeof *counts);
  oneway_n = calloc(np, sizeof *oneway_n);
  waitn_h = calloc(np, sizeof *waitn_h);
  waitn_want = calloc(np, sizeof *waitn_want);
  bar_h = calloc(np, sizeof *bar_h);
  dsm__tp_handle(T_ECHO, on_echo);
  dsm__tp_handle(T_BIG, on_big);
  dsm__tp_handle(T_COUNT, on_count);
  dsm__tp_handle(T_FWD, on_fwd);
  dsm__tp_handle(T_DEFER, on_defer);
  dsm__tp_handle(T_BARRIER, on_barrier);
  dsm__tp_handle(T_ONEWAY, on_oneway);
  dsm__tp_handle(T_WAITN, on_waitn);
  dsm__tp_handle(T_SINK, on_sink);
  dsm__tp_handle(T_BALL, on_ball);
  dsm__tp_handle(T_LAZY, on_lazy);
  dsm__tp_handle(T_LAZYCALL, on_lazycall);
  dsm__tp_handle(T_SLOW, on_slow);
  sink_buf = calloc(1, 8u << 20);
  main_thread = pthread_self();   /* before a peer's first lazy ball can come */
  dsm__tp_init(me, np);
  barrier();
  const char *mode = argv[1];
  if (!strcmp(mode, "roundtrip")) mode_roundtrip(n);
  else if (!strcmp(mode, "big")) mode_big(n);
  else if (!strcmp(mode, "dup")) mode_count(n, 1);
  else if (!strcmp(mode, "count")) mode_count(n, 0);
  else if (!strcmp(mode, "loss")) mode_loss(n);
  else if (!strcmp(mode, "forward")) mode_forward(n);
  else if (!strcmp(mode, "foreign")) mode_foreign(n);
  else if (!strcmp(mode, "bench")) mode_bench(n);
  else if (!strcmp(mode, "abort")) mode_abort(n);
  else if (!strcmp(mode, "deferred")) mode_deferred(n);
  else if (!strcmp(mode, "acks")) mode_acks(n);
  else if (!strcmp(mode, "ride")) mode_ride(n);
  else if (!strcmp(mode, "lazy")) mode_lazy(n);
  else if (!strcmp(mode, "bulk")) mode_bulk(n);
  else if (!strcmp(mode, "slow")) mode_slow(n);
  else { fprintf(stderr, "unknown mode %s\n", mode); return 2; }
  dsm__tp_shutdown();
  fprintf(stderr, "rank %u: %s ok (datagrams sent %llu, retransmits %llu, dups %llu, bad %llu)\n",
          me, mode, (unsigned long long)STAT(stat_datagrams_sent),
          (unsigned long long)STAT(stat_retransmits),
          (unsigned long long)STAT(stat_dup_requests),
          (unsigned long long)STAT(stat_bad_datagrams));
  return 0;
}
