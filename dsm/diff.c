/*
 * diff.c — encode the bytes of a page that differ from its twin, and apply
 * such an encoding to another copy of the page. The format and the reasons
 * for it are at the top of diff.h.
 *
 * The encoder compares the page in 64-byte blocks, and most blocks of a
 * written page are usually unchanged, so equal stretches are skipped with a
 * few vector compares per block. Only in a block that differs does it look at
 * single bytes, through a 64-bit mask of the changed bytes, so even
 * neighbouring bytes of one word changed by different writers come out as
 * separate, exact runs.
 *
 * Deliberately not here: compression, merging runs across unchanged gaps
 * (which would be wrong for multiple writers), and any allocation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

/* An encoder called with an impossible page size is a caller bug; it must
 * never be compiled out, and this file stays free of the rest of libdsm so
 * that the fuzzer can link it alone. */
#define DIFF_CHECK(cond) do { if (!(cond)) { fprintf(stderr, \
    "%s:%d: internal error: assertion failed: %s\n", __FILE__, __LINE__, #cond); \
    abort(); } } while (0)

static int page_size_ok(size_t page_size)
{
  return page_size % 8 == 0 && page_size <= DSM__DIFF_MAX_PAGE;
}

/* With r runs, the r-1 gaps between them hold at least one byte each, so the
 * payload is at most n - (r - 1) and the diff at most n + 3r + 1 bytes, which
 * grows with r; r is at most n/2 for an even n. The bound is reached by
 * "XX.X.X.X..." (X changed). */
size_t dsm__diff_max(size_t page_size)
{
  if (page_size == 0)
    return 0;
  return page_size + (DSM__DIFF_RUN_HDR - 1) * ((page_size + 1) / 2) + 1;
}

/* Unaligned word load: twins and pages are page-aligned in libdsm, but the
 * tests and the fuzzer hand in arbitrary pointers. Compiles to one mov. */
static inline uint64_t load64(const unsigned char *p)
{
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* Bit k of the result is set iff byte k (in memory order) of the two words
 * differs. */
static inline unsigned changed_mask(uint64_t x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap64(x);  /* memory byte k now sits in bits 8k..8k+7 */
#endif
  const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full;
  /* High bit of each byte := byte is nonzero; no carry crosses a byte since
   * (b & 0x7f) + 0x7f <= 0xfe. */
  uint64_t t = (((x & lo7) + lo7) | x) >> 7 & 0x0101010101010101ull;
  /* Gather the eight flag bits into the top byte: bit 8k lands on 56+k. */
  return (unsigned)((t * 0x0102040810204080ull) >> 56);
}

static inline void put16(unsigned char *p, unsigned v)
{
  p[0] = (unsigned char)(v & 0xff);
  p[1] = (unsigned char)(v >> 8);
}

static inline unsigned get16(const unsigned char *p)
{
  return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* Copy n bytes where n is usually tiny (a changed byte or two): constant-size
 * copies inline to single moves, where a memcpy call per run would cost more
 * than the run. Long runs go to memcpy. */
static inline void copy_small(unsigned char *d, const unsigned char *s, size_t n)
{
  if (n > 32) {
    memcpy(d, s, n);
    return;
  }
  for (; n >= 8; n -= 8, d += 8, s += 8)
    memcpy(d, s, 8);
  if (n & 4) { memcpy(d, s, 4); d += 4; s += 4; }
  if (n & 2) { memcpy(d, s, 2); d += 2; s += 2; }
  if (n & 1) *d = *s;
}

/* Emit the run [start, end) of page at out; returns the new end of out. */
static inline unsigned char *emit(unsigned char *out, const unsigned char *page,
                                  size_t start, size_t end)
{
  put16(out, (unsigned)start);
  put16(out + 2, (unsigned)(end - start - 1));
  copy_small(out + DSM__DIFF_RUN_HDR, page + start, end - start);
  return out + DSM__DIFF_RUN_HDR + (end - start);
}

/* The page is scanned in blocks of 64 bytes, so that the changed bytes of a
 * block fit one 64-bit mask (bit k: byte k differs) whose run boundaries are
 * found with count-trailing-zeros. SSE2 (always there on x86-64) compares 16
 * bytes per instruction; elsewhere, or with -DDSM_DIFF_SCALAR (which the
 * tests also build, to cover this path), 8-byte words do the same job. */
#if defined(__SSE2__) && !defined(DSM_DIFF_SCALAR)
#include <emmintrin.h>

static inline __m128i eq16(const unsigned char *t, const unsigned char *p)
{
  return _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)t),
                        _mm_loadu_si128((const __m128i *)(const void *)p));
}

static inline int block_equal(const unsigned char *t, const unsigned char *p)
{
  __m128i e = _mm_and_si128(_mm_and_si128(eq16(t, p), eq16(t + 16, p + 16)),
                            _mm_and_si128(eq16(t + 32, p + 32), eq16(t + 48, p + 48)));
  return _mm_movemask_epi8(e) == 0xffff;
}

