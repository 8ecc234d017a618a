/* tsp_seq.c - sequential branch and bound; checked against Held-Karp. */
#include "tsp_ref.h"

#include <stdio.h>

static const struct app_presets presets = { 18, 1, 21, 1 };

int main(int argc, char **argv)
{
    struct app_opts o;
    struct tsp_problem p;
    app_parse(&o, argc, argv, "tsp", &presets);
    tsp_make(&p, (int)o.n, o.seed);

    double t0 = app_now();
    int best = tsp_branch_and_bound(&p);
    app_report_time("tsp", "seq", 1, &o, app_now() - t0);
    printf("tsp: shortest tour %d\n", best);

    if (!o.verify) {
        printf("UNVERIFIED tsp\n");
        return 0;
    }
    int ref = tsp_held_karp(&p);
    char what[96];
    snprintf(what, sizeof what, "tour length %d, Held-Karp %d", best, ref);
    return app_verdict(best == ref, "tsp", what);
}
