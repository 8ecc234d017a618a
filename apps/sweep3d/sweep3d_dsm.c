/* sweep3d_dsm.c - Sweep3D hand-written against libdsm (TreadMarks style).
 *
 * SPMD: every process runs main. The j rows are split into one contiguous
 * range per process; phi, src and kface are only ever touched on a
 * process's own rows, so they stay private (malloc). The only shared data
 * are the j-faces handed down the pipeline and one partial flux sum per
 * process. For each octant the processes form a pipeline along j over the k
 * blocks: a process dsm_sema_wait()s on its own semaphore until its
 * upstream neighbour has written the j-face of the current block, sweeps
 * the block and dsm_sema_signal()s its downstream neighbour. A semaphore
 * signal is a release and the wait an acquire, so the face written before
 * the signal is visible after the wait. Every face block starts on its own
 * page: the upstream writer and the downstream reader of one block never
 * share a page with another pair. A barrier ends each octant because the
 * next one reuses the face buffers. Checked against the sequential run
 * within SW_TOL (1e-10), like the OpenMP version, and more strictly: every
 * cell sees the same arithmetic however the rows are split, so process 0
 * reruns the sequential sweep privately, sums its phi over the same row
 * blocks in the same order, and demands bit-for-bit equality (a lost or
 * stale face update that changes the flux by less than 1e-10 still fails). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"
#include "sweep3d_ref.h"

static const struct app_presets presets = { 48, 8, 96, 16 };

#define PAGE_DOUBLES (4096 / sizeof(double))

static struct sweep s;
static double *jface;       /* shared: (nprocs+1) * nkb face blocks, page-aligned */
static double *sums;        /* shared: one partial sum per process, 4096 bytes apart */
static long face_stride;    /* doubles per face block, rounded up to a page */

/* Semaphore ids: down[p] = p, up[p] = nprocs + p. */
static unsigned sem_down(unsigned p) { return p; }
static unsigned sem_up(unsigned p) { return dsm_nprocs() + p; }

/* The j-face between processes b-1 and b (b = 0..nprocs), k block kb. */
static double *face(int b, int kb)
{
    return jface + ((long)b * s.nkb + kb) * face_stride;
}

/* The sequential sweep (sw_block over all rows, as sw_run_seq does), with
 * phi summed over the np row blocks in rank order, as main() sums them. */
static double seq_blocked_sum(int iters, unsigned np)
{
    int n = s.n;
    long cells = (long)n * n * n;
    double *phi = calloc((size_t)cells, sizeof *phi);
    double *src = malloc((size_t)cells * sizeof *src);
    double *kface = malloc((size_t)SW_MM * n * n * sizeof *kface);
    double *jf = malloc((size_t)sw_face_size(&s) * sizeof *jf);
    if (!phi || !src || !kface || !jf) {
        fprintf(stderr, "sweep3d: out of memory\n");
        exit(2);
    }
    for (int it = 0; it < iters; it++) {
        sw_new_source(&s, phi, src, 0, n);
        for (int oct = 0; oct < 8; oct++) {
            memset(kface, 0, (size_t)SW_MM * n * n * sizeof *kface);
            for (int kb = 0; kb < s.nkb; kb++)
                sw_block(&s, oct, kb, 0, n, NULL, jf, kface, phi, src, 1, NULL);
        }
    }
    double sum = 0;
    for (unsigned p = 0; p < np; p++)
        sum += sw_sum(&s, phi, (int)((long)p * n / np), (int)((long)(p + 1) * n / np));
    free(phi);
    free(src);
    free(kface);
    free(jf);
    return sum;
}

