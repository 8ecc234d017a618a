/*
 * fuzz_diff.c — libFuzzer target for dsm/diff.c. Build and run it with
 * run-fuzz.sh (clang -fsanitize=fuzzer,address,undefined).
 *
 * The first input byte chooses what the rest is:
 *   mode 0  an arbitrary diff for a page of a size taken from the next byte:
 *           dsm__diff_apply and dsm__diff_payload must agree with each other
 *           and with a byte-at-a-time reference decoder, a rejected diff must
 *           leave the page untouched, and neither may read past the input
 *           (ASan sees the end of libFuzzer's buffer);
 *   mode 1  twin and page halves of the input: round trip;
 *   mode 2  a twin, then edits (offset, value) to make a page with sparse,
 *           often neighbouring changes: round trip.
 * The round trip checks the encoding against ref.h (exactly the changed bytes,
 * canonical runs), then that applying it to the twin gives the page and that
 * applying it to an unrelated page touches only the changed bytes.
 */
#define CHECK_ABORT 1
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "diff.h"
#include "ref.h"

#define MAXP DSM__DIFF_MAX_PAGE

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char page[MAXP], saved[MAXP], expect[MAXP], twin[MAXP], mod[MAXP], other[MAXP];
static unsigned char enc[MAXP * 5 / 2 + 1];

/* The reference: decode byte by byte into expect (starting from saved).
 * Returns the payload or -1, with the rules written out plainly. */
static long ref_apply(const uint8_t *d, size_t len, size_t n)
{
  if (n % 8 != 0 || n > MAXP)
    return -1;
  memcpy(expect, saved, n);
  long payload = 0;
  long last_end = -1;
  size_t pos = 0;
  while (pos != len) {
    if (pos + 4 > len)
      return -1;
    unsigned long off = d[pos] + 256ul * d[pos + 1];
    unsigned long rl = d[pos + 2] + 256ul * d[pos + 3] + 1;
    pos += 4;
    if (last_end >= 0 && (long)off <= last_end)
      return -1;
    if (off + rl > n)
      return -1;
    if (pos + rl > len)
      return -1;
    for (unsigned long k = 0; k < rl; k++)
      expect[off + k] = d[pos + k];
    pos += rl;
    payload += (long)rl;
    last_end = (long)(off + rl);
  }
  return payload;
}

static void fuzz_apply(const uint8_t *data, size_t size)
{
  if (size < 2)
    return;
  /* mostly small pages so that short inputs hit the bounds; sometimes the
   * largest page, and sometimes an invalid size */
  size_t n;
  if ((data[0] & 0x38) == 0x38)
    n = MAXP;
  else if (data[0] & 0x40)
    n = data[1];  /* may not be a multiple of 8 */
  else
    n = 8u * data[1];
  const uint8_t *d = data + 2;
  size_t len = size - 2;
  /* the page plus a margin that must stay untouched */
  size_t r = n + 64 < MAXP ? n + 64 : MAXP;
  for (size_t k = 0; k < r; k++)
    page[k] = (unsigned char)(k * 31 + 7);
  memcpy(saved, page, r);
  long ref = ref_apply(d, len, n);
  long pl = dsm__diff_payload(d, len, n);
  ASSERT_EQ(pl, ref);
  int rc = dsm__diff_apply(page, n, d, len);
  ASSERT_EQ(rc, ref < 0 ? -1 : 0);
  if (rc < 0) {
    ASSERT_MEM_EQ(page, saved, r);
    return;
  }
  ASSERT_MEM_EQ(page, expect, n);
  ASSERT_MEM_EQ(page + n, saved + n, r - n);  /* nothing past the page */
  /* re-encoding drops the bytes the diff rewrote with their old value */
  size_t l2 = dsm__diff_encode(saved, page, n, enc);
  long p2 = ref_check_encoding(saved, page, n, enc, l2);
  ASSERT_LE(p2, pl);
}

static void roundtrip(size_t n)
{
  size_t len = dsm__diff_encode(twin, mod, n, enc);
  ASSERT_LE(len, dsm__diff_max(n));
  long changed = ref_check_encoding(twin, mod, n, enc, len);
  ASSERT_EQ(dsm__diff_payload(enc, len, n), changed);
  memcpy(page, twin, n);
  ASSERT_EQ(dsm__diff_apply(page, n, enc, len), 0);
  ASSERT_MEM_EQ(page, mod, n);
  /* on another writer's copy: changed bytes taken, all others kept */
  for (size_t k = 0; k < n; k++)
    other[k] = (unsigned char)(twin[k] ^ 0x3c);
  ASSERT_EQ(dsm__diff_apply(other, n, enc, len), 0);
  for (size_t k = 0; k < n; k++)
    ASSERT_EQ(other[k], twin[k] != mod[k] ? mod[k] : (unsigned char)(twin[k] ^ 0x3c));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  switch (data[0] % 3) {
  case 0:
    fuzz_apply(data, size);
    break;
  case 1: {
    size_t n = ((size - 1) / 2) & ~(size_t)7;
    if (n > MAXP)
      n = MAXP;
    memcpy(twin, data + 1, n);
    memcpy(mod, data + 1 + n, n);
    roundtrip(n);
    break;
  }
  default: {
    /* byte 1: page size / 8 (0 means 4096 or 65536); then the twin, or as much of
     * it as the input holds (the rest zero); then 3-byte edits */
    if (size < 2)
      return 0;
    size_t n = data[1] ? 8u * data[1] : (data[0] & 0x40) ? MAXP : 4096;
    size_t tl = size - 2 < n / 4 ? size - 2 : n / 4;
    memset(twin, 0, n);
    memcpy(twin, data + 2, tl);
    memcpy(mod, twin, n);
    for (size_t pos = 2 + tl; pos + 3 <= size; pos += 3) {
      size_t off = (data[pos] | (size_t)data[pos + 1] << 8) % n;
      mod[off] = data[pos + 2];
    }
    roundtrip(n);
  }
  }
  return 0;
}
