/* stencil_dsm.c - Jacobi stencil against libdsm, in the SPMD style of
 * TreadMarks programs and of issue 13: the master allocates both grids in
 * shared memory and initialises them; rows are block-distributed; one
 * barrier per sweep. Each process rewrites its own rows every sweep and
 * reads one boundary row of each neighbour, so the only real sharing is two
 * rows per process per sweep. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"
#include "stencil_ref.h"

static const struct app_presets presets = { 256, 50, 1024, 500 };

DSM_SHARED_BSS static double *grid[2];

int main(int argc, char **argv)
{
    struct app_opts o;
    dsm_startup(argc, argv);
    unsigned me = dsm_proc_id(), np = dsm_nprocs();
    app_parse(&o, argc, argv, "stencil", &presets);
    long n = o.n, iters = o.iters;
    if (n < 3)
        dsm_exit(2);
    if (me == 0) {
        for (int k = 0; k < 2; k++) {
            grid[k] = dsm_malloc((size_t)(n * n) * sizeof(double));
            if (!grid[k]) {
                fprintf(stderr, "stencil: dsm_malloc failed\n");
                dsm_exit(2);
            }
            stencil_init(grid[k], n, o.seed);
        }
    }
    dsm_barrier(0);
    long r0 = 1 + (long)me * (n - 2) / np, r1 = 1 + (long)(me + 1) * (n - 2) / np;

    double t0 = app_now();
    for (long it = 0; it < iters; it++) {
        stencil_rows(grid[(it + 1) % 2], grid[it % 2], n, r0, r1);
        dsm_barrier(1);
    }
    double elapsed = app_now() - t0;

    int rc = 0;
    if (me == 0) {
        double *g = grid[iters % 2];
        app_report_time("stencil", "dsm", (int)np, &o, elapsed);
        printf("stencil: sum %.17g\n", stencil_sum(g, n));
        if (!o.verify) {
            printf("UNVERIFIED stencil\n");
        } else {
            double *ref;
            stencil_run_seq(n, iters, o.seed, &ref);
            rc = app_verdict(memcmp(g, ref, (size_t)(n * n) * sizeof *g) == 0, "stencil",
                             "grid identical to the sequential run");
            free(ref);
        }
        fflush(stdout);
    }
    dsm_barrier(2);
    dsm_exit(rc);
}
