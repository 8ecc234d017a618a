/*
 * lrc.h — lazy release consistency: vector time, intervals, write notices,
 * and the acquire/release operations synchronization is built from.
 *
 * Vocabulary (TreadMarks):
 *   interval  the stretch of a process's execution between two
 *             synchronization operations in which it wrote shared pages.
 *             (q, i) is process q's i-th interval, i >= 1.
 *   vt        vector time: vt[q] = newest interval of q this process has
 *             applied (invalidated the pages of). known[q] >= vt[q] is the
 *             newest interval of q whose record this process holds.
 *   notice    "page P was written in interval (q, i)": kept on the page until
 *             the page is next accessed, when q's diff for i is fetched.
 *
 * All functions here run with dsm__mu held unless stated otherwise.
 */
#ifndef DSM_LRC_H
#define DSM_LRC_H

#include <stdint.h>
#include "buf.h"
#include "region.h"

typedef struct dsm__interval {
  uint32_t proc, idx, npages;
  uint32_t vtsum;        /* sum of vt: a linear extension of happens-before */
  uint32_t *vt;          /* nprocs entries, at the moment the interval closed */
  uint32_t *pages;
} dsm__interval_t;

typedef struct dsm__notice {
  dsm__interval_t *iv;
  struct dsm__notice *next;
} dsm__notice_t;

typedef struct dsm__diffrec {
  uint32_t idx, len;
  struct dsm__diffrec *next;
  uint8_t data[];
} dsm__diffrec_t;

extern uint32_t *dsm__vt;      /* applied */
extern uint32_t *dsm__known;   /* records held */
extern uint32_t *dsm__gc_vt;   /* vector time of the last garbage collection */

void dsm__lrc_init(void);

/* Close the open interval if this process wrote anything in it: record a
 * write notice for every dirty page and write-protect them. */
void dsm__release(void);
/* Apply every interval record held but not yet applied: invalidate the pages
 * they name. */
void dsm__acquire(void);

/* Append the records of every interval held with idx > their[q] (all q). */
void dsm__intervals_encode(dsm__buf_t *b, const uint32_t *their);
/* Append only this process's own intervals with idx > after. */
void dsm__own_intervals_encode(dsm__buf_t *b, uint32_t after);
/* Take interval records from a message into the store (duplicates are
 * ignored). Returns 0, or -1 when the encoding is malformed. */
int  dsm__intervals_decode(dsm__rd_t *r);
dsm__interval_t *dsm__interval_get(uint32_t proc, uint32_t idx);

/* Vector time on the wire. */
void dsm__vt_encode(dsm__buf_t *b, const uint32_t *vt);
int  dsm__vt_decode(dsm__rd_t *r, uint32_t *vt);

/* fault.c */
void dsm__fault_init(void);
/* Bring page pg up to date in the system view (fetch its base copy and
 * diffs) and make it readable. Called without dsm__mu; takes it. */
void dsm__page_validate(uint32_t pg);
/* Make this process's diff for the twin of page p (before others' diffs are
 * applied over it, or before the page is written in a later interval). */
void dsm__diff_from_twin(uint32_t pg, dsm__page_t *p);
/* Pages written in the open interval. */
extern uint32_t *dsm__dirty;
extern size_t dsm__ndirty;

/* gc.c */
/* Would this process like a garbage collection at the next barrier? */
int  dsm__gc_wanted(void);
/* Run the collection; called by every process right after a full barrier
 * whose departure asked for it. Without dsm__mu. */
void dsm__gc_run(void);
/* Remember that page pg now holds consistency data (a notice, twin or diff),
 * so the collection need not scan the whole page table. */
void dsm__gc_track(uint32_t pg, dsm__page_t *p);

/* interval.c */
void dsm__intervals_discard(void);
void dsm__dirty_add(uint32_t pg);

#endif
