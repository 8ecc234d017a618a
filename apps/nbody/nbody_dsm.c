/* nbody_dsm.c - all-pairs N-body against libdsm, SPMD in the TreadMarks
 * style. The master allocates the body arrays in shared memory and fills
 * them; each process owns a contiguous block of bodies and does every
 * phase on its block only. The force loop reads all positions, so two
 * barriers per step keep the writers of positions (the drift) and their
 * readers (the forces) apart: one after the drift, so every position is
 * complete, and one before the next drift, so nobody still reads the old
 * ones. Velocities and accelerations never leave their owner until the
 * master's final check. Checked against the sequential run within
 * NBODY_TOL. */
#include <stdio.h>
#include <stdlib.h>

#include "dsm.h"
#include "nbody_ref.h"

static const struct app_presets presets = { 256, 20, 4096, 20 };

static struct nbody b;   /* private copy of the pointers to shared arrays */

static int shared_alloc(long n)
{
    b.n = n;
    b.pos = dsm_malloc((size_t)n * sizeof *b.pos);
    b.vel = dsm_malloc((size_t)n * sizeof *b.vel);
    b.acc = dsm_malloc((size_t)n * sizeof *b.acc);
    b.mass = dsm_malloc((size_t)n * sizeof *b.mass);
    return b.pos && b.vel && b.acc && b.mass;
}

int main(int argc, char **argv)
{
    struct app_opts o;
    dsm_startup(argc, argv);
    unsigned me = dsm_proc_id(), np = dsm_nprocs();
    app_parse(&o, argc, argv, "nbody", &presets);
    long n = o.n;
    if (n < 2)
        dsm_exit(2);
    if (me == 0) {
        if (!shared_alloc(n)) {
            fprintf(stderr, "nbody: dsm_malloc failed\n");
            dsm_exit(2);
        }
        nbody_init(&b, o.seed);
        dsm_distribute(&b, sizeof b);
    }
    dsm_barrier(0);
    long i0 = (long)me * n / np, i1 = (long)(me + 1) * n / np;

    double t0 = app_now();
    nbody_forces(&b, i0, i1);
    for (long s = 0; s < o.iters; s++) {
        dsm_barrier(1);
        nbody_kick(&b, i0, i1);
        nbody_drift(&b, i0, i1);
        dsm_barrier(2);
        nbody_forces(&b, i0, i1);
        nbody_kick(&b, i0, i1);
    }
    dsm_barrier(3);
    double elapsed = app_now() - t0;

    int rc = 0;
    if (me == 0) {
        app_report_time("nbody", "dsm", (int)np, &o, elapsed);
        rc = nbody_verify(&b, &o);
        fflush(stdout);
    }
    dsm_barrier(4);
    dsm_exit(rc);
}