int main(int argc, char **argv)
{
    struct app_opts o;
    dsm_startup(argc, argv);
    unsigned me = dsm_proc_id(), np = dsm_nprocs();
    app_parse(&o, argc, argv, "sweep3d", &presets);
    sw_setup(&s, (int)o.n);
    int n = s.n, iters = (int)o.iters;
    long cells = (long)n * n * n;
    face_stride = (sw_face_size(&s) + (long)PAGE_DOUBLES - 1) / (long)PAGE_DOUBLES * (long)PAGE_DOUBLES;

    if (me == 0) {
        jface = dsm_malloc((size_t)(np + 1) * s.nkb * face_stride * sizeof *jface);
        sums = dsm_malloc((size_t)np * 4096);
        if (!jface || !sums) {
            fprintf(stderr, "sweep3d: dsm_malloc failed\n");
            dsm_exit(2);
        }
        dsm_distribute(&jface, sizeof jface);
        dsm_distribute(&sums, sizeof sums);
    }
    /* Private: only this process's rows are used. */
    double *phi = calloc((size_t)cells, sizeof *phi);
    double *src = malloc((size_t)cells * sizeof *src);
    double *kface = malloc((size_t)SW_MM * n * n * sizeof *kface);
    double *sink = malloc((size_t)sw_face_size(&s) * sizeof *sink);
    if (!phi || !src || !kface || !sink) {
        fprintf(stderr, "sweep3d: out of memory\n");
        dsm_exit(2);
    }
    int j0 = (int)((long)me * n / np), j1 = (int)((long)(me + 1) * n / np);
    dsm_sema_init(sem_down(me), 0);
    dsm_sema_init(sem_up(me), 0);
    dsm_barrier(0);

    double t0 = app_now();
    for (int it = 0; it < iters; it++) {
        sw_new_source(&s, phi, src, j0, j1);
        for (int oct = 0; oct < 8; oct++) {
            int fwd = !(oct & 2);                        /* sweeping towards larger j */
            int first = fwd ? me == 0 : me == np - 1;
            int last = fwd ? me == np - 1 : me == 0;
            int bin = fwd ? (int)me : (int)me + 1, bout = fwd ? (int)me + 1 : (int)me;
            for (int m = 0; m < SW_MM; m++)
                memset(kface + ((long)m * n + j0) * n, 0, (size_t)(j1 - j0) * n * sizeof *kface);
            for (int kb = 0; kb < s.nkb; kb++) {
                if (!first)
                    dsm_sema_wait(fwd ? sem_down(me) : sem_up(me));
                /* The last process's outgoing face goes nowhere: a private
                 * sink spares the twin and diff of a shared page. */
                sw_block(&s, oct, kb, j0, j1, first ? NULL : face(bin, kb),
                         last ? sink : face(bout, kb), kface, phi, src, last, NULL);
                if (!last)
                    dsm_sema_signal(fwd ? sem_down(me + 1) : sem_up(me - 1));
            }
            dsm_barrier(1);
        }
    }
    sums[me * (4096 / sizeof *sums)] = sw_sum(&s, phi, j0, j1);
    dsm_barrier(2);
    double elapsed = app_now() - t0;
    free(phi);
    free(src);
    free(kface);
    free(sink);

    int rc = 0;
    if (me == 0) {
        double sum = 0;
        for (unsigned p = 0; p < np; p++)
            sum += sums[p * (4096 / sizeof *sums)];
        app_report_time("sweep3d", "dsm", (int)np, &o, elapsed);
        printf("sweep3d: flux sum %.15e\n", sum);
        if (!o.verify) {
            printf("UNVERIFIED sweep3d\n");
        } else {
            double ref = sw_run_seq(&s, iters, NULL, NULL);
            double exact = seq_blocked_sum(iters, np);
            char what[192];
            snprintf(what, sizeof what, "flux sum %.15e, sequential %.15e, tolerance 1e-10; "
                     "same row blocks %.17g (must be equal bit for bit)", sum, ref, exact);
            rc = app_verdict(app_close(sum, ref, SW_TOL) && sum == exact, "sweep3d", what);
        }
        fflush(stdout);
    }
    dsm_barrier(3);
    dsm_exit(rc);
}
