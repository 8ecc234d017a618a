/*
 * fuzz_datagram.c — the datagram decoder against mutated input, in process.
 *
 * Drives the UDP backend's receive path (dsm__udp_on_datagram, through its
 * private header). A fake job of three ranks is set up (we are rank 0;
 * ranks 1 and 2 have fixed loopback addresses; no socket, so replies go
 * nowhere). Valid datagrams of every kind
 * are built, a few bytes flipped or the length changed, and — for most of
 * them — the MAC recomputed, so that every check behind the MAC is
 * exercised, not just the MAC. Built with AddressSanitizer/UBSan when the
 * compiler has them: any out-of-bounds access fails the test.
 *
 *   fuzz_datagram [iterations] [seed]
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "mac.h"
#include "transport_udp.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return rng;
}

/* Handlers answer, forward or defer, depending on the type. */
static void h_any(const dsm__msg_t *m)
{
  switch (m->type % 3) {
  case 0: dsm__tp_reply(dsm__reqh(m), m->data, m->len > 3000 ? 3000 : m->len); break;
  case 1: dsm__tp_forward(dsm__reqh(m), 2, m->data, m->len > 100 ? 100 : m->len); break;
  default: break;   /* deferred forever */
  }
}

static size_t build(uint8_t *b, size_t cap)
{
  struct hdr h = { .magic = MAGIC };
  h.kind = (uint8_t)(1 + next() % (K_END - 1));
  if (h.kind == K_ABORT) h.kind = K_REQ;      /* ABORT ends the process by design */
  h.type = (uint8_t)(1 + next() % (DSM__MSG_COUNT - 1));
  h.src = 1 + (uint32_t)(next() % 2);
  h.dst = 0;
  h.origin = h.kind == K_REP || h.kind == K_PENDING ? 0 : h.src;
  h.rid = next() % 64;
  h.low = next() % 4 ? 0 : next() % 32;
  h.hops = (uint8_t)(next() % 3 == 0);
  h.flags = (uint8_t)(next() % 8);
  size_t n = 0;
  if (h.kind == K_REQ || h.kind == K_REP) {
    h.fsz = next() % 2 ? 1400 : 300;
    h.total = (uint32_t)(next() % 4 ? next() % h.fsz : next() % (6 * h.fsz));
    uint32_t nfr = h.total ? (h.total + h.fsz - 1) / h.fsz : 1;
    h.off = (uint32_t)(next() % nfr) * h.fsz;
    n = h.total - h.off < h.fsz ? h.total - h.off : h.fsz;
  } else if (h.kind == K_ACK) {
    n = 8 + next() % 40;
  }
  /* ACKs riding in a REQ or REP now and then: ids of one-ways this rank
   * (0) may have outstanding, k as the last byte, sometimes a wrong k. */
  size_t tn = 0;
  unsigned k = 0;
  if ((h.kind == K_REQ || h.kind == K_REP) && next() % 4 == 0) {
    h.flags |= F_ACKS;
    k = 1 + (unsigned)(next() % ACKS_RIDE);
    tn = (size_t)k * ACK_RIDE_LEN + 1;
  }
  DSM__ASSERT(HDR_LEN + n + tn + MAC_LEN <= cap);
  dsm__udp_hdr_put(b, &h);
  for (size_t i = 0; i < n; i++) b[HDR_LEN + i] = (uint8_t)next();
  if (h.kind == K_ACK) {
    put32(b + HDR_LEN, (uint32_t)(next() % 8));
    put32(b + HDR_LEN + 4, (uint32_t)(next() % 300));
  }
  for (unsigned i = 0; i < k; i++)
    put64(b + HDR_LEN + n + (size_t)i * ACK_RIDE_LEN, next() % 64);
  if (tn)
    b[HDR_LEN + n + tn - 1] = (uint8_t)(next() % 16 ? k : next());
  return HDR_LEN + n + tn + MAC_LEN;
}

/* The MAC a sender would have put on b[0, len): over the riding ACKs apart
 * when the header says there are some and the count fits. */
static uint64_t mac_of(const uint8_t *b, size_t len)
{
  size_t body = len - HDR_LEN - MAC_LEN, tn = 0;
  if ((b[6] & F_ACKS) && body) {
    unsigned k = b[len - MAC_LEN - 1];
    if (k >= 1 && k <= ACKS_RIDE && body >= (size_t)k * ACK_RIDE_LEN + 1)
      tn = (size_t)k * ACK_RIDE_LEN + 1;
  }
  return dsm__udp_mac_acks(b, b + HDR_LEN, body - tn, b + HDR_LEN + body - tn, tn);
}

