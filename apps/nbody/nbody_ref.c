/* nbody_ref.c - the N-body force loop, integrator and sequential reference. */
#include "nbody_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nbody_alloc(struct nbody *b, long n)
{
    b->n = n;
    b->pos = malloc((size_t)n * sizeof *b->pos);
    b->vel = malloc((size_t)n * sizeof *b->vel);
    b->acc = malloc((size_t)n * sizeof *b->acc);
    b->mass = malloc((size_t)n * sizeof *b->mass);
    return b->pos && b->vel && b->acc && b->mass;
}

void nbody_free(struct nbody *b)
{
    free(b->pos);
    free(b->vel);
    free(b->acc);
    free(b->mass);
}

void nbody_init(struct nbody *b, uint64_t seed)
{
    struct app_rng r;
    long n = b->n;
    double mtot = 0, p[3] = { 0, 0, 0 };
    app_rng_seed(&r, seed);
    for (long i = 0; i < n; i++) {
        double x, y, z;
        do {   /* uniform in the ball by rejection from the cube */
            x = 2 * app_rng_double(&r) - 1;
            y = 2 * app_rng_double(&r) - 1;
            z = 2 * app_rng_double(&r) - 1;
        } while (x * x + y * y + z * z > 1);
        b->pos[i][0] = x;
        b->pos[i][1] = y;
        b->pos[i][2] = z;
        b->mass[i] = (0.5 + app_rng_double(&r)) / (double)n;
        for (int d = 0; d < 3; d++)
            b->vel[i][d] = 0.4 * (app_rng_double(&r) - 0.5);
        mtot += b->mass[i];
        for (int d = 0; d < 3; d++)
            p[d] += b->mass[i] * b->vel[i][d];
    }
    /* Total momentum zero, so that its conservation is checked against a
     * known value. */
    for (long i = 0; i < n; i++)
        for (int d = 0; d < 3; d++)
            b->vel[i][d] -= p[d] / mtot;
    memset(b->acc, 0, (size_t)n * sizeof *b->acc);
}

void nbody_forces(struct nbody *b, long i0, long i1)
{
    long n = b->n;
    const double (*pos)[3] = (const double (*)[3])b->pos;
    const double *mass = b->mass;
    for (long i = i0; i < i1; i++) {
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
        b->acc[i][0] = ax;
        b->acc[i][1] = ay;
        b->acc[i][2] = az;
    }
}

void nbody_kick(struct nbody *b, long i0, long i1)
{
    for (long i = i0; i < i1; i++)
        for (int d = 0; d < 3; d++)
            b->vel[i][d] += 0.5 * NBODY_DT * b->acc[i][d];
}

void nbody_drift(struct nbody *b, long i0, long i1)
{
    for (long i = i0; i < i1; i++)
        for (int d = 0; d < 3; d++)
            b->pos[i][d] += NBODY_DT * b->vel[i][d];
}

double nbody_energy(const struct nbody *b)
{
    double kin = 0, pot = 0;
    for (long i = 0; i < b->n; i++) {
        const double *v = b->vel[i];
        kin += 0.5 * b->mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        for (long j = i + 1; j < b->n; j++) {
            double dx = b->pos[j][0] - b->pos[i][0], dy = b->pos[j][1] - b->pos[i][1],
                   dz = b->pos[j][2] - b->pos[i][2];
            pot -= b->mass[i] * b->mass[j] / sqrt(dx * dx + dy * dy + dz * dz + NBODY_EPS2);
        }
    }
    return kin + pot;
}

void nbody_momentum(const struct nbody *b, double p[3], double *scale)
{
    p[0] = p[1] = p[2] = 0;
    *scale = 0;
    for (long i = 0; i < b->n; i++) {
        const double *v = b->vel[i];
        for (int d = 0; d < 3; d++)
            p[d] += b->mass[i] * v[d];
        *scale += b->mass[i] * sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
}

void nbody_run_seq(struct nbody *b, long n, long steps, uint64_t seed)
{
    if (!nbody_alloc(b, n))
        abort();
    nbody_init(b, seed);
    nbody_forces(b, 0, n);
    for (long s = 0; s < steps; s++) {
        nbody_kick(b, 0, n);
        nbody_drift(b, 0, n);
        nbody_forces(b, 0, n);
        nbody_kick(b, 0, n);
    }
}

/* Largest |a - r| over n*3 values, relative to the largest |r|. */
static double maxrel(const double (*a)[3], const double (*r)[3], long n, int *same)
{
    double big = 0, diff = 0;
    for (long i = 0; i < n; i++)
        for (int d = 0; d < 3; d++) {
            big = fmax(big, fabs(r[i][d]));
            if (a[i][d] != r[i][d]) {
                *same = 0;
                /* NaN propagates as a failure, not as a zero difference */
                diff = isnan(a[i][d]) ? INFINITY : fmax(diff, fabs(a[i][d] - r[i][d]));
            }
        }
    return diff / fmax(big, 1e-300);
}

double nbody_diff(const struct nbody *b, const struct nbody *ref, int *same)
{
    *same = 1;
    double dp = maxrel((const double (*)[3])b->pos, (const double (*)[3])ref->pos, b->n, same);
    double dv = maxrel((const double (*)[3])b->vel, (const double (*)[3])ref->vel, b->n, same);
    return fmax(dp, dv);
}

int nbody_verify(const struct nbody *b, const struct app_opts *o)
{
    printf("nbody: x0 %.17g %.17g %.17g\n", b->pos[0][0], b->pos[0][1], b->pos[0][2]);
    if (!o->verify) {
        printf("UNVERIFIED nbody\n");
        return 0;
    }
    struct nbody ref;
    int same;
    nbody_run_seq(&ref, b->n, o->iters, o->seed);
    double d = nbody_diff(b, &ref, &same);
    printf("nbody: largest difference from the sequential run %.3e%s\n", d,
           same ? " (identical)" : "");
    int rc = app_verdict(d <= NBODY_TOL, "nbody",
                         "positions and velocities match the sequential run within 1e-10");
    nbody_free(&ref);
    return rc;
}
