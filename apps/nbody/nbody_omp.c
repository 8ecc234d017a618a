/* nbody_omp.c - all-pairs N-body in OpenMP, as a user would parallelise
 * the sequential code: each phase of a time step is a `parallel for` over
 * the bodies with a static schedule, so a thread keeps its block of bodies
 * from step to step. The force loop reads every position and writes only
 * the accelerations of its own bodies, so it needs no reduction; the kick
 * that follows the forces is in the same loop. Checked against the
 * sequential run within NBODY_TOL. */
#include "nbody_ref.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>

static const struct app_presets presets = { 256, 20, 4096, 20 };

/* acc and the second half kick of every body. */
static void forces_kick(struct nbody *b, int kick)
{
    long n = b->n;
    double (*pos)[3] = b->pos, (*vel)[3] = b->vel, (*acc)[3] = b->acc;
    double *mass = b->mass;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        double xi = pos[i][0], yi = pos[i][1], zi = pos[i][2];
        double ax = 0, ay = 0, az = 0;
        for (long j = 0; j < n; j++) {
            double dx = pos[j][0] - xi, dy = pos[j][1] - yi, dz = pos[j][2] - zi;
            double r2 = dx * dx + dy * dy + dz * dz + NBODY_EPS2;
            double inv = 1.0 / sqrt(r2);
            double s = mass[j] * (inv * inv * inv);
            ax += s * dx;
            ay += s * dy;
            az += s * dz;
        }
        acc[i][0] = ax;
        acc[i][1] = ay;
        acc[i][2] = az;
        if (kick)
            for (int d = 0; d < 3; d++)
                vel[i][d] += 0.5 * NBODY_DT * acc[i][d];
    }
}

int main(int argc, char **argv)
{
    struct app_opts o;
    struct nbody b;
    app_parse(&o, argc, argv, "nbody", &presets);
    long n = o.n;
    if (n < 2 || !nbody_alloc(&b, n))
        return 2;
    nbody_init(&b, o.seed);
    double (*pos)[3] = b.pos, (*vel)[3] = b.vel, (*acc)[3] = b.acc;
    int nthreads = omp_get_max_threads();

    double t0 = app_now();
    forces_kick(&b, 0);
    for (long s = 0; s < o.iters; s++) {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            for (int d = 0; d < 3; d++) {
                vel[i][d] += 0.5 * NBODY_DT * acc[i][d];
                pos[i][d] += NBODY_DT * vel[i][d];
            }
        forces_kick(&b, 1);
    }
    app_report_time("nbody", "omp", nthreads, &o, app_now() - t0);
    int rc = nbody_verify(&b, &o);
    nbody_free(&b);
    return rc;
}
