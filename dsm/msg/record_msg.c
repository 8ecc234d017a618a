/*
 * record_msg.c — interval records and vector times: encoders and decoders
 * (record_msg.h says what they carry). The decoder checks every length and
 * every number that indexes an array, and that the list leaves no gap in
 * any process's records, before it returns, so that the store never takes
 * half of a malformed list.
 */
#include <string.h>

#include "record_msg.h"

size_t dsm__records_begin(dsm__buf_t *b)
{
  size_t at = b->len;
  dsm__buf_u32(b, 0);
  return at;
}

void dsm__record_put(dsm__buf_t *b, const dsm__interval_t *iv, unsigned nprocs)
{
  dsm__buf_u32(b, iv->proc);
  dsm__buf_u32(b, iv->idx);
  dsm__buf_u32(b, iv->npages);
  dsm__buf_put(b, iv->vt, nprocs * sizeof(uint32_t));
  dsm__buf_put(b, iv->pages, iv->npages * sizeof(uint32_t));
}

void dsm__records_end(dsm__buf_t *b, size_t at, uint32_t count)
{
  memcpy(b->p + at, &count, 4);
}

void dsm__vt_put(dsm__buf_t *b, const uint32_t *vt, unsigned nprocs)
{
  dsm__buf_put(b, vt, nprocs * sizeof(uint32_t));
}

void dsm__vt_encode(dsm__buf_t *b, const uint32_t *vt)
{
  dsm__vt_put(b, vt, dsm__nprocs);
}

const uint8_t *dsm__vt_read(dsm__rd_t *r, unsigned nprocs)
{
  return dsm__rd_take(r, (size_t)nprocs * sizeof(uint32_t));
}

int dsm__vt_decode(dsm__rd_t *r, uint32_t *vt)
{
  const uint8_t *p = dsm__vt_read(r, dsm__nprocs);
  if (!p) return -1;
  memcpy(vt, p, dsm__nprocs * sizeof(uint32_t));
  return 0;
}

/* One record at r, whole (its pages are not looked at). */
static int record_take(dsm__record_t *rec, dsm__rd_t *r, unsigned nprocs, uint32_t npages)
{
  rec->proc = dsm__rd_u32(r);
  rec->idx = dsm__rd_u32(r);
  rec->npages = dsm__rd_u32(r);
  rec->vt = dsm__vt_read(r, nprocs);
  if (r->bad || rec->proc >= nprocs || rec->npages > npages)
    return 0;
  rec->pages = dsm__rd_take(r, (size_t)rec->npages * sizeof(uint32_t));
  return !r->bad;
}

static int pages_ok(const dsm__record_t *rec, uint32_t npages)
{
  for (uint32_t j = 0; j < rec->npages; j++) {
    uint32_t pg;
    memcpy(&pg, rec->pages + 4 * (size_t)j, 4);
    if (pg >= npages)
      return 0;
  }
  return 1;
}

int dsm__records_read(dsm__records_t *rs, dsm__rd_t *r, unsigned nprocs, uint32_t npages,
                      const uint32_t *known)
{
  /* What the receiver will hold as the list goes into its store. */
  uint32_t held[DSM__MAX_PROCS];
  if (nprocs > DSM__MAX_PROCS)
    return 0;
  memcpy(held, known, nprocs * sizeof *held);
  rs->count = dsm__rd_u32(r);
  rs->nprocs = nprocs;
  if (r->bad)
    return 0;
  size_t start = r->off;
  for (uint32_t k = 0; k < rs->count; k++) {
    dsm__record_t rec;
    if (!record_take(&rec, r, nprocs, npages) || !pages_ok(&rec, npages))
      return 0;
    if (rec.idx <= held[rec.proc])
      continue;                 /* already held */
    if (rec.idx != held[rec.proc] + 1)
      return 0;                 /* a gap: the sender broke the protocol */
    held[rec.proc] = rec.idx;
  }
  rs->p = r->p + start;
  rs->len = r->off - start;
  return 1;
}

int dsm__records_next(const dsm__records_t *rs, size_t *off, dsm__record_t *rec)
{
  if (*off >= rs->len)
    return 0;
  /* Checked by dsm__records_read: every record is whole. */
  dsm__rd_t r = dsm__rd(rs->p + *off, rs->len - *off);
  record_take(rec, &r, rs->nprocs, UINT32_MAX);
  *off += r.off;
  return 1;
}
