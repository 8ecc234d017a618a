/*
 * ref.h — an independent, byte-at-a-time reading of the diff format, and a
 * small seeded generator, shared by the diff tests. It shares no code with
 * dsm/diff.c on purpose: the tests check the library against this model.
 */
#ifndef DIFF_TEST_REF_H
#define DIFF_TEST_REF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "diff.h"

/* splitmix64: small, fast, and the same sequence on every machine. */
static uint64_t rng_state;
static inline uint64_t rng_next(void)
{
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/* Uniform-enough integer in [0, n). */
static inline size_t rng_below(size_t n) { return n ? (size_t)(rng_next() % n) : 0; }

/* Check that diff (len bytes) is exactly the canonical encoding of the
 * changes from twin to page: every run is in bounds, runs are increasing and
 * separated by an unchanged byte, every carried byte differs between twin and
 * page and carries the page's value, every changed byte is carried, and runs
 * are maximal. Returns the number of changed bytes. */
static inline long ref_check_encoding(const unsigned char *twin, const unsigned char *page,
                               size_t n, const unsigned char *diff, size_t len)
{
  static unsigned char carried[DSM__DIFF_MAX_PAGE];
  memset(carried, 0, n);
  size_t pos = 0;
  long prev_end = -1;
  long total = 0;
  while (pos < len) {
    ASSERT_LE(pos + 4, len);
    size_t off = diff[pos] | (size_t)diff[pos + 1] << 8;
    size_t rl = (diff[pos + 2] | (size_t)diff[pos + 3] << 8) + 1;
    pos += 4;
    ASSERT_LE(off + rl, n);
    ASSERT_LE(pos + rl, len);
    if (prev_end >= 0)
      ASSERT_TRUE((long)off > prev_end);
    for (size_t k = 0; k < rl; k++) {
      ASSERT_TRUE(twin[off + k] != page[off + k]);   /* only changed bytes */
      ASSERT_EQ(diff[pos + k], page[off + k]);       /* with the new value */
      carried[off + k] = 1;
    }
    /* maximal: the bytes just outside the run are unchanged */
    if (off > 0)
      ASSERT_EQ(twin[off - 1], page[off - 1]);
    if (off + rl < n)
      ASSERT_EQ(twin[off + rl], page[off + rl]);
    pos += rl;
    prev_end = (long)(off + rl);
    total += (long)rl;
  }
  for (size_t k = 0; k < n; k++)
    ASSERT_EQ(carried[k], twin[k] != page[k]);       /* every changed byte */
  return total;
}

#endif
