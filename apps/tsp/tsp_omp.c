/* tsp_omp.c - TSP branch and bound in OpenMP.
 *
 * One parallel region; every thread repeatedly takes the most promising
 * partial tour from the shared priority queue and searches all its
 * completions. The queue, the pool of tour records and the shortest tour
 * found so far are shared and touched only inside critical(tq). Taking a
 * tour and enqueueing the children of the tours it passes over happen in one
 * critical section, so an empty queue means that no new work can appear and
 * the thread may stop: no condition variable is needed (as in the seed). */
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "tsp_ref.h"

static const struct app_presets presets = { 18, 1, 21, 1 };

static struct tsp_problem prob;
static struct tsp_queue queue;
static int best;

int main(int argc, char **argv)
{
    struct app_opts o;
    int nthreads = 1;
    app_parse(&o, argc, argv, "tsp", &presets);
    tsp_make(&prob, (int)o.n, o.seed);
    if (tsp_queue_init(&queue, TSP_POOL) != 0)
        return 2;

    double t0 = app_now();
    struct tsp_tour start;
    tsp_start(&prob, &start);
    tsp_queue_push(&queue, &start);
    best = INT_MAX;
#pragma omp parallel
    {
        struct tsp_tour t;
        int mybest, got;
#pragma omp master
        nthreads = omp_get_num_threads();
        for (;;) {
#pragma omp critical(tq)
            {
                got = tsp_get_tour(&prob, &queue, best, &t);
                mybest = best;
            }
            if (!got)
                break;
            int found = mybest;
            tsp_search(&prob, &t, &found);
            if (found < mybest) {
#pragma omp critical(tq)
                if (found < best)
                    best = found;
            }
        }
    }
    app_report_time("tsp", "omp", nthreads, &o, app_now() - t0);
    printf("tsp: shortest tour %d\n", best);

    if (!o.verify) {
        printf("UNVERIFIED tsp\n");
        return 0;
    }
    int ref = tsp_held_karp(&prob);
    char what[96];
    snprintf(what, sizeof what, "tour length %d, Held-Karp %d", best, ref);
    return app_verdict(best == ref, "tsp", what);
}
