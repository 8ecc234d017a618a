/* stencil_omp.c - Jacobi stencil in OpenMP: one parallel region around the
 * sweeps; each sweep is an `omp for` over rows with a static schedule, so a
 * thread keeps its block of rows and the loop's implicit barrier is the one
 * barrier per sweep. */
#include "stencil_ref.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct app_presets presets = { 256, 50, 1024, 500 };

int main(int argc, char **argv)
{
    struct app_opts o;
    app_parse(&o, argc, argv, "stencil", &presets);
    long n = o.n, iters = o.iters;
    if (n < 3)
        return 2;
    double *a = malloc((size_t)(n * n) * sizeof *a), *b = malloc((size_t)(n * n) * sizeof *b);
    if (!a || !b)
        return 2;
    stencil_init(a, n, o.seed);
    stencil_init(b, n, o.seed);
    int nthreads = omp_get_max_threads();

    double t0 = app_now();
#pragma omp parallel
    {
        double *src = a, *dst = b;
        for (long it = 0; it < iters; it++) {
#pragma omp for schedule(static)
            for (long i = 1; i < n - 1; i++)
                stencil_rows(dst, src, n, i, i + 1);
            double *t = src; src = dst; dst = t;
        }
    }
    app_report_time("stencil", "omp", nthreads, &o, app_now() - t0);
    double *g = iters % 2 ? b : a;
    double s = stencil_sum(g, n);
    printf("stencil: sum %.17g\n", s);
    int rc = 0;
    if (!o.verify) {
        printf("UNVERIFIED stencil\n");
    } else {
        double *ref;
        stencil_run_seq(n, iters, o.seed, &ref);
        rc = app_verdict(memcmp(g, ref, (size_t)(n * n) * sizeof *g) == 0, "stencil",
                         "grid identical to the sequential run");
        free(ref);
    }
    free(a);
    free(b);
    return rc;
}
