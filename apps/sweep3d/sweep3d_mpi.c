/* sweep3d_mpi.c - Sweep3D with MPI: the same j decomposition and pipeline
 * as the OpenMP version, with the j-faces sent as messages (one per k block
 * and neighbour). Every rank keeps full-size arrays but touches only its own
 * rows. Rank 0 checks the global flux sum against the sequential run within
 * SW_TOL (1e-10 relative). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep3d_ref.h"

static const struct app_presets presets = { 48, 8, 96, 16 };

int main(int argc, char **argv)
{
    struct app_opts o;
    struct sweep s;
    int rank, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    app_parse(&o, argc, argv, "sweep3d", &presets);
    sw_setup(&s, (int)o.n);
    int n = s.n, iters = (int)o.iters;
    int j0 = rank * n / np, j1 = (rank + 1) * n / np;
    long cells = (long)n * n * n, fsz = sw_face_size(&s);
    double *phi = calloc((size_t)cells, sizeof *phi);
    double *src = malloc((size_t)cells * sizeof *src);
    double *kface = malloc((size_t)SW_MM * n * n * sizeof *kface);
    double *jin = malloc((size_t)fsz * sizeof *jin);
    double *jout = malloc((size_t)fsz * sizeof *jout);
    if (!phi || !src || !kface || !jin || !jout)
        MPI_Abort(MPI_COMM_WORLD, 2);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now();
    for (int it = 0; it < iters; it++) {
        sw_new_source(&s, phi, src, j0, j1);
        for (int oct = 0; oct < 8; oct++) {
            int fwd = !(oct & 2);
            int up = fwd ? rank - 1 : rank + 1, down = fwd ? rank + 1 : rank - 1;
            int first = up < 0 || up >= np, last = down < 0 || down >= np;
            memset(kface, 0, (size_t)SW_MM * n * n * sizeof *kface);
            for (int kb = 0; kb < s.nkb; kb++) {
                if (!first)
                    MPI_Recv(jin, (int)fsz, MPI_DOUBLE, up, kb, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                sw_block(&s, oct, kb, j0, j1, first ? NULL : jin, jout, kface, phi, src, last,
                         NULL);
                if (!last)
                    MPI_Send(jout, (int)fsz, MPI_DOUBLE, down, kb, MPI_COMM_WORLD);
            }
        }
    }
    double part = sw_sum(&s, phi, j0, j1), sum = 0;
    MPI_Reduce(&part, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    double elapsed = app_now() - t0;
    int rc = 0;
    if (rank == 0) {
        app_report_time("sweep3d", "mpi", np, &o, elapsed);
        printf("sweep3d: flux sum %.15e\n", sum);
        if (!o.verify) {
            printf("UNVERIFIED sweep3d\n");
        } else {
            double ref = sw_run_seq(&s, iters, NULL, NULL);
            char what[128];
            snprintf(what, sizeof what, "flux sum %.15e, sequential %.15e, tolerance 1e-10",
                     sum, ref);
            rc = app_verdict(app_close(sum, ref, SW_TOL), "sweep3d", what);
        }
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
