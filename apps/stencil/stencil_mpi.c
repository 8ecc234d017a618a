/* stencil_mpi.c - Jacobi stencil in MPI: each rank holds its block of rows
 * plus one halo row above and below, and exchanges halos with its
 * neighbours before every sweep. Rank 0 gathers the grid at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stencil_ref.h"

static const struct app_presets presets = { 256, 50, 1024, 500 };

int main(int argc, char **argv)
{
    struct app_opts o;
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    app_parse(&o, argc, argv, "stencil", &presets);
    long n = o.n, iters = o.iters;
    if (n < 3 || n - 2 < np)
        MPI_Abort(MPI_COMM_WORLD, 2);
    long r0 = 1 + (long)me * (n - 2) / np, r1 = 1 + (long)(me + 1) * (n - 2) / np;
    /* Local rows r0-1 .. r1 (halos included), as rows of a full-width grid. */
    long lo = r0 - 1, rows = r1 - r0 + 2;
    double *full = malloc((size_t)(n * n) * sizeof *full);
    double *a = malloc((size_t)(rows * n) * sizeof *a), *b = malloc((size_t)(rows * n) * sizeof *b);
    if (!full || !a || !b)
        MPI_Abort(MPI_COMM_WORLD, 2);
    stencil_init(full, n, o.seed);
    memcpy(a, full + lo * n, (size_t)(rows * n) * sizeof *a);
    memcpy(b, a, (size_t)(rows * n) * sizeof *b);
    int up = me > 0 ? me - 1 : MPI_PROC_NULL, down = me < np - 1 ? me + 1 : MPI_PROC_NULL;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now();
    for (long it = 0; it < iters; it++) {
        /* halos: my first row goes up, my last row goes down */
        MPI_Sendrecv(a + 1 * n, (int)n, MPI_DOUBLE, up, 0, a + (rows - 1) * n, (int)n, MPI_DOUBLE,
                     down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(a + (rows - 2) * n, (int)n, MPI_DOUBLE, down, 1, a, (int)n, MPI_DOUBLE, up, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        /* local row k is global row lo + k; rows 1 .. rows-2 are mine */
        stencil_rows(b, a, n, 1, rows - 1);
        double *t = a; a = b; b = t;
    }
    double elapsed = app_now() - t0;

    /* Gather every rank's rows into rank 0's full grid. */
    int rc = 0;
    if (me == 0) {
        memcpy(full + r0 * n, a + n, (size_t)((r1 - r0) * n) * sizeof *a);
        for (int p = 1; p < np; p++) {
            long q0 = 1 + (long)p * (n - 2) / np, q1 = 1 + (long)(p + 1) * (n - 2) / np;
            MPI_Recv(full + q0 * n, (int)((q1 - q0) * n), MPI_DOUBLE, p, 2, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        }
        app_report_time("stencil", "mpi", np, &o, elapsed);
        printf("stencil: sum %.17g\n", stencil_sum(full, n));
        if (!o.verify) {
            printf("UNVERIFIED stencil\n");
        } else {
            double *ref;
            stencil_run_seq(n, iters, o.seed, &ref);
            rc = app_verdict(memcmp(full, ref, (size_t)(n * n) * sizeof *full) == 0, "stencil",
                             "grid identical to the sequential run");
            free(ref);
        }
    } else {
        MPI_Send(a + n, (int)((r1 - r0) * n), MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
    }
    free(full);
    free(a);
    free(b);
    MPI_Finalize();
    return rc;
}
