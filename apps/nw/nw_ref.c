/* nw_ref.c - the Needleman-Wunsch block kernel, the sequential reference and
 * the independent checks (see nw_ref.h). */
#include "nw_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* BLOSUM62 (Henikoff & Henikoff 1992), residues in the order of
 * NW_ALPHA's comment. */
static const int blosum62[NW_ALPHA][NW_ALPHA] = {
    /*        A   R   N   D   C   Q   E   G   H   I   L   K   M   F   P   S   T   W   Y   V */
    /* A */ { 4, -1, -2, -2,  0, -1, -1,  0, -2, -1, -1, -1, -1, -2, -1,  1,  0, -3, -2,  0 },
    /* R */ {-1,  5,  0, -2, -3,  1,  0, -2,  0, -3, -2,  2, -1, -3, -2, -1, -1, -3, -2, -3 },
    /* N */ {-2,  0,  6,  1, -3,  0,  0,  0,  1, -3, -3,  0, -2, -3, -2,  1,  0, -4, -2, -3 },
    /* D */ {-2, -2,  1,  6, -3,  0,  2, -1, -1, -3, -4, -1, -3, -3, -1,  0, -1, -4, -3, -3 },
    /* C */ { 0, -3, -3, -3,  9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1 },
    /* Q */ {-1,  1,  0,  0, -3,  5,  2, -2,  0, -3, -2,  1,  0, -3, -1,  0, -1, -2, -1, -2 },
    /* E */ {-1,  0,  0,  2, -4,  2,  5, -2,  0, -3, -3,  1, -2, -3, -1,  0, -1, -3, -2, -2 },
    /* G */ { 0, -2,  0, -1, -3, -2, -2,  6, -2, -4, -4, -2, -3, -3, -2,  0, -2, -2, -3, -3 },
    /* H */ {-2,  0,  1, -1, -3,  0,  0, -2,  8, -3, -3, -1, -2, -1, -2, -1, -2, -2,  2, -3 },
    /* I */ {-1, -3, -3, -3, -1, -3, -3, -4, -3,  4,  2, -3,  1,  0, -3, -2, -1, -3, -1,  3 },
    /* L */ {-1, -2, -3, -4, -1, -2, -3, -4, -3,  2,  4, -2,  2,  0, -3, -2, -1, -2, -1,  1 },
    /* K */ {-1,  2,  0, -1, -3,  1,  1, -2, -1, -3, -2,  5, -1, -3, -1,  0, -1, -3, -2, -2 },
    /* M */ {-1, -1, -2, -3, -1,  0, -2, -3, -2,  1,  2, -1,  5,  0, -2, -1, -1, -1, -1,  1 },
    /* F */ {-2, -3, -3, -3, -2, -3, -3, -3, -1,  0,  0, -3,  0,  6, -4, -2, -2,  1,  3, -1 },
    /* P */ {-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4,  7, -1, -1, -4, -3, -2 },
    /* S */ { 1, -1,  1,  0, -1,  0,  0,  0, -1, -2, -2,  0, -1, -2, -1,  4,  1, -3, -2, -2 },
    /* T */ { 0, -1,  0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1,  1,  5, -2, -2,  0 },
    /* W */ {-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1,  1, -4, -3, -2, 11,  2, -3 },
    /* Y */ {-2, -2, -2, -3, -2, -1, -2, -3,  2, -1, -1, -2, -1,  3, -3, -2, -2,  2,  7, -1 },
    /* V */ { 0, -3, -3, -3, -1, -2, -2, -3, -3,  3,  1, -2,  1, -1, -2, -2,  0, -3, -1,  4 },
};

long nw_block_side(long n)
{
    long bs = (n + 31) / 32;
    bs = (bs + 31) / 32 * 32;
    return bs < 64 ? 64 : bs;
}

void nw_init(struct nw *w, long n, uint64_t seed)
{
    struct app_rng r;
    w->n = n;
    w->bs = nw_block_side(n);
    w->nb = (n + w->bs - 1) / w->bs;
    w->a = malloc((size_t)n);
    w->b = malloc((size_t)n);
    if (!w->a || !w->b) {
        fprintf(stderr, "nw: out of memory\n");
        exit(2);
    }
    /* From the generator's high bits: its low bits have short periods (the
     * modulus is a power of two), and x mod 20 would repeat. */
    app_rng_seed(&r, seed);
    for (long k = 0; k < n; k++)
        w->a[k] = (unsigned char)(app_rng_double(&r) * NW_ALPHA);
    for (long k = 0; k < n; k++)
        w->b[k] = (unsigned char)(app_rng_double(&r) * NW_ALPHA);
}

