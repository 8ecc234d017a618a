/*
 * buf.h — a growable byte buffer for building messages.
 */
#ifndef DSM_BUF_H
#define DSM_BUF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dsm_internal.h"

typedef struct dsm__buf {
  uint8_t *p;
  size_t len, cap;
} dsm__buf_t;

static inline void *dsm__buf_grow(dsm__buf_t *b, size_t n)
{
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n) cap *= 2;
    uint8_t *np = realloc(b->p, cap);
    if (!np) dsm__fatal(DSM__EXIT_FATAL, "out of memory (%zu bytes)", cap);
    b->p = np;
    b->cap = cap;
  }
  void *at = b->p + b->len;
  b->len += n;
  return at;
}

static inline void dsm__buf_put(dsm__buf_t *b, const void *src, size_t n)
{
  if (n) memcpy(dsm__buf_grow(b, n), src, n);
}

static inline void dsm__buf_u32(dsm__buf_t *b, uint32_t v) { dsm__buf_put(b, &v, 4); }
static inline void dsm__buf_u64(dsm__buf_t *b, uint64_t v) { dsm__buf_put(b, &v, 8); }
static inline void dsm__buf_free(dsm__buf_t *b) { free(b->p); b->p = NULL; b->len = b->cap = 0; }

/* Bounds-checked reader over a received message. Reading past the end sets
 * bad and yields zeros, so decoders check bad once at the end. */
typedef struct dsm__rd {
  const uint8_t *p;
  size_t len, off;
  int bad;
} dsm__rd_t;

static inline dsm__rd_t dsm__rd(const void *p, size_t len) { dsm__rd_t r = { p, len, 0, 0 }; return r; }

static inline const void *dsm__rd_take(dsm__rd_t *r, size_t n)
{
  if (r->bad || n > r->len - r->off) { r->bad = 1; return NULL; }
  const void *at = r->p + r->off;
  r->off += n;
  return at;
}

static inline uint32_t dsm__rd_u32(dsm__rd_t *r)
{
  const void *p = dsm__rd_take(r, 4);
  uint32_t v = 0;
  if (p) memcpy(&v, p, 4);
  return v;
}

static inline uint64_t dsm__rd_u64(dsm__rd_t *r)
{
  const void *p = dsm__rd_take(r, 8);
  uint64_t v = 0;
  if (p) memcpy(&v, p, 8);
  return v;
}

#endif
