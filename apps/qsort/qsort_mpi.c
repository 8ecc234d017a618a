/* qsort_mpi.c - QSORT with MPI.
 *
 * Rank 0 owns the array. It partitions, exactly as the task queue would,
 * until every queued subarray is at most n/(8p) long (or short enough to
 * bubble sort), then deals the subarrays out: largest first, each to the
 * rank with the least work so far. Every rank sorts its subarrays with the
 * sequential algorithm and sends them back. Rank 0 sorts its own share
 * while the others work. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "qsort_ref.h"

static const struct app_presets presets = { 1 << 18, 1, 1 << 21, 1 };

struct task { long lo, hi; int owner; };

static int by_size_desc(const void *x, const void *y)
{
    const struct task *a = x, *b = y;
    long la = a->hi - a->lo, lb = b->hi - b->lo;
    return (la < lb) - (la > lb);
}

int main(int argc, char **argv)
{
    struct app_opts o;
    int rank, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    app_parse(&o, argc, argv, "qsort", &presets);
    long n = o.n;
    int *a = malloc((size_t)n * sizeof *a);
    if (!a)
        MPI_Abort(MPI_COMM_WORLD, 2);
    if (rank == 0)
        qs_fill(a, n, o.seed);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now();
    if (rank == 0) {
        long grain = n / (8L * np) + 1;
        if (grain < QS_BUBBLE)
            grain = QS_BUBBLE;
        /* Random input keeps both lists near n/grain entries; they grow
         * if an unlucky input partitions badly. */
        long cap = n / QS_BUBBLE + 16, ntasks = 0, top = 0;
        struct task *todo = malloc((size_t)cap * sizeof *todo);
        struct task *tasks = malloc((size_t)cap * sizeof *tasks);
        long *load = calloc((size_t)np, sizeof *load);
        if (!todo || !tasks || !load)
            MPI_Abort(MPI_COMM_WORLD, 2);
        todo[top++] = (struct task){ 0, n, 0 };
        while (top > 0) {
            struct task t = todo[--top];
            if (top + 2 > cap || ntasks + 1 > cap) {
                cap *= 2;
                todo = realloc(todo, (size_t)cap * sizeof *todo);
                tasks = realloc(tasks, (size_t)cap * sizeof *tasks);
                if (!todo || !tasks)
                    MPI_Abort(MPI_COMM_WORLD, 2);
            }
            if (t.hi - t.lo <= grain) {
                if (t.hi > t.lo)
                    tasks[ntasks++] = t;
                continue;
            }
            long p = qs_partition(a, t.lo, t.hi);
            todo[top++] = (struct task){ t.lo, p, 0 };
            todo[top++] = (struct task){ p + 1, t.hi, 0 };
        }
        qsort(tasks, (size_t)ntasks, sizeof *tasks, by_size_desc);
        for (long i = 0; i < ntasks; i++) {
            int best = 0;
            for (int r = 1; r < np; r++)
                if (load[r] < load[best])
                    best = r;
            tasks[i].owner = best;
            load[best] += tasks[i].hi - tasks[i].lo;
        }
        /* Tell every rank how many subarrays it gets, then send them. */
        for (int r = 1; r < np; r++) {
            long cnt = 0;
            for (long i = 0; i < ntasks; i++)
                cnt += tasks[i].owner == r;
            MPI_Send(&cnt, 1, MPI_LONG, r, 0, MPI_COMM_WORLD);
        }
        for (long i = 0; i < ntasks; i++)
            if (tasks[i].owner != 0) {
                long len = tasks[i].hi - tasks[i].lo;
                MPI_Send(&len, 1, MPI_LONG, tasks[i].owner, 1, MPI_COMM_WORLD);
                MPI_Send(a + tasks[i].lo, (int)len, MPI_INT, tasks[i].owner, 2, MPI_COMM_WORLD);
            }
        for (long i = 0; i < ntasks; i++)
            if (tasks[i].owner == 0)
                qs_sort_seq(a + tasks[i].lo, tasks[i].hi - tasks[i].lo);
        /* Each rank returns its subarrays in the order it received them. */
        for (long i = 0; i < ntasks; i++)
            if (tasks[i].owner != 0)
                MPI_Recv(a + tasks[i].lo, (int)(tasks[i].hi - tasks[i].lo), MPI_INT,
                         tasks[i].owner, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        free(todo);
        free(tasks);
        free(load);
    } else {
        long cnt, used = 0;
        MPI_Recv(&cnt, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        long *lens = malloc((size_t)(cnt + 1) * sizeof *lens);
        if (!lens)
            MPI_Abort(MPI_COMM_WORLD, 2);
        for (long i = 0; i < cnt; i++) {
            MPI_Recv(&lens[i], 1, MPI_LONG, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(a + used, (int)lens[i], MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            used += lens[i];
        }
        used = 0;
        for (long i = 0; i < cnt; i++) {
            qs_sort_seq(a + used, lens[i]);
            MPI_Send(a + used, (int)lens[i], MPI_INT, 0, 3, MPI_COMM_WORLD);
            used += lens[i];
        }
        free(lens);
    }
    double t = app_now() - t0;
    int rc = 0;
    if (rank == 0) {
        app_report_time("qsort", "mpi", np, &o, t);
        if (!o.verify) {
            printf("UNVERIFIED qsort\n");
        } else {
            int *ref = malloc((size_t)n * sizeof *ref);
            if (!ref)
                MPI_Abort(MPI_COMM_WORLD, 2);
            qs_fill(ref, n, o.seed);
            qs_sort_seq(ref, n);
            rc = app_verdict(qs_check(a, ref, n) == 0, "qsort", "equals the sequential sort");
            free(ref);
        }
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(a);
    MPI_Finalize();
    return rc;
}
