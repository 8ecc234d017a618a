/* nbody_mpi.c - all-pairs N-body in MPI. Every rank holds all positions
 * and masses (it generates the same initial state) and its own block of
 * velocities and accelerations; after each drift the ranks all-gather the
 * positions, then each computes the forces on its block. Rank 0 gathers
 * the final positions and velocities and checks them against the
 * sequential run within NBODY_TOL. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "nbody_ref.h"

static const struct app_presets presets = { 256, 20, 4096, 20 };

int main(int argc, char **argv)
{
    struct app_opts o;
    struct nbody b;
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    app_parse(&o, argc, argv, "nbody", &presets);
    long n = o.n;
    int *cnt = malloc((size_t)np * sizeof *cnt), *disp = malloc((size_t)np * sizeof *disp);
    if (n < 2 || !cnt || !disp || !nbody_alloc(&b, n))
        MPI_Abort(MPI_COMM_WORLD, 2);
    nbody_init(&b, o.seed);
    for (int p = 0; p < np; p++) {   /* in doubles: 3 per body */
        disp[p] = (int)(3 * ((long)p * n / np));
        cnt[p] = (int)(3 * ((long)(p + 1) * n / np)) - disp[p];
    }
    long i0 = (long)me * n / np, i1 = (long)(me + 1) * n / np;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now();
    nbody_forces(&b, i0, i1);
    for (long s = 0; s < o.iters; s++) {
        nbody_kick(&b, i0, i1);
        nbody_drift(&b, i0, i1);
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b.pos, cnt, disp, MPI_DOUBLE,
                       MPI_COMM_WORLD);
        nbody_forces(&b, i0, i1);
        nbody_kick(&b, i0, i1);
    }
    double elapsed = app_now() - t0;
    double (*mine)[3] = b.vel + i0;
    MPI_Gatherv(me == 0 ? MPI_IN_PLACE : (void *)mine, cnt[me], MPI_DOUBLE, b.vel, cnt, disp,
                MPI_DOUBLE, 0, MPI_COMM_WORLD);

    int rc = 0;
    if (me == 0) {
        app_report_time("nbody", "mpi", np, &o, elapsed);
        rc = nbody_verify(&b, &o);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    nbody_free(&b);
    free(cnt);
    free(disp);
    MPI_Finalize();
    return rc;
}