static inline uint64_t block_mask(const unsigned char *t, const unsigned char *p)
{
  uint64_t eq = (uint64_t)(unsigned)_mm_movemask_epi8(eq16(t, p)) |
                (uint64_t)(unsigned)_mm_movemask_epi8(eq16(t + 16, p + 16)) << 16 |
                (uint64_t)(unsigned)_mm_movemask_epi8(eq16(t + 32, p + 32)) << 32 |
                (uint64_t)(unsigned)_mm_movemask_epi8(eq16(t + 48, p + 48)) << 48;
  return ~eq;
}
#else
static inline int block_equal(const unsigned char *t, const unsigned char *p)
{
  uint64_t d = 0;
  for (int k = 0; k < 64; k += 8)
    d |= load64(t + k) ^ load64(p + k);
  return d == 0;
}

static inline uint64_t block_mask(const unsigned char *t, const unsigned char *p)
{
  uint64_t m = 0;
  for (int k = 0; k < 64; k += 8)
    m |= (uint64_t)changed_mask(load64(t + k) ^ load64(p + k)) << k;
  return m;
}
#endif

/* The last, partial block of a page whose size is not a multiple of 64:
 * nbytes (a multiple of 8, below 64) compared word by word; the bits past
 * nbytes stay 0 (unchanged), which closes a run at the end of the page. */
static inline uint64_t tail_mask(const unsigned char *t, const unsigned char *p, size_t nbytes)
{
  uint64_t m = 0;
  for (size_t k = 0; k < nbytes; k += 8)
    m |= (uint64_t)changed_mask(load64(t + k) ^ load64(p + k)) << k;
  return m;
}

size_t dsm__diff_encode(const void *twin_, const void *page_, size_t page_size, void *out_)
{
  DIFF_CHECK(page_size_ok(page_size));
  const unsigned char *twin = twin_, *page = page_;
  unsigned char *out = out_, *o = out;
  size_t full = page_size & ~(size_t)63;  /* end of the whole 64-byte blocks */
  size_t b = 0;          /* current block */
  size_t start = 0;      /* first byte of the open run */
  int in_run = 0;

  while (b < page_size) {
    uint64_t m;
    if (b < full) {
      if (!in_run) {
        /* The common case: most blocks of a written page are unchanged. */
        while (b < full && block_equal(twin + b, page + b))
          b += 64;
        if (b == full)
          continue;
      }
      m = block_mask(twin + b, page + b);
    } else {
      m = tail_mask(twin + b, page + b, page_size - b);
    }
    if (m == ~(uint64_t)0) {
      /* The whole block changed: a run opens here or simply goes on. */
      if (!in_run) {
        start = b;
        in_run = 1;
      }
    } else {
      /* Walk the boundaries between changed and unchanged bytes. pos stays
       * below 64: it only moves to a set bit of a nonzero shifted mask. */
      unsigned pos = 0;
      for (;;) {
        if (in_run) {
          uint64_t same = ~m >> pos;
          if (!same)
            break;  /* the rest of the block changed; the run goes on */
          pos += (unsigned)__builtin_ctzll(same);
          o = emit(o, page, start, b + pos);
          in_run = 0;
        } else {
          uint64_t changed = m >> pos;
          if (!changed)
            break;
          pos += (unsigned)__builtin_ctzll(changed);
          start = b + pos;
          in_run = 1;
        }
      }
    }
    b += 64;
  }
  if (in_run)
    o = emit(o, page, start, page_size);
  return (size_t)(o - out);
}

/* Walk the whole diff and check every rule of the format. Returns the number
 * of payload bytes, or -1. Reads only [diff, diff+len). */
static long validate(const unsigned char *diff, size_t len, size_t page_size)
{
  if (!page_size_ok(page_size))
    return -1;
  size_t pos = 0, prev_end = 0;
  long payload = 0;
  int first = 1;
  while (pos < len) {
    if (len - pos < DSM__DIFF_RUN_HDR)
      return -1;                          /* truncated header */
    size_t off = get16(diff + pos);
    size_t n = (size_t)get16(diff + pos + 2) + 1;
    if (!first && off <= prev_end)
      return -1;                          /* out of order, overlapping or touching */
    if (off >= page_size || n > page_size - off)
      return -1;                          /* outside the page */
    pos += DSM__DIFF_RUN_HDR;
    if (len - pos < n)
      return -1;                          /* truncated payload */
    pos += n;
    prev_end = off + n;
    payload += (long)n;
    first = 0;
  }
  return payload;
}

int dsm__diff_apply(void *page_, size_t page_size, const void *diff_, size_t len)
{
  const unsigned char *diff = diff_;
  unsigned char *page = page_;
  /* Validate everything first: a diff rejected halfway must not have
   * changed the page. */
  if (validate(diff, len, page_size) < 0)
    return -1;
  size_t pos = 0;
  while (pos < len) {
    size_t off = get16(diff + pos);
    size_t n = (size_t)get16(diff + pos + 2) + 1;
    copy_small(page + off, diff + pos + DSM__DIFF_RUN_HDR, n);
    pos += DSM__DIFF_RUN_HDR + n;
  }
  return 0;
}

long dsm__diff_payload(const void *diff, size_t len, size_t page_size)
{
  return validate(diff, len, page_size);
}
