/*
 * page_msg.h — the PAGE message, both ways: the request a fault sends to a
 * page's home (fetch.c) and the reply the home gathers (home.c), and their
 * decoders. One-sided fetches (onesided.c) read the same request and build
 * the same reply.
 *
 * Request: epoch, count word (the run's length | DSM__PAGE_REQ_* flags),
 * the faulting page's index when DSM__PAGE_REQ_MID, then per page: pg,
 * nneed, (proc, idx)[nneed], the writes the copy must hold (write notices
 * it does not satisfy, and the asker's own newest interval, whose diff may
 * still be on its way to the home).
 *
 * Reply, per page of the request in its order: the version vector
 * (nprocs u32), the kind (DSM__PAGE_*), then what the kind says: the
 * bytes, a word, or nothing.
 *
 * The decoders are pure (they read only their arguments), so that a
 * malformed message is found before any page state changes, and so that
 * tests/dsm/fuzz_page_msg.c can throw arbitrary bytes at them.
 */
#ifndef DSM_PAGE_MSG_H
#define DSM_PAGE_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "region.h"

/* The kinds of a page in a reply. A page of zeros (memory allocated and not
 * yet written, the usual state of an array the master allocates and the
 * team then fills) travels as its kind alone. */
#define DSM__PAGE_FULL 0u
#define DSM__PAGE_ZERO 1u
/* Never touched by anyone: the asker is its home from now on, and it is
 * zeros (first_touch.c). No bytes; the kind is followed by the gift's
 * generation (u32). */
#define DSM__PAGE_GIVEN 2u
/* Not homed here any more: the kind is followed by the new home (u32). */
#define DSM__PAGE_MOVED 3u
/* Not sent: the home kept an exclusive page of its own out of a run that
 * gave the asker pages (first_touch.c), or cut the run at an array's end.
 * No bytes. Never the faulting page. */
#define DSM__PAGE_SKIPPED 4u
/* Given with its data to an asker that faulted on a write: the asker is its
 * home from now on. The kind is followed by the gift's generation (u32),
 * then the page's 4096 bytes (first_touch.c). */
#define DSM__PAGE_GIVEN_DATA 5u
#define DSM__PAGE_KINDS 6u

/* In a PAGE request's count word: the asker faulted on a write, so pages of
 * zeros may be given to it too, not only untouched ones (first_touch.c) ... */
#define DSM__PAGE_REQ_WRITE 0x80000000u
/* ... and the faulting page is the run's last, not its first (a run that
 * walks backward, asked in address order) ... */
#define DSM__PAGE_REQ_BACK  0x40000000u
/* ... or it is inside the run: its index (u32) follows the count word (a
 * cold run that reaches below the fault: fetch.c). */
#define DSM__PAGE_REQ_MID   0x20000000u
#define DSM__PAGE_REQ_FLAGS (DSM__PAGE_REQ_WRITE | DSM__PAGE_REQ_BACK | DSM__PAGE_REQ_MID)

/* ---- the request ---- */

/* Begin a request for count pages; fault_k is the faulting page's index. */
void dsm__page_req_begin(dsm__buf_t *b, uint32_t epoch, uint32_t count, int write, int back,
                         uint32_t fault_k);
/* One page of the request and the writes its copy must hold: the needs
 * (pairs of proc, idx) and, when own_idx is not 0, (own_rank, own_idx). */
void dsm__page_req_page(dsm__buf_t *b, uint32_t pg, const struct dsm__need *need,
                        unsigned own_rank, uint32_t own_idx);

typedef struct dsm__page_req {
  uint32_t epoch, count, fault_k;
  int write, back;
  uint32_t pages[DSM__RUN_MAX];
  uint32_t nneed[DSM__RUN_MAX];
  const uint8_t *needs[DSM__RUN_MAX];   /* nneed[k] pairs (proc, idx), u32 each, unaligned */
} dsm__page_req_t;

/* Decode a request. Returns 0 when it is malformed: a count of 0 or over
 * DSM__RUN_MAX, a faulting index outside the run, both BACK and MID, a
 * page at or past npages, more needs than nprocs, a need's proc at or past
 * nprocs, or bytes left over. */
int dsm__page_req_read(dsm__page_req_t *q, const void *data, size_t len, unsigned nprocs,
                       uint32_t npages);
/* The n-th need of the request's k-th page: the proc, and *idx. */
unsigned dsm__page_req_need(const dsm__page_req_t *q, uint32_t k, uint32_t n, uint32_t *idx);
/* Does version vector pv hold every write the k-th page needs? */
int dsm__page_req_met(const dsm__page_req_t *q, uint32_t k, const uint32_t *pv);

/* ---- the reply ---- */

/* A reply gathered straight from the pages, without a copy (the transport
 * copies it once, into the reply it keeps for retransmission). The
 * pointers must stay valid until it is sent. */
typedef struct dsm__page_reply {
  const void *bufs[4 * DSM__RUN_MAX];
  size_t lens[4 * DSM__RUN_MAX];
  unsigned n;
  unsigned nprocs;
} dsm__page_reply_t;

void dsm__page_reply_init(dsm__page_reply_t *r, unsigned nprocs);
/* One page: its version vector (NULL: all zero), its kind, the word that
 * follows MOVED, GIVEN and GIVEN_DATA (else ignored), and the bytes that
 * follow FULL and GIVEN_DATA (else ignored). */
void dsm__page_reply_add(dsm__page_reply_t *r, const uint32_t *pv, uint32_t kind,
                         const uint32_t *word, const void *bytes);

/* A page of a reply, decoded. */
typedef struct dsm__page_ans {
  uint32_t kind;
  uint32_t word;           /* MOVED: the new home; GIVEN, GIVEN_DATA: the gift's generation */
  const uint8_t *pv;       /* nprocs u32, unaligned */
  const uint8_t *data;     /* FULL, GIVEN_DATA: DSM__PAGE bytes; else NULL */
} dsm__page_ans_t;

/* Decode the reply to a request of count pages from rank home. Returns 0
 * when it is malformed: truncated, an unknown kind, bytes left over, a
 * SKIPPED faulting page, a MOVED page whose new home is not a rank or is
 * the home that answered, or a gift generation of 0 or over 65535. */
int dsm__page_reply_read(dsm__page_ans_t *ans, const void *rep, size_t len, uint32_t count,
                         uint32_t fault_k, unsigned home, unsigned nprocs);

#endif
