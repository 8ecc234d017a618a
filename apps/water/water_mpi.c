/* water_mpi.c - Water with MPI. Rank r owns a contiguous block of
 * molecules; every rank keeps all positions. Each step: integrate the own
 * block, all-gather the positions, compute intra forces of the own block
 * and the pair forces (i in own block, the next n/2 partners) into a
 * full-size array, and reduce-scatter that array so each rank gets the sum
 * for its block. Rank 0 checks the energies against the sequential run
 * within WATER_TOL (1e-8 relative). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "water_ref.h"

static const struct app_presets presets = { 512, 30, 2744, 60 };

static struct water w;
static struct molecule *mol;
static double (*acc)[3][3], (*mysum)[3][3], (*posbuf)[3][3];
static int rank, np, *first, *cnt9, *disp9;

static double forces(double *intra)
{
    int n = w.n, i0 = first[rank], i1 = first[rank + 1];
    *intra = water_intra(&w, mol, i0, i1);
    memset(acc, 0, (size_t)n * sizeof *acc);
    double inter = water_inter(&w, mol, i0, i1, acc, 0);
    MPI_Reduce_scatter(acc, mysum, cnt9, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = i0; i < i1; i++)
        for (int a = 0; a < 3; a++)
            for (int x = 0; x < 3; x++)
                mol[i].force[a][x] += mysum[i - i0][a][x];
    return inter;
}

static void share_positions(void)
{
    int i0 = first[rank], i1 = first[rank + 1];
    for (int i = i0; i < i1; i++)
        memcpy(posbuf[i], mol[i].pos, sizeof mol[i].pos);
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, posbuf, cnt9, disp9, MPI_DOUBLE,
                   MPI_COMM_WORLD);
    for (int i = 0; i < w.n; i++)
        memcpy(mol[i].pos, posbuf[i], sizeof mol[i].pos);
}

int main(int argc, char **argv)
{
    struct app_opts o;
    struct water_energy e, tot;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    app_parse(&o, argc, argv, "water", &presets);
    int n = (int)o.n, steps = (int)o.iters;
    if (n < 2)
        MPI_Abort(MPI_COMM_WORLD, 2);
    mol = malloc((size_t)n * sizeof *mol);
    acc = malloc((size_t)n * sizeof *acc);
    mysum = malloc((size_t)n * sizeof *mysum);
    posbuf = malloc((size_t)n * sizeof *posbuf);
    first = malloc((size_t)(np + 1) * sizeof *first);
    cnt9 = malloc((size_t)np * sizeof *cnt9);
    disp9 = malloc((size_t)np * sizeof *disp9);
    if (!mol || !acc || !mysum || !posbuf || !first || !cnt9 || !disp9)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int r = 0; r <= np; r++)
        first[r] = (int)((long)r * n / np);
    for (int r = 0; r < np; r++) {
        cnt9[r] = 9 * (first[r + 1] - first[r]);
        disp9[r] = 9 * first[r];
    }
    water_init(&w, mol, n, o.seed);     /* deterministic: same on every rank */
    int i0 = first[rank], i1 = first[rank + 1];

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now();
    e.inter = forces(&e.intra);
    for (int s = 0; s < steps; s++) {
        water_kick(&w, mol, i0, i1);
        water_drift(&w, mol, i0, i1);
        share_positions();
        e.inter = forces(&e.intra);
        water_kick(&w, mol, i0, i1);
    }
    e.kin = water_kinetic(mol, i0, i1);
    MPI_Reduce(&e, &tot, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    double elapsed = app_now() - t0;
    int rc = 0;
    if (rank == 0) {
        app_report_time("water", "mpi", np, &o, elapsed);
        if (!o.verify) {
            printf("water: kinetic %.15e intra %.15e inter %.15e\nUNVERIFIED water\n",
                   tot.kin, tot.intra, tot.inter);
        } else {
            struct water_energy ref;
            water_run_seq(n, steps, o.seed, 0, &ref);
            rc = app_verdict(water_same(&tot, &ref), "water",
                             "energies match the sequential run within 1e-8");
        }
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
