/* qsort_omp.c - QSORT in OpenMP with the seed's task queue (Figure 4).
 *
 * Every thread of one parallel region loops: dequeue a subarray, partition
 * it until it is short, enqueue the larger half each time (or bubble sort it
 * when it is short too), and bubble sort what is left. The queue and the
 * count of waiting threads are guarded by critical(tq). A thread that finds
 * the queue empty waits on the condition tq_nonempty; an enqueue signals it.
 * When the last thread starts to wait with the queue empty, no thread holds
 * work, so it broadcasts and everyone leaves. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompx.h"
#include "qsort_ref.h"

static const struct app_presets presets = { 1 << 18, 1, 1 << 21, 1 };

/* The shared task queue: a stack of [lo,hi) subarrays. Queued subarrays are
 * disjoint and longer than QS_BUBBLE, so n/QS_BUBBLE+16 entries suffice. */
static long *tq_lo, *tq_hi;
static long tq_count;
static int tq_nwait;        /* threads blocked in dequeue */
static int tq_done;         /* set when every thread waits on an empty queue */
static int *data;

static void enqueue(long lo, long hi)
{
    OMPX_CRITICAL_BEGIN(tq)
    tq_lo[tq_count] = lo;
    tq_hi[tq_count] = hi;
    tq_count++;
    OMPX_COND_SIGNAL(tq_nonempty, tq);
    OMPX_CRITICAL_END(tq)
}

/* Returns 0 when all work is finished. */
static int dequeue(long *lo, long *hi)
{
    int got = 0;
    OMPX_CRITICAL_BEGIN(tq)
    while (tq_count == 0 && !tq_done) {
        tq_nwait++;
        if (tq_nwait == omp_get_num_threads()) {
            tq_done = 1;
            OMPX_COND_BROADCAST(tq_nonempty, tq);
        } else {
            OMPX_COND_WAIT(tq_nonempty, tq);
        }
        tq_nwait--;
    }
    if (tq_count > 0) {
        tq_count--;
        *lo = tq_lo[tq_count];
        *hi = tq_hi[tq_count];
        got = 1;
    }
    OMPX_CRITICAL_END(tq)
    return got;
}

static void worker(void)
{
    long lo, hi;
    while (dequeue(&lo, &hi)) {
        while (hi - lo > QS_BUBBLE) {
            long p = qs_partition(data, lo, hi);
            long blo = lo, bhi = p, slo = p + 1, shi = hi;   /* bigger, smaller */
            if (bhi - blo < shi - slo) {
                blo = p + 1; bhi = hi; slo = lo; shi = p;
            }
            if (bhi - blo > QS_BUBBLE)
                enqueue(blo, bhi);
            else
                qs_bubble(data, blo, bhi);
            lo = slo;
            hi = shi;
        }
        qs_bubble(data, lo, hi);
    }
}

int main(int argc, char **argv)
{
    struct app_opts o;
    int nthreads = 1;
    app_parse(&o, argc, argv, "qsort", &presets);
    long n = o.n;
    data = malloc((size_t)n * sizeof *data);
    tq_lo = malloc((size_t)(n / QS_BUBBLE + 16) * sizeof *tq_lo);
    tq_hi = malloc((size_t)(n / QS_BUBBLE + 16) * sizeof *tq_hi);
    if (!data || !tq_lo || !tq_hi)
        return 2;
    qs_fill(data, n, o.seed);

    double t0 = app_now();
    tq_lo[0] = 0;
    tq_hi[0] = n;
    tq_count = 1;
    tq_nwait = 0;
    tq_done = 0;
#pragma omp parallel
    {
#pragma omp master
        nthreads = omp_get_num_threads();
        worker();
    }
    app_report_time("qsort", "omp", nthreads, &o, app_now() - t0);

    if (!o.verify) {
        printf("UNVERIFIED qsort\n");
        return 0;
    }
    int *ref = malloc((size_t)n * sizeof *ref);
    if (!ref)
        return 2;
    qs_fill(ref, n, o.seed);
    qs_sort_seq(ref, n);
    int ok = qs_check(data, ref, n) == 0;
    free(ref);
    return app_verdict(ok, "qsort", "equals the sequential sort");
}