void nw_free(struct nw *w)
{
    free(w->a);
    free(w->b);
    w->a = w->b = NULL;
}

size_t nw_cells(const struct nw *w)
{
    return (size_t)(w->nb * w->nb) * (size_t)(w->bs * w->bs);
}

size_t nw_edge_cells(const struct nw *w)
{
    return (size_t)(w->nb * w->nb) * (size_t)w->bs;
}

static inline int max2(int x, int y) { return x > y ? x : y; }

/* One row of a block: row[j] from the row above, the cell to the left l
 * and the diagonal d; above NULL means row 0 of H, whose cell j is
 * -g*(j0+j+1). */
static inline void block_row(const int *srow, const unsigned char *bres, const int *above,
                             long j0, int d, int l, int *row, long cols)
{
    const int g = NW_GAP;
    if (!above) {
        for (long j = 0; j < cols; j++) {
            int up = (int)(-g * (j0 + j + 1));
            int v = max2(d + srow[bres[j]], max2(up, l) - g);
            d = up;
            row[j] = l = v;
        }
        return;
    }
    for (long j = 0; j < cols; j++) {
        int v = max2(d + srow[bres[j]], max2(above[j], l) - g);
        d = above[j];
        row[j] = l = v;
    }
}

void nw_kernel(const struct nw *w, long bi, long bj, const int *top, int corner,
               const int *left, int *out)
{
    const long bs = w->bs, g = NW_GAP;
    const long i0 = bi * bs, j0 = bj * bs;      /* H rows i0+1.., columns j0+1.. */
    const long rows = w->n - i0 < bs ? w->n - i0 : bs;
    const long cols = w->n - j0 < bs ? w->n - j0 : bs;
    const int *above = top;
    int diag = corner;                          /* H(i0+i, j0) for row i */
    for (long i = 0; i < rows; i++) {
        int l = left ? left[i * bs] : (int)(-g * (i0 + i + 1));
        block_row(blosum62[w->a[i0 + i]], w->b + j0, above, j0, diag, l, out + i * bs, cols);
        diag = l;
        above = out + i * bs;
    }
}

int nw_corner(const struct nw *w, long bi, long bj)
{
    return (int)(-NW_GAP * (bi == 0 ? bj * w->bs : bi * w->bs));
}

void nw_block(const struct nw *w, int *h, int *e, long bi, long bj)
{
    const long bs = w->bs;
    const int *top = bi > 0 ? nw_edge(w, e, bi - 1, bj) : NULL;
    /* Only the last block column is partial, so the tile to the left is
     * whole and its last column is column bs-1. */
    const int *left = bj > 0 ? nw_tile(w, h, bi, bj - 1) + (bs - 1) : NULL;
    int corner = bi > 0 && bj > 0 ? nw_edge(w, e, bi - 1, bj - 1)[bs - 1] : nw_corner(w, bi, bj);
    int *t = nw_tile(w, h, bi, bj);
    nw_kernel(w, bi, bj, top, corner, left, t);
    long rows = w->n - bi * bs < bs ? w->n - bi * bs : bs;
    long cols = w->n - bj * bs < bs ? w->n - bj * bs : bs;
    memcpy(nw_edge(w, e, bi, bj), t + (rows - 1) * bs, (size_t)cols * sizeof *t);
}

int nw_at(const struct nw *w, const int *h, long i, long j)
{
    if (i == 0)
        return (int)(-NW_GAP * j);
    if (j == 0)
        return (int)(-NW_GAP * i);
    long bi = (i - 1) / w->bs, bj = (j - 1) / w->bs;
    const int *t = nw_tile(w, (int *)h, bi, bj);
    return t[((i - 1) % w->bs) * w->bs + (j - 1) % w->bs];
}

int *nw_run_seq(const struct nw *w)
{
    int *h = malloc(nw_cells(w) * sizeof *h), *e = malloc(nw_edge_cells(w) * sizeof *e);
    if (!h || !e) {
        fprintf(stderr, "nw: out of memory for the reference\n");
        exit(2);
    }
    for (long bi = 0; bi < w->nb; bi++)
        for (long bj = 0; bj < w->nb; bj++)
            nw_block(w, h, e, bi, bj);
    free(e);
    return h;
}

