/* qsort_dsm.c - QSORT hand-written against libdsm (TreadMarks style).
 *
 * SPMD: every process runs main and loops on the shared task queue, as in
 * the seed's Figure 4. The queue (a stack of [lo,hi) subarrays), the count
 * of waiting processes and the end flag live in one shared record guarded
 * by lock TQ_LOCK. A process that finds the queue empty waits on condition
 * TQ_NONEMPTY (dsm_cond_wait releases the lock while it sleeps); an enqueue
 * signals it. When the last process starts to wait with the queue empty, no
 * process holds work, so it broadcasts and everyone leaves. The array is
 * one shared block; a subarray is partitioned and sorted by the process
 * that dequeued it, and the lock hand-over orders those writes before any
 * later reader. The lock is taken once per enqueue or dequeue, never per
 * element. Checked against the sequential sort, element by element. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"
#include "qsort_ref.h"

static const struct app_presets presets = { 1 << 18, 1, 1 << 21, 1 };

enum { TQ_LOCK = 0 };
enum { TQ_NONEMPTY = 0 };

struct taskq {
    long count;
    int nwait;              /* processes blocked in dequeue */
    int done;               /* set when every process waits on an empty queue */
    long cap;
    /* then cap lo values and cap hi values */
};

static struct taskq *tq;    /* shared */
static int *data;           /* shared */

static long *tq_lo(void) { return (long *)(tq + 1); }
static long *tq_hi(void) { return (long *)(tq + 1) + tq->cap; }

static void enqueue(long lo, long hi)
{
    dsm_lock_acquire(TQ_LOCK);
    if (tq->count >= tq->cap) {
        fprintf(stderr, "qsort: task queue overflow\n");
        abort();
    }
    tq_lo()[tq->count] = lo;
    tq_hi()[tq->count] = hi;
    tq->count++;
    dsm_cond_signal(TQ_NONEMPTY, TQ_LOCK);
    dsm_lock_release(TQ_LOCK);
}

/* Returns 0 when all work is finished. */
static int dequeue(long *lo, long *hi)
{
    int got = 0;
    dsm_lock_acquire(TQ_LOCK);
    while (tq->count == 0 && !tq->done) {
        tq->nwait++;
        if (tq->nwait == (int)dsm_nprocs()) {
            tq->done = 1;
            dsm_cond_broadcast(TQ_NONEMPTY, TQ_LOCK);
        } else {
            dsm_cond_wait(TQ_NONEMPTY, TQ_LOCK);
        }
        tq->nwait--;
    }
    if (tq->count > 0) {
        tq->count--;
        *lo = tq_lo()[tq->count];
        *hi = tq_hi()[tq->count];
        got = 1;
    }
    dsm_lock_release(TQ_LOCK);
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
    dsm_startup(argc, argv);
    unsigned me = dsm_proc_id(), np = dsm_nprocs();
    app_parse(&o, argc, argv, "qsort", &presets);
    long n = o.n;
    if (me == 0) {
        long cap = n / QS_BUBBLE + 16;
        /* Separate blocks: the queue's page never shares a page with data. */
        tq = dsm_malloc(sizeof *tq + 2 * (size_t)cap * sizeof(long));
        data = dsm_malloc((size_t)n * sizeof *data);
        if (!tq || !data) {
            fprintf(stderr, "qsort: dsm_malloc failed\n");
            dsm_exit(2);
        }
        /* fill() is user code writing shared memory: fine (only system
         * calls cannot write protected shared pages). */
        qs_fill(data, n, o.seed);
        tq->cap = cap;
        tq->count = 1;
        tq->nwait = 0;
        tq->done = 0;
        tq_lo()[0] = 0;
        tq_hi()[0] = n;
        dsm_distribute(&tq, sizeof tq);
        dsm_distribute(&data, sizeof data);
    }
    dsm_barrier(0);

    double t0 = app_now();
    worker();
    dsm_barrier(1);
    double elapsed = app_now() - t0;

    int rc = 0;
    if (me == 0) {
        app_report_time("qsort", "dsm", (int)np, &o, elapsed);
        if (!o.verify) {
            printf("UNVERIFIED qsort\n");
        } else {
            int *ref = malloc((size_t)n * sizeof *ref);
            if (!ref)
                dsm_exit(2);
            qs_fill(ref, n, o.seed);
            qs_sort_seq(ref, n);
            rc = app_verdict(qs_check(data, ref, n) == 0, "qsort", "equals the sequential sort");
            free(ref);
        }
        fflush(stdout);
    }
    dsm_barrier(2);
    dsm_exit(rc);
}
