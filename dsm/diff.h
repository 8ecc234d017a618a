/*
 * diff.h — twins and byte-exact diffs of one page.
 *
 * Before the first write to a page after a release the page is copied (the
 * twin). Later the bytes that differ between the twin and the page are encoded
 * as a diff, sent to the processes that need them, and applied to their copy.
 * Several processes may write different bytes of one page at the same time
 * (false sharing, even neighbouring bytes of one word of a char array), and
 * their diffs are applied one after another. So a diff carries EXACTLY the
 * bytes whose value differs between twin and page: a byte written with the
 * value it already had, or never written, is never carried, because carrying
 * it would overwrite another writer's byte with a stale value. Runs are never
 * widened to cover an unchanged gap, whatever that would save in headers.
 *
 * These are pure functions: no globals, no allocation, no locking. The caller
 * owns every buffer.
 *
 * Encoding (all integers little-endian, no alignment anywhere):
 *
 *   diff = run*                       the empty diff (length 0) means "no change"
 *   run  = off:u16  lenm1:u16  bytes[lenm1 + 1]
 *
 *   - off is the first byte of the run in the page (0 .. page_size-1);
 *   - lenm1 is the run length minus one, so a run holds 1 .. 65536 bytes and a
 *     zero-length run cannot be expressed;
 *   - off + lenm1 + 1 <= page_size;
 *   - runs are in increasing order and separated by at least one unchanged
 *     byte: off of a run > end of the previous run. Two touching runs are
 *     malformed, since the encoder always emits maximal runs; so the encoding
 *     of a given set of changed bytes is unique.
 *
 * Page sizes are multiples of 8 and at most 65536 (so off fits in 16 bits).
 * A run costs 4 header bytes. The worst case is n/2 runs, one of two bytes
 * and the others of one, with one unchanged byte between them ("XX.X.X.X"):
 * 5n/2 + 1 bytes for a page of n bytes (dsm__diff_max).
 *
 * dsm__diff_apply validates the whole diff before touching the page, and
 * never reads outside [diff, diff+len), so it is safe on bytes received from
 * the network.
 */
#ifndef DSM_DIFF_H
#define DSM_DIFF_H

#include <stddef.h>

/* Largest page a diff can describe. */
#define DSM__DIFF_MAX_PAGE 65536u
/* Bytes of header in front of each run. */
#define DSM__DIFF_RUN_HDR  4u

/* Upper bound of an encoded diff for a page of page_size bytes. */
size_t dsm__diff_max(size_t page_size);

/* Encode the bytes of page that differ from twin. Returns the encoded length
 * (0 means no change). out must hold dsm__diff_max(page_size) bytes and must
 * not overlap twin or page. An invalid page_size (not a multiple of 8, or
 * above DSM__DIFF_MAX_PAGE) is a programming error: it aborts. */
size_t dsm__diff_encode(const void *twin, const void *page, size_t page_size, void *out);

/* Apply an encoded diff to page. Returns 0, or -1 if the encoding is malformed
 * (a run out of bounds, truncated, touching or overlapping the previous one,
 * an invalid page_size) in which case page is left untouched. */
int dsm__diff_apply(void *page, size_t page_size, const void *diff, size_t len);

/* Number of changed bytes an encoded diff carries, -1 if malformed. */
long dsm__diff_payload(const void *diff, size_t len, size_t page_size);

#endif