long nw_diff(const struct nw *w, const int *h, const int *ref, long *fi, long *fj)
{
    long bad = 0, bs = w->bs;
    for (long bi = 0; bi < w->nb; bi++)
        for (long bj = 0; bj < w->nb; bj++) {
            const int *t = nw_tile(w, (int *)h, bi, bj), *r = nw_tile(w, (int *)ref, bi, bj);
            long rows = w->n - bi * bs < bs ? w->n - bi * bs : bs;
            long cols = w->n - bj * bs < bs ? w->n - bj * bs : bs;
            for (long i = 0; i < rows; i++) {
                if (memcmp(t + i * bs, r + i * bs, (size_t)cols * sizeof *t) == 0)
                    continue;
                for (long j = 0; j < cols; j++)
                    if (t[i * bs + j] != r[i * bs + j] && bad++ == 0) {
                        *fi = bi * bs + i + 1;
                        *fj = bj * bs + j + 1;
                    }
            }
        }
    return bad;
}

int nw_linear(const struct nw *w, int *last_row, int *last_col)
{
    long n = w->n;
    int *prev = malloc((size_t)(n + 1) * sizeof *prev);
    int *cur = malloc((size_t)(n + 1) * sizeof *cur);
    if (!prev || !cur) {
        fprintf(stderr, "nw: out of memory\n");
        exit(2);
    }
    for (long j = 0; j <= n; j++)
        prev[j] = (int)(-NW_GAP * j);
    last_col[0] = (int)(-NW_GAP * n);
    for (long i = 1; i <= n; i++) {
        cur[0] = (int)(-NW_GAP * i);
        for (long j = 1; j <= n; j++) {
            int best = prev[j - 1] + blosum62[w->a[i - 1]][w->b[j - 1]];
            if (prev[j] - NW_GAP > best)
                best = prev[j] - NW_GAP;
            if (cur[j - 1] - NW_GAP > best)
                best = cur[j - 1] - NW_GAP;
            cur[j] = best;
        }
        last_col[i] = cur[n];
        int *t = prev; prev = cur; cur = t;
    }
    for (long j = 0; j <= n; j++)
        last_row[j] = prev[j];
    int score = prev[n];
    free(prev);
    free(cur);
    return score;
}

int nw_check_linear(const struct nw *w, const int *h)
{
    long n = w->n;
    int *row = malloc((size_t)(n + 1) * sizeof *row), *col = malloc((size_t)(n + 1) * sizeof *col);
    if (!row || !col) {
        fprintf(stderr, "nw: out of memory\n");
        exit(2);
    }
    nw_linear(w, row, col);
    int bad = 0;
    for (long k = 0; k <= n && !bad; k++) {
        long i = n, j = k;
        int want = row[k];
        if (nw_at(w, h, i, j) == want) {
            i = k, j = n;
            want = col[k];
        }
        if (nw_at(w, h, i, j) != want) {
            printf("nw: H(%ld,%ld) = %d, the linear-space recurrence has %d\n", i, j,
                   nw_at(w, h, i, j), want);
            bad = 1;
        }
    }
    free(row);
    free(col);
    return bad;
}

long nw_traceback_score(const struct nw *w, const int *h, long *cols)
{
    long i = w->n, j = w->n, score = 0, len = 0;
    while (i > 0 || j > 0) {
        int here = nw_at(w, h, i, j);
        if (i > 0 && j > 0) {
            int s = blosum62[w->a[i - 1]][w->b[j - 1]];
            if (nw_at(w, h, i - 1, j - 1) + s == here) {
                score += s;
                i--, j--, len++;
                continue;
            }
        }
        if (i > 0 && nw_at(w, h, i - 1, j) - NW_GAP == here) {
            score -= NW_GAP;
            i--, len++;
        } else if (j > 0 && nw_at(w, h, i, j - 1) - NW_GAP == here) {
            score -= NW_GAP;
            j--, len++;
        } else {
            *cols = -1;
            return score;
        }
    }
    *cols = len;
    return score;
}

int nw_verify(const struct nw *w, const int *h, const struct app_opts *o)
{
    printf("nw: score %d (n %ld, blocks %ld x %ld of %ld)\n", nw_at(w, h, w->n, w->n), w->n,
           w->nb, w->nb, w->bs);
    if (!o->verify) {
        printf("UNVERIFIED nw\n");
        return 0;
    }
    int *ref = nw_run_seq(w);
    long fi = 0, fj = 0, bad = nw_diff(w, h, ref, &fi, &fj);
    if (bad)
        printf("nw: %ld cells differ from the sequential run, the first H(%ld,%ld) = %d, "
               "not %d\n", bad, fi, fj, nw_at(w, h, fi, fj), nw_at(w, ref, fi, fj));
    int lin = nw_check_linear(w, h);
    int rc = app_verdict(!bad && !lin, "nw", "matrix identical to the sequential run; last row, "
                                             "column and score equal the linear-space recurrence");
    free(ref);
    return rc;
}
