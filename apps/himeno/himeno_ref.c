/* himeno_ref.c - the Himeno Jacobi sweep, initial state and sequential
 * reference. */
#include "himeno_ref.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

int himeno_shape(struct himeno *h, long mi)
{
    if (mi < 5)
        return 0;
    h->mi = mi;
    h->mj = mi;
    h->mk = 2 * mi - 1;
    return 1;
}

static float **arrays(struct himeno *h, float *all[14])
{
    all[0] = h->p;
    for (int l = 0; l < 4; l++)
        all[1 + l] = h->a[l];
    for (int l = 0; l < 3; l++) {
        all[5 + l] = h->b[l];
        all[8 + l] = h->c[l];
    }
    all[11] = h->bnd;
    all[12] = h->wrk1;
    all[13] = h->wrk2;
    return all;
}

int himeno_alloc(struct himeno *h, long ilo, long ihi)
{
    size_t sz = (size_t)((ihi - ilo) * h->mj * h->mk) * sizeof(float);
    h->ilo = ilo;
    h->ihi = ihi;
    h->p = malloc(sz);
    for (int l = 0; l < 4; l++)
        h->a[l] = malloc(sz);
    for (int l = 0; l < 3; l++) {
        h->b[l] = malloc(sz);
        h->c[l] = malloc(sz);
    }
    h->bnd = malloc(sz);
    h->wrk1 = malloc(sz);
    h->wrk2 = malloc(sz);
    float *all[14];
    arrays(h, all);
    for (int l = 0; l < 14; l++)
        if (!all[l])
            return 0;
    return 1;
}

void himeno_free(struct himeno *h)
{
    float *all[14];
    arrays(h, all);
    for (int l = 0; l < 14; l++)
        free(all[l]);
}

void himeno_init(struct himeno *h, long i0, long i1)
{
    long imax = h->mi - 1, jmax = h->mj - 1, kmax = h->mk - 1;
    float p_scale = (float)((imax - 1) * (imax - 1));
    for (long i = i0; i < i1; i++)
        for (long j = 0; j < h->mj; j++)
            for (long k = 0; k < h->mk; k++) {
                /* The last plane, row and column of each array lie outside
                 * the grid and stay zero, as the benchmark's do. */
                int in = i < imax && j < jmax && k < kmax;
                for (int l = 0; l < 3; l++) {
                    HIMENO_AT(h, h->a[l], i, j, k) = in ? 1.0f : 0.0f;
                    HIMENO_AT(h, h->b[l], i, j, k) = 0.0f;
                    HIMENO_AT(h, h->c[l], i, j, k) = in ? 1.0f : 0.0f;
                }
                HIMENO_AT(h, h->a[3], i, j, k) = in ? 1.0f / 6.0f : 0.0f;
                HIMENO_AT(h, h->p, i, j, k) = in ? (float)(i * i) / p_scale : 0.0f;
                HIMENO_AT(h, h->bnd, i, j, k) = in ? 1.0f : 0.0f;
                HIMENO_AT(h, h->wrk1, i, j, k) = 0.0f;
                HIMENO_AT(h, h->wrk2, i, j, k) = 0.0f;
            }
}

