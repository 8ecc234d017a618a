/* tsp_dsm.c - TSP branch and bound hand-written against libdsm.
 *
 * SPMD: every process repeatedly takes the most promising partial tour
 * from the shared priority queue and searches all its completions. The
 * queue header, the pool of tour records, the heap, the free list and the
 * shortest tour so far are shared and touched only under lock TQ_LOCK (the
 * seed's TSP: one lock for the queue and the bound). Taking a tour and
 * enqueueing the children of the tours it passes over happen under one
 * acquire, so an empty queue means no new work can appear and the process
 * may stop. The distance matrix is computed privately by every process from
 * the seed (read-only data need not be shared). The exhaustive search of a
 * tour's tail, where all the time goes, runs on private data with no lock.
 * Checked against Held-Karp, exactly. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "dsm.h"
#include "tsp_ref.h"

static const struct app_presets presets = { 18, 1, 21, 1 };

enum { TQ_LOCK = 0 };

struct shared_state {
    struct tsp_queue q;     /* pointers into shared blocks */
    int best;
};

static struct tsp_problem prob;     /* private, identical everywhere */
static struct shared_state *st;     /* shared */

int main(int argc, char **argv)
{
    struct app_opts o;
    dsm_startup(argc, argv);
    unsigned me = dsm_proc_id(), np = dsm_nprocs();
    app_parse(&o, argc, argv, "tsp", &presets);
    if (o.n < 4 || o.n > 22) {
        if (me == 0)
            fprintf(stderr, "tsp: -n must be in [4, 22]\n");
        dsm_exit(2);
    }
    tsp_make(&prob, (int)o.n, o.seed);
    if (me == 0) {
        /* tsp_queue_init would malloc private memory; build it in shared blocks. */
        int cap = TSP_POOL;
        st = dsm_malloc(sizeof *st);
        struct tsp_tour *pool = dsm_malloc((size_t)cap * sizeof *pool);
        int *heap = dsm_malloc((size_t)cap * sizeof *heap);
        int *freelist = dsm_malloc((size_t)cap * sizeof *freelist);
        if (!st || !pool || !heap || !freelist) {
            fprintf(stderr, "tsp: dsm_malloc failed\n");
            dsm_exit(2);
        }
        st->q.cap = cap;
        st->q.nheap = 0;
        st->q.nfree = cap;
        st->q.pool = pool;
        st->q.heap = heap;
        st->q.freelist = freelist;
        for (int i = 0; i < cap; i++)
            freelist[i] = cap - 1 - i;
        struct tsp_tour start;
        tsp_start(&prob, &start);
        tsp_queue_push(&st->q, &start);
        st->best = INT_MAX;
        dsm_distribute(&st, sizeof st);
    }
    dsm_barrier(0);

    double t0 = app_now();
    for (;;) {
        struct tsp_tour t;
        int mybest, got;
        dsm_lock_acquire(TQ_LOCK);
        got = tsp_get_tour(&prob, &st->q, st->best, &t);
        mybest = st->best;
        dsm_lock_release(TQ_LOCK);
        if (!got)
            break;
        int found = mybest;
        tsp_search(&prob, &t, &found);
        if (found < mybest) {
            dsm_lock_acquire(TQ_LOCK);
            if (found < st->best)
                st->best = found;
            dsm_lock_release(TQ_LOCK);
        }
    }
    dsm_barrier(1);
    double elapsed = app_now() - t0;

    int rc = 0;
    if (me == 0) {
        int best = st->best;
        app_report_time("tsp", "dsm", (int)np, &o, elapsed);
        printf("tsp: shortest tour %d\n", best);
        if (!o.verify) {
            printf("UNVERIFIED tsp\n");
        } else {
            int ref = tsp_held_karp(&prob);
            char what[96];
            snprintf(what, sizeof what, "tour length %d, Held-Karp %d", best, ref);
            rc = app_verdict(best == ref, "tsp", what);
        }
        fflush(stdout);
    }
    dsm_barrier(2);
    dsm_exit(rc);
}
