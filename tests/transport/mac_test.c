/*
 * mac_test.c — SipHash-2-4 against the reference vectors of the paper
 * (key 00 01 .. 0f, message 00 01 .. len-1), and the streaming form against
 * the one-shot form for every split point; NH (nh.c) against its
 * definition written out here byte by byte, at every alignment, and its
 * digests moving when one bit of the block or the key changes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mac.h"
#include "nh.h"

static int failures;

#define CHECK_EQ(a, b) do { unsigned long long a_ = (a), b_ = (b); if (a_ != b_) {            \
    fprintf(stderr, "%s:%d: error: %s == %#llx, expected %s == %#llx\n", __FILE__, __LINE__,    \
            #a, a_, #b, b_); failures++; } } while (0)

/* NH as nh.h defines it, with no shortcut: words little-endian, pairs
 * (2i, 2i+1), sums mod 2^64. */
static uint64_t nh_def(const uint32_t *k, const uint8_t *m)
{
  uint64_t sum = 0;
  for (unsigned i = 0; i < DSM__NH_BLOCK / 4; i += 2) {
    uint32_t a = 0, b = 0;
    for (int j = 3; j >= 0; j--) {
      a = a << 8 | m[4 * i + (unsigned)j];
      b = b << 8 | m[4 * i + 4 + (unsigned)j];
    }
    sum += (uint64_t)(uint32_t)(a + k[i]) * (uint64_t)(uint32_t)(b + k[i + 1]);
  }
  return sum;
}

static void check_nh(const char *impl)
{
  static uint8_t buf[DSM__NH_BLOCK + 16];
  uint8_t key[16];
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 16; i++) key[i] = (uint8_t)(i * 29 + 3);
  dsm__nh_key_t nk;
  dsm__nh_key_init(&nk, key);
  for (int round = 0; round < 64; round++) {
    for (size_t i = 0; i < sizeof buf; i++) {
      x ^= x << 13; x ^= x >> 7; x ^= x << 17;
      /* Some rounds all-ones: the sums must wrap, not saturate. */
      buf[i] = round % 8 == 7 ? 0xff : (uint8_t)x;
    }
    unsigned at = (unsigned)round % 16;
    uint64_t d[2];
    dsm__nh_block(&nk, buf + at, d);
    CHECK_EQ(d[0], nh_def(nk.k, buf + at));
    CHECK_EQ(d[1], nh_def(nk.k + DSM__NH_SHIFT, buf + at));
    /* One flipped bit anywhere changes both digests (NH of two blocks
     * differing in one word differs unless a product collides mod 2^64:
     * impossible when the other factor is odd, likely for random keys). */
    unsigned bit = (unsigned)(x % (DSM__NH_BLOCK * 8));
    buf[at + bit / 8] ^= (uint8_t)(1u << bit % 8);
    uint64_t e[2];
    dsm__nh_block(&nk, buf + at, e);
    CHECK_EQ(e[0], nh_def(nk.k, buf + at));
    if (e[0] == d[0] && e[1] == d[1]) {
      fprintf(stderr, "%s:%d: error: NH (%s): flipping bit %u left both digests unchanged\n",
              __FILE__, __LINE__, impl, bit);
      failures++;
    }
  }
  /* Key expansion depends on every key byte. */
  dsm__nh_key_t nk2;
  key[15] ^= 1;
  dsm__nh_key_init(&nk2, key);
  unsigned same = 0;
  for (unsigned i = 0; i < DSM__NH_KEYWORDS; i++)
    same += nk.k[i] == nk2.k[i];
  if (same > 4) {
    fprintf(stderr, "%s:%d: error: %u of %u NH key words survive a key change\n", __FILE__,
            __LINE__, same, DSM__NH_KEYWORDS);
    failures++;
  }
}

int main(void)
{
  /* Every form this build and CPU have must compute the definition. */
  static const char *const impls[] = { "c", "sse2", "avx2" };
  for (unsigned i = 0; i < sizeof impls / sizeof *impls; i++) {
    if (dsm__nh_use(impls[i]) == 0)
      check_nh(impls[i]);
    else
      printf("NH form %s not available here\n", impls[i]);
  }
  CHECK_EQ(dsm__nh_use("none-such"), -1);
  dsm__nh_use(NULL);
  check_nh("best");
  uint8_t key[16], msg[64];
  for (int i = 0; i < 16; i++) key[i] = (uint8_t)i;
  for (int i = 0; i < 64; i++) msg[i] = (uint8_t)i;
  /* Vectors from the SipHash paper / reference implementation. */
  CHECK_EQ(dsm__siphash(key, msg, 0), 0x726fdb47dd0e0e31ull);
  CHECK_EQ(dsm__siphash(key, msg, 15), 0xa129ca6149be45e5ull);
  /* Streaming in two pieces must agree with one shot at every split. */
  for (size_t len = 0; len <= 64; len++) {
    uint64_t one = dsm__siphash(key, msg, len);
    for (size_t cut = 0; cut <= len; cut++) {
      dsm__sip_t s;
      dsm__sip_init(&s, key);
      dsm__sip_update(&s, msg, cut);
      dsm__sip_update(&s, msg + cut, len - cut);
      CHECK_EQ(dsm__sip_final(&s), one);
    }
  }
  /* A different key gives a different tag. */
  uint8_t key2[16] = { 1 };
  if (dsm__siphash(key2, msg, 15) == dsm__siphash(key, msg, 15)) {
    fprintf(stderr, "%s:%d: error: tags under different keys agree\n", __FILE__, __LINE__);
    failures++;
  }
  printf("mac_test: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
