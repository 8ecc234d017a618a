/*
 * coll_msg.c — a collective's arrival and departure parts: encoders and
 * decoders (coll_msg.h says what they carry). The decoders check every
 * length and every number that indexes an array before they return, so
 * that collective.c never applies half of a malformed part.
 */
#include <stdlib.h>
#include <string.h>

#include "coll_msg.h"
#include "record_msg.h"

/* ---- encoding ---- */

/* nruns:u32, then runs first:u32 count:u32 of pages sorted, each once. */
static void took_runs_put(dsm__buf_t *b, const uint32_t *pages, size_t n)
{
  size_t at = b->len;
  uint32_t nruns = 0;
  dsm__buf_u32(b, 0);
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && pages[j] <= pages[j - 1] + 1)
      j++;
    dsm__buf_u32(b, pages[i]);
    dsm__buf_u32(b, pages[j - 1] - pages[i] + 1);
    nruns++;
    i = j;
  }
  memcpy(b->p + at, &nruns, 4);
}

/* nruns:u32, then runs first:u32 count:u32 word:u32 of pages sorted, each
 * once: neighbours with the same word share a run. */
static void page_runs_put(dsm__buf_t *b, const dsm__coll_page_t *p, size_t n)
{
  size_t at = b->len;
  uint32_t nruns = 0;
  dsm__buf_u32(b, 0);
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && p[j].pg == p[j - 1].pg + 1 && p[j].word == p[i].word)
      j++;
    dsm__buf_u32(b, p[i].pg);
    dsm__buf_u32(b, (uint32_t)(j - i));
    dsm__buf_u32(b, p[i].word);
    nruns++;
    i = j;
  }
  memcpy(b->p + at, &nruns, 4);
}

void dsm__coll_arrive_put(dsm__buf_t *b, const dsm__coll_arrive_in_t *in)
{
  dsm__buf_u32(b, in->first);
  dsm__buf_u32(b, in->last);
  dsm__buf_u32(b, (uint32_t)in->ntold);
  for (size_t i = 0; i < in->ntold; i++) {
    dsm__buf_u32(b, in->told[i].reader);
    dsm__buf_u32(b, in->told[i].sent);
  }
  took_runs_put(b, in->took, in->ntook);
  page_runs_put(b, in->gifts, in->ngifts);
}

void dsm__coll_ride_put(dsm__buf_t *b, const void *push, uint32_t len)
{
  dsm__buf_u32(b, len);
  dsm__buf_put(b, push, len);
}

static int by_page(const void *a, const void *b)
{
  const dsm__coll_page_t *x = a, *y = b;
  return x->pg < y->pg ? -1 : x->pg > y->pg;
}

void dsm__coll_depart_put(dsm__buf_t *b, const dsm__coll_depart_in_t *in)
{
  dsm__buf_u32(b, (uint32_t)in->ntold);
  for (size_t i = 0; i < in->ntold; i++) {
    dsm__buf_u32(b, in->told[i].home);
    dsm__buf_u32(b, in->told[i].reader);
    dsm__buf_u32(b, in->told[i].sent);
  }
  dsm__buf_u32(b, in->flags);
  if (in->flags & DSM__COLL_RECORDS)
    dsm__vt_put(b, in->known, in->nprocs);
  /* The gifts first: the epoch's writers may move those pages on. */
  if (in->ngifts > 1)
    qsort(in->gifts, in->ngifts, sizeof *in->gifts, by_page);
  page_runs_put(b, in->gifts, in->ngifts);
  if (in->nwriters > 1)
    qsort(in->writers, in->nwriters, sizeof *in->writers, by_page);
  page_runs_put(b, in->writers, in->nwriters);
}

/* ---- decoding ---- */

int dsm__coll_ride_read(dsm__coll_ride_t *ride, dsm__rd_t *r)
{
  ride->len = dsm__rd_u32(r);
  ride->push = dsm__rd_take(r, ride->len);
  return !r->bad;
}

