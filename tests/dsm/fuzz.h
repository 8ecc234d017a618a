/*
 * fuzz.h — what the one-process decoder fuzzers (fuzz_page_msg.c,
 * fuzz_records.c, fuzz_collective.c) share: a seeded generator, a CHECK
 * that counts failures and goes on, and the mutation of a valid message
 * into a buffer of exactly its new length, so that AddressSanitizer
 * reports a decoder that reads past the end.
 *
 * Define FUZZ_NAME (the program's name, for its messages) first.
 */
#ifndef DSM_TEST_FUZZ_H
#define DSM_TEST_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return rng;
}

static unsigned failures;
#define CHECK(c, ...) do { if (!(c)) { failures++; fprintf(stderr, FUZZ_NAME ": " __VA_ARGS__); \
                                       fputc('\n', stderr); } } while (0)

/* msg[len] cut short, grown or not, then with a few bytes flipped. */
static uint8_t *mutate(const uint8_t *msg, size_t len, size_t *out_len)
{
  size_t n = len;
  switch (next() % 4) {
  case 0: n = len ? (size_t)(next() % len) : 0; break;           /* cut short */
  case 1: n = len + 1 + (size_t)(next() % 16); break;             /* grown */
  default: break;
  }
  uint8_t *m = malloc(n ? n : 1);
  memcpy(m, msg, n < len ? n : len);
  for (size_t i = len; i < n; i++)
    m[i] = (uint8_t)next();
  unsigned flips = n ? 1 + (unsigned)(next() % 4) : 0;
  for (unsigned f = 0; f < flips; f++) {
    size_t at = (size_t)(next() % n);
    /* small numbers matter most: counts, indices, kinds */
    m[at] = next() % 2 ? (uint8_t)next() : (uint8_t)(next() % 8);
  }
  *out_len = n;
  return m;
}

/* Is p[0, n) inside msg[0, len)? */
static inline int inside(const void *p, size_t n, const uint8_t *msg, size_t len)
{
  const uint8_t *q = p;
  return q >= msg && q <= msg + len && n <= (size_t)(msg + len - q);
}

#endif
