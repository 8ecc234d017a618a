/* water_dsm.c - Water (SPLASH-2 Water-nsquared style) against libdsm.
 *
 * SPMD: each process owns a contiguous block of molecules of the shared
 * molecule array and does every per-molecule phase (intra-molecular forces,
 * half kicks, drift) on its block only, so those phases need no
 * synchronization among themselves. The inter-molecular forces read the
 * positions of all molecules (after a barrier that ends the drift) and add
 * the pair forces into the process's own accumulation array: a separate
 * page-aligned slice of a shared block, so no two processes write one page.
 * After a barrier each process adds up all processes' contributions for
 * its block in rank order (the OpenMP version's scheme, so the DSM moves
 * only the parts of other slices that cover the block). The energies of the
 * last force evaluation and the final kinetic energy are private sums,
 * published once in per-process page-sized slots; process 0 adds them in
 * rank order. Checked against the sequential run within WATER_TOL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"
#include "water_ref.h"

static const struct app_presets presets = { 512, 30, 2744, 60 };

#define SLOT_DOUBLES (4096 / sizeof(double))

static struct water w;
static struct molecule *mol;        /* shared */
static double (*acc)[3][3];         /* shared: nprocs slices of acc_stride molecules */
static double *energies;            /* shared: per process {kin, intra, inter}, a page apart */
static long acc_stride;

static double (*slice(unsigned p))[3][3] { return acc + (long)p * acc_stride; }

/* Sets the forces of molecules [i0,i1); returns this process's part of the
 * inter-molecular energy, *intra its part of the intra-molecular one. */
static double forces(int i0, int i1, double *intra)
{
    int n = w.n;
    unsigned me = dsm_proc_id(), np = dsm_nprocs();
    double (*mine)[3][3] = slice(me);
    *intra = water_intra(&w, mol, i0, i1);
    memset(mine, 0, (size_t)n * sizeof *mine);
    double pe = water_inter(&w, mol, i0, i1, mine, 0);
    dsm_barrier(2);
    for (int i = i0; i < i1; i++)
        for (unsigned t = 0; t < np; t++)
            for (int a = 0; a < 3; a++)
                for (int x = 0; x < 3; x++)
                    mol[i].force[a][x] += slice(t)[i][a][x];
    return pe;
}

int main(int argc, char **argv)
{
    struct app_opts o;
    dsm_startup(argc, argv);
    unsigned me = dsm_proc_id(), np = dsm_nprocs();
    app_parse(&o, argc, argv, "water", &presets);
    int n = (int)o.n, steps = (int)o.iters;
    if (n < 2)
        dsm_exit(2);
    acc_stride = (long)(((size_t)n * sizeof *acc + 4095) / 4096 * 4096 / sizeof *acc);
    if (me == 0) {
        mol = dsm_malloc((size_t)n * sizeof *mol);
        acc = dsm_malloc((size_t)np * (size_t)acc_stride * sizeof *acc);
        energies = dsm_malloc((size_t)np * 4096);
        if (!mol || !acc || !energies) {
            fprintf(stderr, "water: dsm_malloc failed\n");
            dsm_exit(2);
        }
        water_init(&w, mol, n, o.seed);
        dsm_distribute(&mol, sizeof mol);
        dsm_distribute(&acc, sizeof acc);
        dsm_distribute(&energies, sizeof energies);
        dsm_distribute(&w, sizeof w);
    }
    int i0 = (int)((long)me * n / np), i1 = (int)((long)(me + 1) * n / np);
    dsm_barrier(0);

    double t0 = app_now(), intra, inter;
    inter = forces(i0, i1, &intra);
    for (int s = 0; s < steps; s++) {
        water_kick(&w, mol, i0, i1);
        water_drift(&w, mol, i0, i1);
        /* positions complete; also every slice has been summed, so its
         * owner may clear it again */
        dsm_barrier(1);
        inter = forces(i0, i1, &intra);
        water_kick(&w, mol, i0, i1);
    }
    double *e = energies + me * SLOT_DOUBLES;
    e[0] = water_kinetic(mol, i0, i1);
    e[1] = intra;
    e[2] = inter;
    dsm_barrier(3);
    double elapsed = app_now() - t0;

    int rc = 0;
    if (me == 0) {
        struct water_energy tot = { 0, 0, 0 }, ref;
        for (unsigned p = 0; p < np; p++) {
            tot.kin += energies[p * SLOT_DOUBLES + 0];
            tot.intra += energies[p * SLOT_DOUBLES + 1];
            tot.inter += energies[p * SLOT_DOUBLES + 2];
        }
        app_report_time("water", "dsm", (int)np, &o, elapsed);
        if (!o.verify) {
            printf("water: kinetic %.15e intra %.15e inter %.15e\nUNVERIFIED water\n",
                   tot.kin, tot.intra, tot.inter);
        } else {
            water_run_seq(n, steps, o.seed, 0, &ref);
            rc = app_verdict(water_same(&tot, &ref), "water",
                             "energies match the sequential run within 1e-8");
        }
        fflush(stdout);
    }
    dsm_barrier(4);
    dsm_exit(rc);
}