/* A list at r: n:u32, at most max entries of `words` u32 each. */
static const uint8_t *list_read(dsm__rd_t *r, uint32_t *n, uint64_t max, unsigned words)
{
  *n = dsm__rd_u32(r);
  if (r->bad || *n > max) {
    r->bad = 1;
    return NULL;
  }
  return dsm__rd_take(r, (size_t)*n * words * 4);
}

/* Runs first, count, [word] inside the pages. */
static int runs_ok(const uint8_t *runs, uint32_t n, unsigned words, uint32_t npages)
{
  for (uint32_t i = 0; i < n; i++) {
    uint32_t e[3];
    dsm__coll_entry(runs, i, words, e);
    if (e[0] >= npages || e[1] > npages - e[0])
      return 0;
  }
  return 1;
}

/* In each entry, word w (its bits in mask) a rank. */
static int ranks_ok(const uint8_t *list, uint32_t n, unsigned words, unsigned w, uint32_t mask,
                    unsigned nprocs)
{
  for (uint32_t i = 0; i < n; i++) {
    uint32_t e[3];
    dsm__coll_entry(list, i, words, e);
    if ((e[w] & mask) >= nprocs)
      return 0;
  }
  return 1;
}

/* Gift generations, which the page table keeps in 16 bits, 0 meaning none. */
static int gens_ok(const uint8_t *gifts, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++) {
    uint32_t e[3];
    dsm__coll_entry(gifts, i, 3, e);
    if (e[2] == 0 || e[2] > UINT16_MAX)
      return 0;
  }
  return 1;
}

int dsm__coll_arrival_read(dsm__coll_arrival_t *a, const void *data, size_t len, unsigned nprocs,
                           uint32_t npages, uint32_t known)
{
  dsm__rd_t r = dsm__rd(data, len);
  a->first = dsm__rd_u32(&r);
  a->last = dsm__rd_u32(&r);
  if (r.bad || a->last > known)
    return 0;
  a->told = list_read(&r, &a->ntold, nprocs, 2);
  if (r.bad || !ranks_ok(a->told, a->ntold, 2, 0, ~0u, nprocs))
    return 0;
  a->took = list_read(&r, &a->ntook, npages, 2);
  if (r.bad || !runs_ok(a->took, a->ntook, 2, npages))
    return 0;
  a->gifts = list_read(&r, &a->ngifts, npages, 3);
  if (r.bad || !runs_ok(a->gifts, a->ngifts, 3, npages) || !gens_ok(a->gifts, a->ngifts))
    return 0;
  return dsm__coll_ride_read(&a->ride, &r) && r.off == r.len;
}

int dsm__coll_depart_read(dsm__coll_depart_t *d, dsm__rd_t *r, unsigned nprocs, uint32_t npages)
{
  d->told = list_read(r, &d->ntold, (uint64_t)nprocs * nprocs, 3);
  if (r->bad || !ranks_ok(d->told, d->ntold, 3, 0, ~0u, nprocs) ||
      !ranks_ok(d->told, d->ntold, 3, 1, ~0u, nprocs))
    return 0;
  d->flags = dsm__rd_u32(r);
  d->known = NULL;
  if (r->bad || (d->flags & ~DSM__COLL_FLAGS))
    return 0;
  if (d->flags & DSM__COLL_RECORDS)
    d->known = dsm__vt_read(r, nprocs);
  /* Homes move only at a collective of the whole job. */
  uint64_t max = d->flags & DSM__COLL_FULL ? npages : 0;
  d->gifts = list_read(r, &d->ngifts, max, 3);
  if (r->bad || !runs_ok(d->gifts, d->ngifts, 3, npages) ||
      !ranks_ok(d->gifts, d->ngifts, 3, 2, ~0u, nprocs))
    return 0;
  d->runs = list_read(r, &d->nruns, max, 3);
  return !r->bad && runs_ok(d->runs, d->nruns, 3, npages) &&
         ranks_ok(d->runs, d->nruns, 3, 2, ~DSM__COLL_CLEAN, nprocs);
}
