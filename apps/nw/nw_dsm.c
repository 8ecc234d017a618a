/* nw_dsm.c - Needleman-Wunsch against libdsm, in the SPMD style of
 * TreadMarks programs: the master allocates the tile array in shared
 * memory; block rows are dealt round-robin (row bi to process bi mod P);
 * one barrier per anti-diagonal of blocks.
 *
 * Every process generates the sequences itself from the seed (they are
 * read by all and written by none, so private copies cost nothing), and
 * clears its own block rows of tiles and edges before the clock starts:
 * their pages are then homed at their writer from the start, and a
 * process writes only pages of its own. What moves is the edges (each
 * block's last row), read by the owner of the block row below after the
 * barrier that ends the block's diagonal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"
#include "nw_ref.h"

static const struct app_presets presets = { 1024, 1, 16384, 1 };

DSM_SHARED_BSS static int *h, *e;

int main(int argc, char **argv)
{
    struct app_opts o;
    struct nw w;
    dsm_startup(argc, argv);
    unsigned me = dsm_proc_id(), np = dsm_nprocs();
    app_parse(&o, argc, argv, "nw", &presets);
    nw_init(&w, o.n, o.seed);
    long nb = w.nb, tile = w.bs * w.bs;
    if (me == 0) {
        h = dsm_malloc(nw_cells(&w) * sizeof *h);
        e = dsm_malloc(nw_edge_cells(&w) * sizeof *e);
        if (!h || !e) {
            fprintf(stderr, "nw: dsm_malloc failed\n");
            dsm_exit(2);
        }
    }
    dsm_barrier(0);
    for (long bi = me; bi < nb; bi += np) {
        memset(nw_tile(&w, h, bi, 0), 0, (size_t)(nb * tile) * sizeof *h);
        memset(nw_edge(&w, e, bi, 0), 0, (size_t)(nb * w.bs) * sizeof *e);
    }
    dsm_barrier(1);

    double t0 = app_now();
    for (long d = 0; d < 2 * nb - 1; d++) {
        long lo = d < nb ? 0 : d - nb + 1, hi = d < nb ? d : nb - 1;
        /* the first row at or after lo that is mine */
        for (long bi = lo + (me + np - lo % np) % np; bi <= hi; bi += np)
            nw_block(&w, h, e, bi, d - bi);
        dsm_barrier(2);
    }
    double elapsed = app_now() - t0;

    int rc = 0;
    if (me == 0) {
        app_report_time("nw", "dsm", (int)np, &o, elapsed);
        rc = nw_verify(&w, h, &o);
        fflush(stdout);
    }
    dsm_barrier(3);
    nw_free(&w);
    dsm_exit(rc);
}
