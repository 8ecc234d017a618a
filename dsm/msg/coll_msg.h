/*
 * coll_msg.h — what a collective (a barrier, a join) carries for the
 * protocol, both ways: the arrival part each member sends the process that
 * collects the arrivals, the departure part that process sends every
 * member, and their decoders. collective.c says what they are for.
 *
 * Arrival part: first:u32 last:u32 (the sender's own intervals of the
 * epoch, whose records come before it in the same message); ntold:u32 and
 * (reader:u32 sent:u32)[ntold] (PUSH messages sent so far, for the readers
 * whose count changed); ntook:u32 and (first:u32 count:u32)[ntook] (runs
 * of pages the sender took a copy of from elsewhere); ngifts:u32 and
 * (first:u32 count:u32 gen:u32)[ngifts] (runs of pages given to it at a
 * first touch, with the gift's generation); then a ride.
 *
 * A ride: len:u32 push[len], a PUSH payload to the receiver riding along
 * (len 0: none). It ends an arrival, and begins each member's copy of the
 * departure (barrier.c, forkjoin.c put it there: it differs per member).
 *
 * Departure part: ntold:u32 and (home:u32 reader:u32 sent:u32)[ntold]
 * (the arrivals' counts, relayed); flags:u32 (DSM__COLL_FULL,
 * DSM__COLL_RECORDS), with RECORDS the manager's known vector (nprocs
 * u32); ngifts:u32 and (first:u32 count:u32 home:u32)[ngifts] (pages given
 * at a first touch in the epoch, and their homes now); nruns:u32 and
 * (first:u32 count:u32 writer:u32)[nruns] (pages with one writer in the
 * epoch, DSM__COLL_CLEAN in writer when nobody else took a copy).
 *
 * The decoders are pure (they read only their arguments), so that a
 * malformed part is found before anything it says is applied, and so that
 * tests/dsm/fuzz_collective.c can throw arbitrary bytes at them.
 */
#ifndef DSM_COLL_MSG_H
#define DSM_COLL_MSG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "buf.h"

/* In a departure's flags: the whole job took part (homes move) ... */
#define DSM__COLL_FULL    1u
/* ... and the departure delivers every record (a barrier; a join does
 * not): the manager's known vector follows. */
#define DSM__COLL_RECORDS 2u
#define DSM__COLL_FLAGS   (DSM__COLL_FULL | DSM__COLL_RECORDS)
/* In a departure run's writer word: nobody but the writer took a copy. */
#define DSM__COLL_CLEAN   0x80000000u

/* home has sent reader `sent` PUSH messages so far. */
typedef struct dsm__coll_told { uint32_t home, reader, sent; } dsm__coll_told_t;
/* A page and its word: a gift's generation (arrival); the home a gift went
 * to, or the page's one writer (departure). */
typedef struct dsm__coll_page { uint32_t pg, word; } dsm__coll_page_t;

/* ---- encoding ---- */

/* What an arrival part says, up to its ride. told[].home is not sent (it
 * is the sender). took: pages in increasing order, each once; gifts:
 * sorted by page, each once. Both go as runs. */
typedef struct dsm__coll_arrive_in {
  uint32_t first, last;
  const dsm__coll_told_t *told;
  size_t ntold;
  const uint32_t *took;
  size_t ntook;
  const dsm__coll_page_t *gifts;
  size_t ngifts;
} dsm__coll_arrive_in_t;

void dsm__coll_arrive_put(dsm__buf_t *b, const dsm__coll_arrive_in_t *in);
/* A ride of len bytes (NULL, 0: none). */
void dsm__coll_ride_put(dsm__buf_t *b, const void *push, uint32_t len);

/* What a departure part says. gifts and writers: one entry per page, in
 * any order; sorted here (in place) and sent as runs of one word. known:
 * with DSM__COLL_RECORDS, nprocs u32. */
typedef struct dsm__coll_depart_in {
  const dsm__coll_told_t *told;
  size_t ntold;
  uint32_t flags;
  const uint32_t *known;
  unsigned nprocs;
  dsm__coll_page_t *gifts;
  size_t ngifts;
  dsm__coll_page_t *writers;
  size_t nwriters;
} dsm__coll_depart_in_t;

void dsm__coll_depart_put(dsm__buf_t *b, const dsm__coll_depart_in_t *in);

/* ---- decoding ---- */

/* A ride, decoded. Its payload is a PUSH message's, checked by that
 * message's decoder (pushed.c) when it is taken. */
typedef struct dsm__coll_ride {
  uint32_t len;
  const uint8_t *push;
} dsm__coll_ride_t;

/* Decode the ride at r (advanced past it). Returns 0 when it is cut short. */
int dsm__coll_ride_read(dsm__coll_ride_t *ride, dsm__rd_t *r);

/* An arrival part, decoded. The lists point into the message: entries of
 * u32 words, unaligned (dsm__coll_entry reads one). */
typedef struct dsm__coll_arrival {
  uint32_t first, last;
  uint32_t ntold, ntook, ngifts;
  const uint8_t *told;      /* (reader, sent) */
  const uint8_t *took;      /* (first, count) */
  const uint8_t *gifts;     /* (first, count, gen) */
  dsm__coll_ride_t ride;
} dsm__coll_arrival_t;

/* Decode an arrival part, the whole of data, from a sender whose records
 * the receiver holds up to `known` (its newest). Returns 0 when it is
 * malformed: cut short, last past known, more counts than nprocs or a
 * reader at or past nprocs, more runs than npages, a run that leaves the
 * pages, a gift generation of 0 or over 65535, or bytes left over. */
int dsm__coll_arrival_read(dsm__coll_arrival_t *a, const void *data, size_t len, unsigned nprocs,
                           uint32_t npages, uint32_t known);

/* A departure part, decoded; lists as in an arrival. */
typedef struct dsm__coll_depart {
  uint32_t flags;
  uint32_t ntold, ngifts, nruns;
  const uint8_t *told;      /* (home, reader, sent) */
  const uint8_t *known;     /* with DSM__COLL_RECORDS: nprocs u32; else NULL */
  const uint8_t *gifts;     /* (first, count, home) */
  const uint8_t *runs;      /* (first, count, writer | DSM__COLL_CLEAN) */
} dsm__coll_depart_t;

/* Decode the departure part at r (advanced past it; what follows is the
 * caller's). Returns 0 when it is malformed: cut short, more counts than
 * nprocs * nprocs or a rank at or past nprocs, an unknown flag, a run that
 * leaves the pages, or a gift or a run without DSM__COLL_FULL. */
int dsm__coll_depart_read(dsm__coll_depart_t *d, dsm__rd_t *r, unsigned nprocs, uint32_t npages);

/* The i-th entry, of n words, of a decoded list. */
static inline void dsm__coll_entry(const uint8_t *list, uint32_t i, unsigned n, uint32_t *out)
{
  memcpy(out, list + (size_t)i * n * 4, n * 4);
}

#endif
