/* stencil_ref.c - the Jacobi sweep and the sequential reference. */
#include "stencil_ref.h"

#include <stdlib.h>

void stencil_init(double *g, long n, uint64_t seed)
{
    struct app_rng r;
    app_rng_seed(&r, seed);
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            int edge = i == 0 || j == 0 || i == n - 1 || j == n - 1;
            g[i * n + j] = edge ? (double)((i + 2 * j) % 17) : app_rng_double(&r);
        }
}

void stencil_rows(double *dst, const double *src, long n, long r0, long r1)
{
    if (r0 < 1) r0 = 1;
    if (r1 > n - 1) r1 = n - 1;
    for (long i = r0; i < r1; i++) {
        const double *up = src + (i - 1) * n, *mid = src + i * n, *down = src + (i + 1) * n;
        double *out = dst + i * n;
        for (long j = 1; j < n - 1; j++)
            out[j] = 0.25 * ((up[j] + down[j]) + (mid[j - 1] + mid[j + 1]));
    }
}

double stencil_sum(const double *g, long n)
{
    double s = 0;
    for (long k = 0; k < n * n; k++)
        s += g[k];
    return s;
}

double stencil_run_seq(long n, long iters, uint64_t seed, double **out)
{
    double *a = malloc((size_t)(n * n) * sizeof *a), *b = malloc((size_t)(n * n) * sizeof *b);
    if (!a || !b)
        abort();
    stencil_init(a, n, seed);
    stencil_init(b, n, seed);   /* the boundary of both grids */
    for (long it = 0; it < iters; it++) {
        stencil_rows(b, a, n, 1, n - 1);
        double *t = a; a = b; b = t;
    }
    double s = stencil_sum(a, n);
    free(b);
    if (out) *out = a; else free(a);
    return s;
}