int main(int argc, char **argv)
{
  long iters = argc > 1 ? atol(argv[1]) : 200000;
  if (argc > 2) rng = (uint64_t)atoll(argv[2]) | 1;
  dsm__rank = 0;
  dsm__nprocs = 3;
  dsm__udp_state_init(0, 3);
  U.timeout_ns = 30000000000ull;
  for (unsigned r = 0; r < U.nprocs; r++) {
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)(1000 + r)) };
    a.sin_addr.s_addr = htonl(0x7f000001);
    dsm__udp_set_peer(r, &a);
    dsm__udp_set_peer_reply(r, htons((uint16_t)(2000 + r)));
  }
  dsm__peers_known = 1;
  for (unsigned t = 1; t < DSM__MSG_COUNT; t++)
    U.core.handlers[t] = h_any;
  uint8_t key[16];
  for (unsigned i = 0; i < 16; i++) key[i] = (uint8_t)(i * 7);
  dsm__udp_set_key(key);

  static uint8_t b[70000];
  long accepted = 0;
  /* One-ways of ours for the riding ACKs to find (ids 0..63, to ranks 1
   * and 2; nobody answers them here, so they stay outstanding until ACKed). */
  pthread_mutex_lock(&U.core.mu);
  for (unsigned i = 0; i < 48; i++)
    dsm__udp_send_oneway_locked(1 + i % 2, DSM__MSG_PUSH, dsm__tp_dup(&i, sizeof i), sizeof i, 0);
  pthread_mutex_unlock(&U.core.mu);
  long accepted_acks = 0;
  pthread_mutex_lock(&U.core.mu);
  for (long it = 0; it < iters; it++) {
    /* A flipped bit in `low` makes everything after it stale (correctly);
     * forget it now and then so the delivery paths stay reachable. */
    if (it % 256 == 0)
      memset(U.core.cache.low_seen, 0, U.nprocs * sizeof *U.core.cache.low_seen);
    size_t len = build(b, sizeof b);
    int mutate = (int)(next() % 4);    /* 0: leave valid */
    for (int k = 0; k < mutate; k++) {
      size_t at = next() % 2 ? next() % HDR_LEN : next() % len;
      b[at] ^= (uint8_t)(1u << (next() % 8));
    }
    if (next() % 8 == 0) {
      size_t nl = next() % (len + 64);
      if (nl > len) memset(b + len, (int)next(), nl - len);
      len = nl;
    }
    if (b[4] == K_ABORT) b[4] = K_REQ;
    if (len >= HDR_LEN + MAC_LEN && next() % 10) {
      put64(b + len - MAC_LEN, mac_of(b, len));
      /* The rank table lets src 1 and 2 in; a mutated src must be refused. */
    }
    struct sockaddr_in from = U.peers[1 + get32(b + 8) % 2].addr;
    if (len >= 12 && get32(b + 8) < U.nprocs && get32(b + 8) != 0)
      from = U.peers[get32(b + 8)].addr;
    uint64_t bad_before = dsm__stats.stat_bad_datagrams;
    /* Either socket: each takes only its own kinds of datagram. */
    dsm__udp_on_datagram(b, len, &from, next() % 2 ? SVC : REPLY);
    int ok = dsm__stats.stat_bad_datagrams == bad_before;
    accepted += ok;
    accepted_acks += ok && len > 6 && (b[6] & F_ACKS);
  }
  pthread_mutex_unlock(&U.core.mu);
  printf("fuzz_datagram: %ld datagrams, %ld accepted (%ld with riding ACKs), %llu dropped as "
         "bad, %llu duplicates\n", iters, accepted, accepted_acks,
         (unsigned long long)dsm__stats.stat_bad_datagrams,
         (unsigned long long)dsm__stats.stat_dup_requests);
  if (!accepted || !accepted_acks || !dsm__stats.stat_bad_datagrams ||
      !dsm__stats.stat_dup_requests) {
    fprintf(stderr, "%s:%d: error: fuzzing reached only one side of the checks\n", __FILE__,
            __LINE__);
    return 1;
  }
  return 0;
}
