/* sweep3d_omp.c - Sweep3D in OpenMP with the seed's semaphores.
 *
 * The j rows are split into one contiguous range per thread. For each
 * octant the threads form a pipeline along j: a thread waits on its
 * semaphore until the upstream neighbour has swept the current k block,
 * sweeps the block over its own rows, and signals the downstream neighbour.
 * Octants whose j direction is positive use the `down` semaphores (thread t
 * signals t+1), the others `up` (t signals t-1). The j-faces are handed over
 * in jface, one buffer per boundary and k block, so a thread may run ahead
 * within an octant; a barrier ends each octant because the next one reuses
 * the buffers. Checked against the sequential run within SW_TOL (1e-10). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompx.h"
#include "sweep3d_ref.h"

static const struct app_presets presets = { 48, 8, 96, 16 };

static struct sweep s;
static double *phi, *src, *kface, *jface;

/* The j-face between threads b-1 and b (b = 0..nthreads), k block kb. */
static double *face(int b, int kb)
{
    return jface + ((long)b * s.nkb + kb) * sw_face_size(&s);
}

int main(int argc, char **argv)
{
    struct app_opts o;
    int nthreads = omp_get_max_threads();
    app_parse(&o, argc, argv, "sweep3d", &presets);
    sw_setup(&s, (int)o.n);
    int n = s.n, iters = (int)o.iters;
    long cells = (long)n * n * n;
    phi = calloc((size_t)cells, sizeof *phi);
    src = malloc((size_t)cells * sizeof *src);
    kface = malloc((size_t)SW_MM * n * n * sizeof *kface);
    jface = malloc((size_t)(nthreads + 1) * s.nkb * sw_face_size(&s) * sizeof *jface);
    if (!phi || !src || !kface || !jface)
        return 2;

    double t0 = app_now();
#pragma omp parallel num_threads(nthreads)
    {
        int me = omp_get_thread_num(), nt = omp_get_num_threads();
        int j0 = me * n / nt, j1 = (me + 1) * n / nt;
        if (me == 0)
            nthreads = nt;
        OMPX_SEMA_INIT_AT(down, me, 0);
        OMPX_SEMA_INIT_AT(up, me, 0);
#pragma omp barrier
        for (int it = 0; it < iters; it++) {
            sw_new_source(&s, phi, src, j0, j1);
            for (int oct = 0; oct < 8; oct++) {
                int fwd = !(oct & 2);                    /* sweeping towards larger j */
                int first = fwd ? me == 0 : me == nt - 1;
                int last = fwd ? me == nt - 1 : me == 0;
                int bin = fwd ? me : me + 1, bout = fwd ? me + 1 : me;
                for (int m = 0; m < SW_MM; m++)
                    memset(kface + ((long)m * n + j0) * n, 0,
                           (size_t)(j1 - j0) * n * sizeof *kface);
                for (int kb = 0; kb < s.nkb; kb++) {
                    if (!first) {
                        if (fwd)
                            OMPX_SEMA_WAIT_AT(down, me);
                        else
                            OMPX_SEMA_WAIT_AT(up, me);
                    }
                    sw_block(&s, oct, kb, j0, j1, first ? NULL : face(bin, kb), face(bout, kb),
                             kface, phi, src, last, NULL);
                    if (!last) {
                        if (fwd)
                            OMPX_SEMA_SIGNAL_AT(down, me + 1);
                        else
                            OMPX_SEMA_SIGNAL_AT(up, me - 1);
                    }
                }
#pragma omp barrier
            }
        }
    }
    double sum = sw_sum(&s, phi, 0, n);
    app_report_time("sweep3d", "omp", nthreads, &o, app_now() - t0);
    printf("sweep3d: flux sum %.15e\n", sum);
    if (!o.verify) {
        printf("UNVERIFIED sweep3d\n");
        return 0;
    }
    double ref = sw_run_seq(&s, iters, NULL, NULL);
    char what[128];
    snprintf(what, sizeof what, "flux sum %.15e, sequential %.15e, tolerance 1e-10", sum, ref);
    return app_verdict(app_close(sum, ref, SW_TOL), "sweep3d", what);
}
