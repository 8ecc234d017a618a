/* water_ref.c - see water_ref.h. */
#include "water_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double mass[3] = { 16.0, 1.0, 1.0 };
static const double charge[3] = { -0.8, 0.4, 0.4 };
#define R_OH   1.0          /* O-H bond length */
#define R_HH   1.633        /* H-H distance (109.47 degrees) */
#define K_OH   200.0
#define K_HH   50.0
#define LJ_EPS 1.0
#define LJ_SIG 3.0
#define COUL   10.0         /* Coulomb constant in these units */
#define SPACING 3.2         /* lattice constant */

void water_init(struct water *w, struct molecule *mol, int n, uint64_t seed)
{
    struct app_rng r;
    int side = 1;
    while (side * side * side < n)
        side++;
    w->n = n;
    w->box = side * SPACING;
    w->cutoff = fmin(2.5 * LJ_SIG, 0.5 * w->box);
    w->dt = 0.002;
    app_rng_seed(&r, seed);
    memset(mol, 0, (size_t)n * sizeof *mol);
    for (int i = 0; i < n; i++) {
        double o[3] = { (i % side + 0.5) * SPACING, (i / side % side + 0.5) * SPACING,
                        (i / side / side + 0.5) * SPACING };
        double half = 0.5 * R_HH, h = sqrt(R_OH * R_OH - half * half);
        double shape[3][3] = { { 0, 0, 0 }, { half, h, 0 }, { -half, h, 0 } };
        for (int a = 0; a < 3; a++)
            for (int d = 0; d < 3; d++) {
                mol[i].pos[a][d] = o[d] + shape[a][d] + 0.05 * (app_rng_double(&r) - 0.5);
                mol[i].vel[a][d] = 0.5 * (app_rng_double(&r) - 0.5) / sqrt(mass[a]);
            }
    }
}

/* Harmonic spring between atoms a and b of one molecule. */
static double spring(struct molecule *m, int a, int b, double k, double r0)
{
    double d[3], r2 = 0;
    for (int x = 0; x < 3; x++) {
        d[x] = m->pos[a][x] - m->pos[b][x];
        r2 += d[x] * d[x];
    }
    double r = sqrt(r2), dr = r - r0, f = -2.0 * k * dr / r;
    for (int x = 0; x < 3; x++) {
        m->force[a][x] += f * d[x];
        m->force[b][x] -= f * d[x];
    }
    return k * dr * dr;
}

double water_intra(const struct water *w, struct molecule *mol, int i0, int i1)
{
    (void)w;
    double pe = 0;
    for (int i = i0; i < i1; i++) {
        memset(mol[i].force, 0, sizeof mol[i].force);
        pe += spring(&mol[i], 0, 1, K_OH, R_OH);
        pe += spring(&mol[i], 0, 2, K_OH, R_OH);
        pe += spring(&mol[i], 1, 2, K_HH, R_HH);
    }
    return pe;
}

/* One molecule pair; forces on i go to fi, on j to fj (either may be NULL). */
static double pair(const struct water *w, const struct molecule *mi, const struct molecule *mj,
                   double (*fi)[3], double (*fj)[3])
{
    double shift[3], r2 = 0;
    for (int x = 0; x < 3; x++) {
        double d = mi->pos[0][x] - mj->pos[0][x];
        shift[x] = w->box * nearbyint(d / w->box);
        d -= shift[x];
        r2 += d * d;
    }
    if (r2 >= w->cutoff * w->cutoff)
        return 0.0;
    double pe = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double d[3], s2 = 0;
            for (int x = 0; x < 3; x++) {
                d[x] = mi->pos[a][x] - mj->pos[b][x] - shift[x];
                s2 += d[x] * d[x];
            }
            double s = sqrt(s2), qq = COUL * charge[a] * charge[b];
            double e = qq / s, fs = qq / (s2 * s);          /* force / distance */
            if (a == 0 && b == 0) {
                double sr6 = pow(LJ_SIG * LJ_SIG / s2, 3);
                e += 4 * LJ_EPS * (sr6 * sr6 - sr6);
                fs += 24 * LJ_EPS * (2 * sr6 * sr6 - sr6) / s2;
            }
            pe += e;
            for (int x = 0; x < 3; x++) {
                if (fi)
                    fi[a][x] += fs * d[x];
                if (fj)
                    fj[b][x] -= fs * d[x];
            }
        }
    return pe;
}

