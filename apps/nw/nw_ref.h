/* nw_ref.h - Needleman-Wunsch global alignment, shared pieces.
 *
 * Two random protein sequences a and b of length n (residues 0..19, the
 * order of BLOSUM62's rows), scored with BLOSUM62 and a linear gap penalty
 * NW_GAP. H is the (n+1) x (n+1) score matrix:
 *     H(i,0) = -g*i,  H(0,j) = -g*j,
 *     H(i,j) = max(H(i-1,j-1) + s(a[i-1],b[j-1]), H(i-1,j) - g, H(i,j-1) - g)
 * and H(n,n) is the score of the best global alignment.
 *
 * The interior (i,j >= 1) is cut into nb x nb blocks of bs x bs cells and
 * filled as a wavefront: block (bi,bj) needs the last row of the block
 * above, the last column of the block to its left and the last cell of the
 * block above-left, so the blocks of one anti-diagonal bi+bj = d are
 * independent of each other (as in Rodinia's nw).
 *
 * Storage is by tiles: each block's bs*bs cells are contiguous, block
 * (bi,bj) at offset (bi*nb + bj)*bs*bs, row-major inside; row and column 0
 * are not stored (they are the formula above). Each block's last row is
 * also copied to an array of edges, nb*nb rows of bs cells, the edge of
 * block (bi,bj) at (bi*nb + bj)*bs: that row and the corner are all a
 * block reads of the block row above, so when block rows belong to
 * different threads (processes under ompdsm) the data that crosses is
 * rows of a few KiB packed in a small array of its own, not the last
 * page of each tile (1 MiB at the bench size), whose neighbours in memory
 * are pages that another process writes later: read as a run, they would
 * be fetched too soon and then pushed at every barrier. bs is a multiple of 32, so every tile is whole pages, and
 * one thread's cells never share a page or a cache line with another's.
 * The last block row and column are partial when bs does not divide n;
 * their unused cells are never read or written.
 *
 * Every version fills each cell with the same integer expression, so all
 * produce the same matrix whatever the order of the blocks: checks are
 * exact. */
#ifndef NW_REF_H
#define NW_REF_H

#include "apps.h"

#define NW_GAP 10       /* linear gap penalty, as Rodinia's nw uses with BLOSUM62 */
#define NW_ALPHA 20     /* residues: A R N D C Q E G H I L K M F P S T W Y V */

/* A problem: the sequences and the blocking. */
struct nw {
    long n;             /* sequence length */
    long bs;            /* block side, a multiple of 32 */
    long nb;            /* blocks per side, ceil(n / bs) */
    unsigned char *a;   /* n residues: the rows */
    unsigned char *b;   /* n residues: the columns */
};

/* The block side for sequences of length n: about n/32, rounded up to a
 * multiple of 32, and at least 64. So the wavefront has at most 63
 * anti-diagonals, each a barrier in the OpenMP and DSM versions, and two
 * processes still share a diagonal within a block (97% of the blocks'
 * time balanced). At the bench size, 2 processes under ompdsm took
 * 0.32 s with 32 blocks a side against 0.46 s with 64 and 0.35 s with
 * 16 (2026-12-07; sequential 0.48 s). */
long nw_block_side(long n);
/* Sets the blocking and generates both sequences from the seed; a and b are
 * malloc'ed (shared memory under ompdsmcc). */
void nw_init(struct nw *w, long n, uint64_t seed);
void nw_free(struct nw *w);
/* Cells in the tile array: nb*nb*bs*bs. */
size_t nw_cells(const struct nw *w);
/* Tile (bi,bj) of h. */
static inline int *nw_tile(const struct nw *w, int *h, long bi, long bj)
{
    return h + (size_t)(bi * w->nb + bj) * (size_t)(w->bs * w->bs);
}
/* Cells in the edge array: nb*nb*bs. */
size_t nw_edge_cells(const struct nw *w);
/* The edge of block (bi,bj) in e: a copy of its last row. */
static inline int *nw_edge(const struct nw *w, int *e, long bi, long bj)
{
    return e + (size_t)(bi * w->nb + bj) * (size_t)w->bs;
}
/* Fill block (bi,bj) of h and its edge in e, from the edges of the blocks
 * above and above-left and the tile to the left, which must be filled. */
void nw_block(const struct nw *w, int *h, int *e, long bi, long bj);
/* The same from explicit borders, for versions that hold only their own
 * tiles: top = H(i0, j0+1 ..) (NULL in block row 0), corner = H(i0, j0),
 * left = H(i0+1 .., j0) with stride bs (NULL in block column 0), where
 * i0 = bi*bs and j0 = bj*bs; out is the block's tile. */
void nw_kernel(const struct nw *w, long bi, long bj, const int *top, int corner,
               const int *left, int *out);
/* H(i0, j0) of a block in row or column 0 of blocks (a border cell). */
int nw_corner(const struct nw *w, long bi, long bj);
/* H(i,j) for 0 <= i,j <= n, from the tiles and the border formula. */
int nw_at(const struct nw *w, const int *h, long i, long j);

/* The sequential reference: a malloc'ed tile array filled block by block
 * in row-major block order (any order that respects the dependences gives
 * the same matrix), with an edge array of its own. */
int *nw_run_seq(const struct nw *w);
/* Number of cells (i,j >= 1) where h and ref differ; the first is reported
 * in *fi, *fj (left alone when there is none). */
long nw_diff(const struct nw *w, const int *h, const int *ref, long *fi, long *fj);

/* Independent checks, which share no code with nw_block.
 * nw_linear: the plain row-by-row recurrence in two rows of memory; gives
 * H(n,n) and fills last_row[0..n] = H(n,.) and last_col[0..n] = H(.,n). */
int nw_linear(const struct nw *w, int *last_row, int *last_col);
/* 0 when the last row and column of h and its final score equal
 * nw_linear's; otherwise prints the first difference and returns 1. */
int nw_check_linear(const struct nw *w, const int *h);
/* The end of every parallel version, with the whole matrix h at hand: the
 * score, then, unless o->verify is off, h against the sequential run cell
 * by cell and against the linear-space recurrence, and the verdict.
 * Returns the exit status. */
int nw_verify(const struct nw *w, const int *h, const struct app_opts *o);
/* Walks back from (n,n) through h, at each cell choosing a predecessor that
 * the recurrence allows, and returns the score of the alignment so traced,
 * recomputed from BLOSUM62 and the gap penalty (it equals H(n,n) when h is
 * consistent); *cols gets the alignment's length. -1 in *cols if some cell
 * has no valid predecessor. */
long nw_traceback_score(const struct nw *w, const int *h, long *cols);

#endif
