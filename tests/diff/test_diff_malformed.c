/*
 * test_diff_malformed.c — diffs that must be rejected: truncated headers and
 * payloads, runs outside the page, huge lengths, runs out of order,
 * overlapping or touching, invalid page sizes. A rejected diff must leave the
 * page untouched, even when its first runs were valid. Every diff is placed
 * so that it ends exactly at a PROT_NONE guard page: a read past diff+len
 * crashes the test.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "diff.h"
#include "ref.h"

#define PS 4096

static unsigned char *guard_area;  /* GUARD_BYTES readable, then a PROT_NONE page */
static size_t guard_bytes;

static void setup_guard(void)
{
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  guard_bytes = 48 * pg;           /* more than dsm__diff_max(65536) */
  unsigned char *m = mmap(NULL, guard_bytes + pg, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_TRUE(m != MAP_FAILED);
  ASSERT_EQ(mprotect(m + guard_bytes, pg, PROT_NONE), 0);
  guard_area = m;
}

/* Copy diff so that its last byte is the last readable byte. */
static const unsigned char *at_guard(const void *diff, size_t len)
{
  ASSERT_LE(len, guard_bytes);
  unsigned char *d = guard_area + guard_bytes - len;
  memcpy(d, diff, len);
  return d;
}

static unsigned char page[PS], saved[PS];

/* Expect rejection by both entry points, with page unchanged. */
static void expect_bad(const char *what, const unsigned char *diff, size_t len, size_t n)
{
  snprintf(check_context, sizeof check_context, "%s (len %zu, page %zu)", what, len, n);
  for (size_t k = 0; k < PS; k++)
    page[k] = (unsigned char)(k ^ 0xa5);
  memcpy(saved, page, PS);
  const unsigned char *d = at_guard(diff, len);
  ASSERT_EQ(dsm__diff_payload(d, len, n), -1);
  ASSERT_EQ(dsm__diff_apply(page, n, d, len), -1);
  ASSERT_MEM_EQ(page, saved, PS);
  check_context[0] = 0;
}

static void expect_good(const char *what, const unsigned char *diff, size_t len, size_t n,
                        long payload)
{
  snprintf(check_context, sizeof check_context, "%s (len %zu, page %zu)", what, len, n);
  const unsigned char *d = at_guard(diff, len);
  ASSERT_EQ(dsm__diff_payload(d, len, n), payload);
  ASSERT_EQ(dsm__diff_apply(page, n, d, len), 0);
  check_context[0] = 0;
}

/* Append a run header (no payload) at b+*pos. */
static void hdr(unsigned char *b, size_t *pos, unsigned off, unsigned lenm1)
{
  b[(*pos)++] = (unsigned char)off;
  b[(*pos)++] = (unsigned char)(off >> 8);
  b[(*pos)++] = (unsigned char)lenm1;
  b[(*pos)++] = (unsigned char)(lenm1 >> 8);
}

static void run(unsigned char *b, size_t *pos, unsigned off, unsigned len)
{
  hdr(b, pos, off, len - 1);
  for (unsigned k = 0; k < len; k++)
    b[(*pos)++] = (unsigned char)(0x30 + k);
}

static void test_hand(void)
{
  unsigned char b[256];
  size_t n;

  /* sanity: the well-formed ones these are derived from */
  n = 0; run(b, &n, 0, 1);                     expect_good("one byte at 0", b, n, PS, 1);
  n = 0; run(b, &n, PS - 1, 1);                expect_good("last byte", b, n, PS, 1);
  n = 0; run(b, &n, 10, 2); run(b, &n, 13, 1); expect_good("gap of one", b, n, PS, 3);
  expect_good("empty diff", b, 0, PS, 0);

  n = 0; hdr(b, &n, 0, 0);
  expect_bad("header only, payload missing", b, n, PS);
  expect_bad("truncated header 1", b, 1, PS);
  expect_bad("truncated header 2", b, 2, PS);
  expect_bad("truncated header 3", b, 3, PS);
  n = 0; run(b, &n, 100, 8);
  expect_bad("payload short by one", b, n - 1, PS);
  n = 0; run(b, &n, 100, 8); b[n++] = 0;
  expect_bad("trailing byte", b, n, PS);
  n = 0; run(b, &n, 100, 8); b[n++] = 0; b[n++] = 0; b[n++] = 0;
  expect_bad("trailing partial header", b, n, PS);

  n = 0; run(b, &n, PS, 1);        expect_bad("offset == page size", b, n, PS);
  n = 0; run(b, &n, 0xffff, 1);    expect_bad("offset 0xffff", b, n, PS);
  n = 0; run(b, &n, PS - 1, 2);    expect_bad("run crosses page end", b, n, PS);
  n = 0; run(b, &n, PS - 8, 9);    expect_bad("run crosses page end by one", b, n, PS);
  n = 0; run(b, &n, 0, 8);         expect_bad("run beyond small page", b, n, 4);
  n = 0; hdr(b, &n, 0, 0xffff);    expect_bad("huge length, no payload", b, n, PS);
  n = 0; hdr(b, &n, 0, PS);        expect_bad("length page+1 at 0", b, n, PS);

  n = 0; run(b, &n, 20, 4); run(b, &n, 10, 4);  expect_bad("out of order", b, n, PS);
  n = 0; run(b, &n, 20, 4); run(b, &n, 22, 4);  expect_bad("overlapping", b, n, PS);
  n = 0; run(b, &n, 20, 4); run(b, &n, 20, 4);  expect_bad("same offset", b, n, PS);
  n = 0; run(b, &n, 20, 4); run(b, &n, 24, 4);  expect_bad("touching runs", b, n, PS);
  n = 0; run(b, &n, 0, 1); run(b, &n, 0, 1);    expect_bad("two runs at 0", b, n, PS);
  /* valid runs first, then a bad one: nothing may be applied */
  n = 0; run(b, &n, 0, 8); run(b, &n, 100, 8); run(b, &n, PS, 1);
  expect_bad("good runs then out of range", b, n, PS);
  n = 0; run(b, &n, 0, 8); run(b, &n, 100, 8); hdr(b, &n, 200, 50);
  expect_bad("good runs then truncated", b, n, PS);

  n = 0; run(b, &n, 0, 1);
  expect_bad("page size not a multiple of 8", b, n, 4095);
  expect_bad("page size too large", b, n, DSM__DIFF_MAX_PAGE + 8);
  expect_bad("page size 0", b, n, 0);
  expect_good("empty diff, page size 0", b, 0, 0, 0);
}

/* Every proper prefix of a real diff is either a valid shorter diff (cut
 * exactly between runs) or rejected; never a partial application. */
static void test_prefixes(void)
{
  static unsigned char twin[PS], mod[PS], enc[PS * 3];
  rng_state = 42;
  for (int it = 0; it < 20; it++) {
    for (size_t k = 0; k < PS; k++)
      twin[k] = (unsigned char)rng_next();
    memcpy(mod, twin, PS);
    for (int c = 0; c < 30; c++) {
      size_t off = rng_below(PS), len = 1 + rng_below(12);
      for (size_t k = off; k < off + len && k < PS; k++)
        mod[k] = (unsigned char)(twin[k] + 1);
    }
    size_t len = dsm__diff_encode(twin, mod, PS, enc);
    /* where the run boundaries are, from the reference reading */
    static unsigned char boundary[PS * 3 + 1];
    memset(boundary, 0, len + 1);
    for (size_t pos = 0; pos < len;) {
      boundary[pos] = 1;
      pos += 4 + (size_t)(enc[pos + 2] | enc[pos + 3] << 8) + 1;
    }
    boundary[len] = 1;
    for (size_t cut = 0; cut < len; cut++) {
      const unsigned char *d = at_guard(enc, cut);
      memcpy(page, twin, PS);
      int rc = dsm__diff_apply(page, PS, d, cut);
      snprintf(check_context, sizeof check_context, "prefix %zu of %zu, iteration %d",
               cut, len, it);
      if (boundary[cut]) {
        ASSERT_EQ(rc, 0);
        ASSERT_TRUE(dsm__diff_payload(d, cut, PS) >= 0);
      } else {
        ASSERT_EQ(rc, -1);
        ASSERT_EQ(dsm__diff_payload(d, cut, PS), -1);
        ASSERT_MEM_EQ(page, twin, PS);
      }
    }
    check_context[0] = 0;
  }
}

/* Flip single header bytes of a real diff: the result is rejected, or it is
 * valid and then payload and apply agree and stay inside the page. */
static void test_header_flips(void)
{
  static unsigned char twin[PS], mod[PS], enc[PS * 3], bad[PS * 3];
  rng_state = 7;
  for (size_t k = 0; k < PS; k++)
    twin[k] = (unsigned char)rng_next();
  memcpy(mod, twin, PS);
  for (int c = 0; c < 40; c++)
    mod[rng_below(PS)] ^= 0x11;
  size_t len = dsm__diff_encode(twin, mod, PS, enc);
  long flips = 0, rejected = 0;
  for (size_t pos = 0; pos < len;) {
    size_t rl = (size_t)(enc[pos + 2] | enc[pos + 3] << 8) + 1;
    for (size_t h = 0; h < 4; h++) {
      for (int bit = 0; bit < 8; bit++) {
        memcpy(bad, enc, len);
        bad[pos + h] ^= (unsigned char)(1u << bit);
        const unsigned char *d = at_guard(bad, len);
        memcpy(page, twin, PS);
        long pl = dsm__diff_payload(d, len, PS);
        int rc = dsm__diff_apply(page, PS, d, len);
        ASSERT_EQ(rc, pl < 0 ? -1 : 0);
        if (rc < 0) {
          ASSERT_MEM_EQ(page, twin, PS);
          rejected++;
        }
        flips++;
      }
    }
    pos += 4 + rl;
  }
  /* most flips of a length or offset field break the framing */
  ASSERT_TRUE(rejected > flips / 2);
}

int main(void)
{
  setup_guard();
  test_hand();
  test_prefixes();
  test_header_flips();
  printf("test_diff_malformed: ok\n");
  return 0;
}
