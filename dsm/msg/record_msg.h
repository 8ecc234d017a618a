/*
 * record_msg.h — interval records and vector times on the wire, both ways.
 *
 * Records ride in many messages (a lock's grant and TOKEN, a barrier's
 * arrival and departure, JOIN, FORK, a semaphore's answer, a task, a
 * flush): count:u32, then per record proc:u32 idx:u32 npages:u32
 * vt[nprocs] pages:u32[npages] (docs/protocol.md "Protocol messages"). A
 * vector time is nprocs u32.
 *
 * The decoder is pure (it reads only its arguments): a malformed list is
 * found before a record enters the store, and tests/dsm/fuzz_records.c can
 * throw arbitrary bytes at it. interval.c walks the store to encode, and
 * takes a decoded list into it (dsm__intervals_decode).
 */
#ifndef DSM_RECORD_MSG_H
#define DSM_RECORD_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "lrc.h"

/* ---- encoding ---- */

/* A list: begin (returns where its count goes), one put per record, end. */
size_t dsm__records_begin(dsm__buf_t *b);
void dsm__record_put(dsm__buf_t *b, const dsm__interval_t *iv, unsigned nprocs);
void dsm__records_end(dsm__buf_t *b, size_t at, uint32_t count);
void dsm__vt_put(dsm__buf_t *b, const uint32_t *vt, unsigned nprocs);

/* ---- decoding ---- */

/* A list of records, decoded: where they are, to be walked with
 * dsm__records_next. */
typedef struct dsm__records {
  uint32_t count;
  const uint8_t *p;      /* the first record */
  size_t len;            /* the records' bytes */
  unsigned nprocs;
} dsm__records_t;

typedef struct dsm__record {
  uint32_t proc, idx, npages;
  const uint8_t *vt;     /* nprocs u32, unaligned (a record sits at any offset) */
  const uint8_t *pages;  /* npages u32, unaligned */
} dsm__record_t;

/* Decode the list at r (advanced past it) for a receiver that holds the
 * records of q up to known[q]. Returns 0 when it is malformed: truncated,
 * a proc at or past nprocs, more pages than npages or a page at or past
 * npages, or a gap: a record of q newer than the one after the newest held
 * (known[q], or an earlier record of q in the list). A sender includes
 * every record newer than what the receiver said it holds, so a gap is a
 * broken protocol. Records already held (idx up to known[q]) are valid and
 * ignored by the store. */
int dsm__records_read(dsm__records_t *rs, dsm__rd_t *r, unsigned nprocs, uint32_t npages,
                      const uint32_t *known);
/* The next record of a decoded list; *off starts at 0. Returns 0 past the
 * last. */
int dsm__records_next(const dsm__records_t *rs, size_t *off, dsm__record_t *rec);

/* A vector time at r (advanced past it), or NULL when it is cut short.
 * Unaligned. */
const uint8_t *dsm__vt_read(dsm__rd_t *r, unsigned nprocs);

#endif
