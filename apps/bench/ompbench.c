/* ompbench.c - what each OpenMP construct costs, by the EPCC method: the
 * time of many instances of a construct wrapped around a fixed amount of
 * work, minus the time of the same work without the construct, per
 * instance.
 *
 * Built with -DOMPBENCH_TASKS (ompbench_tasks_*) it times the task
 * constructs instead, with parallel and barrier beside them: on ompdsm a
 * program that uses tasks completes the team's tasks at every barrier,
 * which the other constructs should not be charged for.
 *
 * Plain OpenMP C: built by gcc -fopenmp (ompbench_gomp) and, unchanged, by
 * ompdsmcc (ompbench_ompdsm, run under dsmrun, one process per thread).
 * apps/bench/overheads.sh runs both side by side with dsmbench's raw UDP
 * round trip and prints each overhead as a multiple of it.
 *
 * Each construct is timed over enough instances to last at least
 * OMPBENCH_MS milliseconds (default 200; the count doubles until it does),
 * as the median of OMPBENCH_RUNS such runs (default 5). Output: one line
 * per construct, "ompbench: <name> <overhead us> us <instances>". The
 * constructs that compute something (reduction, atomic, critical, lock,
 * single, master, for and its dynamic and guided schedules, ordered, the
 * tasks) check it; the program prints VERIFIED only if every check held,
 * and exits 1 otherwise. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/* The work inside each construct: a short dependent loop on a local, which
 * neither the compiler nor the DSM can skip or share. */
static int delay_len = 100;

static void delay(int n)
{
    volatile double sink;
    double a = 0.0;
    for (int i = 0; i < n; i++)
        a += i * 0.5;
    sink = a;
    (void)sink;
}

static int failed;
static long counter;            /* atomic, critical and lock targets */
static long single_count;
static omp_lock_t lock;

static void check(const char *what, long got, long want)
{
    if (got != want) {
        printf("ompbench: %s: got %ld, want %ld\n", what, got, want);
        failed = 1;
    }
}

/* One timed run of `reps` instances of construct `c`; returns seconds. */
enum { PARALLEL, FOR, PARALLEL_FOR, BARRIER, SINGLE, CRITICAL, LOCK, ATOMIC, REDUCTION,
       FOR_DYNAMIC, FOR_GUIDED, ORDERED, MASTER,
       TASK_PARALLEL, TASK_MASTER, TASK_WAIT, NCONS };
static const char *const names[NCONS] = {
    "parallel", "for", "parallel_for", "barrier", "single", "critical", "lock", "atomic",
    "reduction", "for_dynamic", "for_guided", "ordered", "master",
    "task_parallel", "task_master", "task_wait",
};

/* Iterations per thread of the dynamic and guided loops (EPCC's schedbench
 * shape: each loop hands out ITERS_PER_THREAD * nthreads iterations of one
 * delay each, chunk 1; the overhead is per loop). */
#define ITERS_PER_THREAD 4

#ifdef OMPBENCH_TASKS
/* Tasks run, counted per thread (each thread its own slot; summed after
 * the region) so that the check costs no synchronization. */
static long task_runs[256];

static void task_body(int dl)
{
    delay(dl);
    task_runs[omp_get_thread_num() & 255]++;
}

static long task_total(void)
{
    long t = 0;
    for (int i = 0; i < 256; i++) {
        t += task_runs[i];
        task_runs[i] = 0;
    }
    return t;
}
#endif

