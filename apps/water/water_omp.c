/* water_omp.c - Water (SPLASH-2 Water-nsquared style) in OpenMP.
 *
 * Intra-molecular forces, the velocity half-kicks and the drift are
 * `parallel for` loops over the molecule array. The inter-molecular forces
 * use one coarse-grained parallel region: every thread takes a contiguous
 * block of molecules, adds the forces of their pairs into its own
 * accumulation array (pairs reach outside the block, so threads must not
 * share one array), and after a barrier each thread adds up all threads'
 * contributions for its own block in thread order. Checked against the
 * sequential run within WATER_TOL (1e-8 relative on the energies). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "water_ref.h"

static const struct app_presets presets = { 512, 30, 2744, 60 };

static struct water w;
static struct molecule *mol;
static double (*acc)[3][3];      /* [thread * n + molecule][atom][xyz] */

/* Sets every force and returns the inter-molecular potential energy;
 * *intra gets the intra-molecular one. */
static double forces(int nthreads, double *intra)
{
    int n = w.n;
    double pe_intra = 0, pe_inter = 0;
#pragma omp parallel for reduction(+:pe_intra)
    for (int i = 0; i < n; i++)
        pe_intra += water_intra(&w, mol, i, i + 1);

#pragma omp parallel num_threads(nthreads) reduction(+:pe_inter)
    {
        int me = omp_get_thread_num(), nt = omp_get_num_threads();
        int i0 = (int)((long)me * n / nt), i1 = (int)((long)(me + 1) * n / nt);
        double (*mine)[3][3] = acc + (long)me * n;
        memset(mine, 0, (size_t)n * sizeof *mine);
        pe_inter += water_inter(&w, mol, i0, i1, mine, 0);
#pragma omp barrier
        for (int i = i0; i < i1; i++)
            for (int t = 0; t < nt; t++)
                for (int a = 0; a < 3; a++)
                    for (int x = 0; x < 3; x++)
                        mol[i].force[a][x] += acc[(long)t * n + i][a][x];
    }
    *intra = pe_intra;
    return pe_inter;
}

int main(int argc, char **argv)
{
    struct app_opts o;
    struct water_energy e, ref;
    int nthreads = omp_get_max_threads();
    app_parse(&o, argc, argv, "water", &presets);
    int n = (int)o.n, steps = (int)o.iters;
    if (n < 2)
        return 2;
    mol = malloc((size_t)n * sizeof *mol);
    acc = malloc((size_t)nthreads * n * sizeof *acc);
    if (!mol || !acc)
        return 2;
    water_init(&w, mol, n, o.seed);

    double t0 = app_now();
    e.inter = forces(nthreads, &e.intra);
    for (int s = 0; s < steps; s++) {
#pragma omp parallel for
        for (int i = 0; i < n; i++) {
            water_kick(&w, mol, i, i + 1);
            water_drift(&w, mol, i, i + 1);
        }
        e.inter = forces(nthreads, &e.intra);
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            water_kick(&w, mol, i, i + 1);
    }
    double kin = 0;
#pragma omp parallel for reduction(+:kin)
    for (int i = 0; i < n; i++)
        kin += water_kinetic(mol, i, i + 1);
    e.kin = kin;
    app_report_time("water", "omp", nthreads, &o, app_now() - t0);

    if (!o.verify) {
        printf("water: kinetic %.15e intra %.15e inter %.15e\nUNVERIFIED water\n",
               e.kin, e.intra, e.inter);
        return 0;
    }
    water_run_seq(n, steps, o.seed, 0, &ref);
    return app_verdict(water_same(&e, &ref), "water",
                       "energies match the sequential run within 1e-8");
}
