/* nw_omp.c - Needleman-Wunsch in OpenMP: the wavefront of anti-diagonals
 * of blocks, one parallel region around it and an `omp for` over the
 * blocks of each diagonal, whose implicit barrier orders the diagonals.
 *
 * The loop runs over every block row and skips the rows the diagonal does
 * not cross, with schedule(static,1): block row bi always goes to thread
 * bi mod T. So a block's left neighbour is always the same thread's, and
 * only the last row of the block above comes from another thread; and the
 * rows a diagonal crosses are consecutive, so dealing them round-robin
 * balances every diagonal. A static schedule over only the diagonal's own
 * blocks would move each block row from thread to thread as the diagonals
 * shorten, and so every tile.
 *
 * The number of diagonals is what costs: each is a barrier, a round of
 * messages between the processes under ompdsm. nw_block_side() picks
 * blocks of about n/32 cells a side (512 at the bench size: 63 barriers,
 * each between diagonals of up to 32 blocks of 262,144 cells). */
#include "nw_ref.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct app_presets presets = { 1024, 1, 16384, 1 };

int main(int argc, char **argv)
{
    struct app_opts o;
    struct nw w;
    app_parse(&o, argc, argv, "nw", &presets);
    nw_init(&w, o.n, o.seed);
    long nb = w.nb, tile = w.bs * w.bs;
    int *h = malloc(nw_cells(&w) * sizeof *h), *e = malloc(nw_edge_cells(&w) * sizeof *e);
    if (!h || !e)
        return 2;
    int nthreads = omp_get_max_threads();

    /* Each block row's tiles and edges are first touched by the thread
     * that will compute them (the same static schedule): on a NUMA machine,
     * and under ompdsm, their pages then live where they are written. */
#pragma omp parallel for schedule(static, 1)
    for (long bi = 0; bi < nb; bi++) {
        memset(nw_tile(&w, h, bi, 0), 0, (size_t)(nb * tile) * sizeof *h);
        memset(nw_edge(&w, e, bi, 0), 0, (size_t)(nb * w.bs) * sizeof *e);
    }

    double t0 = app_now();
#pragma omp parallel
    for (long d = 0; d < 2 * nb - 1; d++) {
#pragma omp for schedule(static, 1)
        for (long bi = 0; bi < nb; bi++)
            if (d - bi >= 0 && d - bi < nb)
                nw_block(&w, h, e, bi, d - bi);
    }
    app_report_time("nw", "omp", nthreads, &o, app_now() - t0);

    int rc = nw_verify(&w, h, &o);
    free(h);
    free(e);
    nw_free(&w);
    return rc;
}