static double run_once(int c, long reps, int nthreads)
{
    double t0 = omp_get_wtime();
    int dl = delay_len;
    switch (c) {
    case PARALLEL:
        for (long j = 0; j < reps; j++) {
#pragma omp parallel
            delay(dl);
        }
        break;
    case FOR:
#pragma omp parallel
        for (long j = 0; j < reps; j++) {
            long seen = 0;
#pragma omp for
            for (int i = 0; i < nthreads; i++) {
                delay(dl);
                seen++;
            }
            if (seen != 1)
                failed = 1;     /* a static schedule gives each thread one iteration */
        }
        break;
    case PARALLEL_FOR:
        for (long j = 0; j < reps; j++) {
#pragma omp parallel for
            for (int i = 0; i < nthreads; i++)
                delay(dl);
        }
        break;
    case BARRIER:
#pragma omp parallel
        for (long j = 0; j < reps; j++) {
            delay(dl);
#pragma omp barrier
        }
        break;
    case SINGLE:
        single_count = 0;
#pragma omp parallel
        for (long j = 0; j < reps; j++) {
#pragma omp single
            {
                delay(dl);
                single_count++;
            }
        }
        check("single", single_count, reps);
        break;
    case CRITICAL:
        counter = 0;
#pragma omp parallel
        for (long j = 0; j < reps / nthreads; j++) {
#pragma omp critical
            {
                delay(dl);
                counter++;
            }
        }
        check("critical", counter, reps / nthreads * nthreads);
        break;
    case LOCK:
        counter = 0;
#pragma omp parallel
        for (long j = 0; j < reps / nthreads; j++) {
            omp_set_lock(&lock);
            delay(dl);
            counter++;
            omp_unset_lock(&lock);
        }
        check("lock", counter, reps / nthreads * nthreads);
        break;
    case ATOMIC:
        counter = 0;
#pragma omp parallel
        for (long j = 0; j < reps / nthreads; j++) {
            delay(dl);
#pragma omp atomic
            counter += 1;
        }
        check("atomic", counter, reps / nthreads * nthreads);
        break;
    case REDUCTION: {
        long sum = 0;
        for (long j = 0; j < reps; j++) {
#pragma omp parallel reduction(+:sum)
            {
                delay(dl);
                sum += 1;
            }
        }
        check("reduction", sum, reps * nthreads);
        break;
    }
    case FOR_DYNAMIC:
    case FOR_GUIDED: {
        long iters = 0;
        int n = ITERS_PER_THREAD * nthreads;
#pragma omp parallel reduction(+:iters)
        for (long j = 0; j < reps; j++) {
            if (c == FOR_DYNAMIC) {
#pragma omp for schedule(dynamic, 1)
                for (int i = 0; i < n; i++) {
                    delay(dl);
                    iters++;
                }
            } else {
#pragma omp for schedule(guided, 1)
                for (int i = 0; i < n; i++) {
                    delay(dl);
                    iters++;
                }
            }
        }
        check(names[c], iters, reps * n);
        break;
    }
    case ORDERED:
        /* EPCC: every iteration's ordered block, one after the other */
        counter = 0;
#pragma omp parallel
        {
#pragma omp for ordered schedule(static, 1)
            for (long i = 0; i < reps; i++) {
#pragma omp ordered
                {
                    delay(dl);
                    if (counter == i)
                        counter++;
                }
            }
        }
        check("ordered", counter, reps);
        break;
    case MASTER:
        /* master with the barrier that publishes what it wrote */
        single_count = 0;
#pragma omp parallel
        for (long j = 0; j < reps; j++) {
#pragma omp master
            {
                delay(dl);
                single_count++;
            }
#pragma omp barrier
        }
        check("master", single_count, reps);
        break;
#ifdef OMPBENCH_TASKS
    /* EPCC's task tests: every thread creates its share of the tasks; one
     * thread creates them all while the others run them (they wait at the
     * region's closing barrier, which completes the tasks); and one thread
     * creates a task and waits for it, again and again (on ompdsm the
     * creator mostly runs it itself: an idle process's request for work
     * takes longer to come than a task here). */
    case TASK_PARALLEL:
#pragma omp parallel
        for (long j = 0; j < reps / nthreads; j++) {
#pragma omp task
            task_body(dl);
        }
        check("task_parallel", task_total(), reps / nthreads * nthreads);
        break;
    case TASK_MASTER:
#pragma omp parallel
#pragma omp master
        for (long j = 0; j < reps; j++) {
#pragma omp task
            task_body(dl);
        }
        check("task_master", task_total(), reps);
        break;
    case TASK_WAIT:
#pragma omp parallel
#pragma omp master
        for (long j = 0; j < reps; j++) {
#pragma omp task
            task_body(dl);
#pragma omp taskwait
        }
        check("task_wait", task_total(), reps);
        break;
#endif
    }
    return omp_get_wtime() - t0;
}

/* Instances on one thread's path: all of them, except for atomic, where
 * each thread runs its share at the same time as the others (critical and
 * lock are serialised, so every instance is on the path). */
static long on_path(int c, long reps, int nthreads)
{
    if (c == FOR_DYNAMIC || c == FOR_GUIDED)
        return reps;
    return c == CRITICAL || c == LOCK ? reps / nthreads * nthreads
         : c == ATOMIC || c == TASK_PARALLEL || c == TASK_MASTER ? reps / nthreads : reps;
}

/* Delays per instance on one thread's path. */
static long work(int c)
{
    return c == FOR_DYNAMIC || c == FOR_GUIDED ? ITERS_PER_THREAD : 1;
}

/* The same work without the construct: n delays. */
static double reference(long n)
{
    int dl = delay_len;
    double t0 = omp_get_wtime();
    for (long j = 0; j < n; j++)
        delay(dl);
    return omp_get_wtime() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    const char *e;
    long ms = (e = getenv("OMPBENCH_MS")) ? atol(e) : 200;
    int runs = (e = getenv("OMPBENCH_RUNS")) ? atoi(e) : 5;
    if (ms < 1 || runs < 1 || runs > 99) {
        fprintf(stderr, "ompbench: OMPBENCH_MS must be >= 1 and OMPBENCH_RUNS in 1..99\n");
        return 2;
    }
    if ((e = getenv("OMPBENCH_DELAY")))
        delay_len = atoi(e);
    int nthreads = 1;
#pragma omp parallel
#pragma omp master
    nthreads = omp_get_num_threads();
    omp_init_lock(&lock);
    printf("ompbench: %d threads, delay %d, runs of >= %ld ms, median of %d\n", nthreads,
           delay_len, ms, runs);
    for (int c = 0; c < NCONS; c++) {
#ifdef OMPBENCH_TASKS
        if (c != PARALLEL && c != BARRIER && c < TASK_PARALLEL)
            continue;
#else
        if (c >= TASK_PARALLEL)
            continue;
#endif
        long reps = nthreads;
        while (run_once(c, reps, nthreads) * 1e3 < ms)
            reps *= 2;
        double per[99];
        long n = on_path(c, reps, nthreads);
        for (int r = 0; r < runs; r++)
            per[r] = (run_once(c, reps, nthreads) - reference(n * work(c))) / (double)n;
        qsort(per, (size_t)runs, sizeof per[0], cmp_double);
        printf("ompbench: %-12s %10.3f us %ld\n", names[c], per[runs / 2] * 1e6, reps);
        fflush(stdout);
    }
    omp_destroy_lock(&lock);
    if (failed) {
        printf("FAILED ompbench: a construct computed a wrong result\n");
        return 1;
    }
    printf("VERIFIED ompbench: every construct computed what it must\n");
    return 0;
}
