/* stencil_seq.c - sequential Jacobi stencil, checked against a second,
 * independent sum of the reference run (the same sweeps, so the grids must
 * be identical bit for bit). */
#include "stencil_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct app_presets presets = { 256, 50, 1024, 500 };

int main(int argc, char **argv)
{
    struct app_opts o;
    app_parse(&o, argc, argv, "stencil", &presets);
    long n = o.n;
    if (n < 3)
        return 2;
    double *a = malloc((size_t)(n * n) * sizeof *a), *b = malloc((size_t)(n * n) * sizeof *b);
    if (!a || !b)
        return 2;
    stencil_init(a, n, o.seed);
    stencil_init(b, n, o.seed);
    double t0 = app_now();
    for (long it = 0; it < o.iters; it++) {
        stencil_rows(b, a, n, 1, n - 1);
        double *t = a; a = b; b = t;
    }
    app_report_time("stencil", "seq", 1, &o, app_now() - t0);
    double s = stencil_sum(a, n);
    if (!o.verify) {
        printf("stencil: sum %.17g\nUNVERIFIED stencil\n", s);
        free(a);
        free(b);
        return 0;
    }
    double *ref;
    stencil_run_seq(n, o.iters, o.seed, &ref);
    int same = memcmp(a, ref, (size_t)(n * n) * sizeof *a) == 0;
    printf("stencil: sum %.17g\n", s);
    free(ref);
    free(a);
    free(b);
    return app_verdict(same, "stencil", "grid identical to the reference run");
}
