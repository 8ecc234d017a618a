/* qsort_seq.c - sequential QSORT. Its reference is an independent sort
 * (libc qsort) of the same input, so a bug in the shared algorithm shows. */
#include "qsort_ref.h"

#include <stdio.h>
#include <stdlib.h>

static const struct app_presets presets = { 1 << 18, 1, 1 << 21, 1 };

static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    struct app_opts o;
    app_parse(&o, argc, argv, "qsort", &presets);
    int *a = malloc((size_t)o.n * sizeof *a);
    if (!a)
        return 2;
    qs_fill(a, o.n, o.seed);

    double t0 = app_now();
    qs_sort_seq(a, o.n);
    app_report_time("qsort", "seq", 1, &o, app_now() - t0);

    if (!o.verify) {
        printf("UNVERIFIED qsort\n");
        free(a);
        return 0;
    }
    int *ref = malloc((size_t)o.n * sizeof *ref);
    if (!ref)
        return 2;
    qs_fill(ref, o.n, o.seed);
    qsort(ref, (size_t)o.n, sizeof *ref, cmp_int);
    int ok = qs_check(a, ref, o.n) == 0;
    free(a);
    free(ref);
    return app_verdict(ok, "qsort", "equals libc qsort of the input");
}