double himeno_jacobi(struct himeno *h, long i0, long i1)
{
    long mj = h->mj, mk = h->mk, plane = mj * mk, jmax = mj - 1, kmax = mk - 1;
    const float *p = h->p, *a0 = h->a[0], *a1 = h->a[1], *a2 = h->a[2], *a3 = h->a[3];
    const float *b0 = h->b[0], *b1 = h->b[1], *b2 = h->b[2];
    const float *c0 = h->c[0], *c1 = h->c[1], *c2 = h->c[2];
    const float *bnd = h->bnd, *wrk1 = h->wrk1;
    float *wrk2 = h->wrk2;
    double gosa = 0;
    if (i0 < himeno_first(h))
        i0 = himeno_first(h);
    if (i1 > himeno_end(h))
        i1 = himeno_end(h);
    /* One flat index and constant neighbour offsets, as himeno_omp.c
     * writes it: with HIMENO_AT for each of the 19 neighbours gcc kept
     * fewer pointers in registers, and this sweep took a quarter longer
     * than the OpenMP one on one thread (2026-12-07, bench size), which
     * would have favoured ompdsm over the MPI and DSM versions. */
    long ilo = h->ilo;
    for (long i = i0; i < i1; i++)
        for (long j = 1; j < jmax - 1; j++)
            for (long k = 1; k < kmax - 1; k++) {
                long x = ((i - ilo) * mj + j) * mk + k;
                float s0 = a0[x] * p[x + plane] + a1[x] * p[x + mk] + a2[x] * p[x + 1]
                         + b0[x] * (p[x + plane + mk] - p[x + plane - mk]
                                    - p[x - plane + mk] + p[x - plane - mk])
                         + b1[x] * (p[x + mk + 1] - p[x - mk + 1]
                                    - p[x + mk - 1] + p[x - mk - 1])
                         + b2[x] * (p[x + plane + 1] - p[x - plane + 1]
                                    - p[x + plane - 1] + p[x - plane - 1])
                         + c0[x] * p[x - plane] + c1[x] * p[x - mk] + c2[x] * p[x - 1]
                         + wrk1[x];
                float ss = (s0 * a3[x] - p[x]) * bnd[x];
                gosa += ss * ss;
                wrk2[x] = p[x] + HIMENO_OMEGA * ss;
            }
    return gosa;
}

void himeno_copy(struct himeno *h, long i0, long i1)
{
    long mj = h->mj, mk = h->mk, jmax = mj - 1, kmax = mk - 1;
    if (i0 < himeno_first(h))
        i0 = himeno_first(h);
    if (i1 > himeno_end(h))
        i1 = himeno_end(h);
    for (long i = i0; i < i1; i++)
        for (long j = 1; j < jmax - 1; j++)
            for (long k = 1; k < kmax - 1; k++) {
                long x = ((i - h->ilo) * mj + j) * mk + k;
                h->p[x] = h->wrk2[x];
            }
}

double himeno_flops(const struct himeno *h)
{
    return HIMENO_FLOPS_PER_POINT * (double)(h->mi - 3) * (double)(h->mj - 3) *
           (double)(h->mk - 3);
}

double himeno_run_seq(struct himeno *h, long mi, long iters)
{
    double gosa = 0;
    if (!himeno_shape(h, mi) || !himeno_alloc(h, 0, mi))
        abort();
    himeno_init(h, 0, mi);
    for (long it = 0; it < iters; it++) {
        gosa = himeno_jacobi(h, himeno_first(h), himeno_end(h));
        himeno_copy(h, himeno_first(h), himeno_end(h));
    }
    return gosa;
}

long himeno_p_differ(const struct himeno *a, const struct himeno *b, long i0, long i1)
{
    long bad = 0;
    for (long i = i0; i < i1; i++)
        for (long j = 0; j < a->mj; j++)
            for (long k = 0; k < a->mk; k++) {
                float x = HIMENO_AT(a, a->p, i, j, k), y = HIMENO_AT(b, b->p, i, j, k);
                /* bitwise: NaN equals nothing, and -0 is not asked for */
                if (memcmp(&x, &y, sizeof x) != 0)
                    bad++;
            }
    return bad;
}

int himeno_verify(const struct himeno *h, double gosa, const struct app_opts *o)
{
    if (!o->verify) {
        printf("UNVERIFIED himeno\n");
        return 0;
    }
    struct himeno ref;
    double gref = himeno_run_seq(&ref, o->n, o->iters);
    long bad = himeno_p_differ(h, &ref, 0, h->mi);
    printf("himeno: sequential gosa %.17g, %ld values of p differ\n", gref, bad);
    int rc = app_verdict(bad == 0 && app_close(gosa, gref, HIMENO_TOL), "himeno",
                         "p identical to the sequential run's, gosa within 1e-10");
    himeno_free(&ref);
    return rc;
}