double water_inter(const struct water *w, const struct molecule *mol, int i0, int i1,
                   double (*acc)[3][3], int full)
{
    int n = w->n;
    double pe = 0;
    for (int i = i0; i < i1; i++) {
        if (full) {
            for (int j = 0; j < n; j++)
                if (j != i)
                    pe += 0.5 * pair(w, &mol[i], &mol[j], acc[i], NULL);
            continue;
        }
        for (int off = 1; off <= n / 2; off++) {
            /* With n even the pair at distance n/2 is reached from both
             * ends; take it from the lower half only. */
            if (2 * off == n && i >= n / 2)
                continue;
            int j = (i + off) % n;
            pe += pair(w, &mol[i], &mol[j], acc[i], acc[j]);
        }
    }
    return pe;
}

void water_kick(const struct water *w, struct molecule *mol, int i0, int i1)
{
    for (int i = i0; i < i1; i++)
        for (int a = 0; a < 3; a++)
            for (int x = 0; x < 3; x++)
                mol[i].vel[a][x] += 0.5 * w->dt * mol[i].force[a][x] / mass[a];
}

void water_drift(const struct water *w, struct molecule *mol, int i0, int i1)
{
    for (int i = i0; i < i1; i++)
        for (int a = 0; a < 3; a++)
            for (int x = 0; x < 3; x++)
                mol[i].pos[a][x] += w->dt * mol[i].vel[a][x];
}

double water_kinetic(const struct molecule *mol, int i0, int i1)
{
    double ke = 0;
    for (int i = i0; i < i1; i++)
        for (int a = 0; a < 3; a++)
            for (int x = 0; x < 3; x++)
                ke += 0.5 * mass[a] * mol[i].vel[a][x] * mol[i].vel[a][x];
    return ke;
}

static double forces(const struct water *w, struct molecule *mol, double (*acc)[3][3],
                     int full, double *intra)
{
    int n = w->n;
    *intra = water_intra(w, mol, 0, n);
    memset(acc, 0, (size_t)n * sizeof *acc);
    double inter = water_inter(w, mol, 0, n, acc, full);
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            for (int x = 0; x < 3; x++)
                mol[i].force[a][x] += acc[i][a][x];
    return inter;
}

void water_run_seq(int n, int steps, uint64_t seed, int full, struct water_energy *e)
{
    struct water w;
    struct molecule *mol = malloc((size_t)n * sizeof *mol);
    double (*acc)[3][3] = malloc((size_t)n * sizeof *acc);
    if (!mol || !acc) {
        fprintf(stderr, "water: out of memory\n");
        exit(2);
    }
    water_init(&w, mol, n, seed);
    e->inter = forces(&w, mol, acc, full, &e->intra);
    for (int s = 0; s < steps; s++) {
        water_kick(&w, mol, 0, n);
        water_drift(&w, mol, 0, n);
        e->inter = forces(&w, mol, acc, full, &e->intra);
        water_kick(&w, mol, 0, n);
    }
    e->kin = water_kinetic(mol, 0, n);
    free(mol);
    free(acc);
}

int water_same(const struct water_energy *a, const struct water_energy *b)
{
    printf("water: kinetic %.15e intra %.15e inter %.15e\n", a->kin, a->intra, a->inter);
    printf("water: reference %.15e intra %.15e inter %.15e\n", b->kin, b->intra, b->inter);
    return app_close(a->kin, b->kin, WATER_TOL) && app_close(a->intra, b->intra, WATER_TOL) &&
           app_close(a->inter, b->inter, WATER_TOL);
}
