/* fft3d_dsm.c - 3-D FFT (NAS FT style) hand-written against libdsm.
 *
 * SPMD: each process owns a block of z planes of the zyx array u and a
 * block of y rows of the yxz arrays v0 and w, so every process writes one
 * contiguous range of each array (planes are n*n*16 bytes: whole pages for
 * n >= 16). u, v0 and w are separate shared blocks. A barrier separates the
 * phases: the x/y FFTs on own z planes, the global transpose (each process
 * reads all of u and writes its own y rows of v0: this is where the DSM
 * moves data, like MPI's all-to-all), the z FFTs and the evolution on own
 * rows, the transpose back. The twiddle and exponential tables are
 * read-only, so every process computes its own private copy. Each process
 * sums the checksum elements that lie in its planes into a private series
 * and publishes it once at the end, in its own page-sized slot; process 0
 * adds the slots in rank order. Checked against the sequential run within
 * FFT3D_TOL (1e-9 relative). */
#include <stdio.h>
#include <stdlib.h>

#include "dsm.h"
#include "fft3d_ref.h"

static const struct app_presets presets = { 64, 6, 128, 40 };

static struct cplx *u, *v0, *w;     /* shared n^3 arrays */
static struct cplx *slots;          /* shared: one series of iters sums per process */

int main(int argc, char **argv)
{
    struct app_opts o;
    struct fft3d f;
    dsm_startup(argc, argv);
    unsigned me = dsm_proc_id(), np = dsm_nprocs();
    app_parse(&o, argc, argv, "fft3d", &presets);
    if (fft3d_setup(&f, (int)o.n) != 0) {
        if (me == 0)
            fprintf(stderr, "fft3d: n must be a power of two in [4, %d]\n", FFT3D_MAXN);
        dsm_exit(2);
    }
    int n = f.n, iters = (int)o.iters;
    long plane = f.plane;
    size_t bytes = (size_t)plane * (size_t)n * sizeof(struct cplx);
    /* Slot per process: iters sums rounded up to whole pages. */
    size_t slot_bytes = ((size_t)iters * sizeof(struct cplx) + 4095) / 4096 * 4096;
    long slot = (long)(slot_bytes / sizeof(struct cplx));
    if (me == 0) {
        u = dsm_malloc(bytes);
        v0 = dsm_malloc(bytes);
        w = dsm_malloc(bytes);
        slots = dsm_malloc(slot_bytes * np);
        if (!u || !v0 || !w || !slots) {
            fprintf(stderr, "fft3d: dsm_malloc failed\n");
            dsm_exit(2);
        }
        dsm_distribute(&u, sizeof u);
        dsm_distribute(&v0, sizeof v0);
        dsm_distribute(&w, sizeof w);
        dsm_distribute(&slots, sizeof slots);
    }
    struct cplx *mysums = calloc((size_t)iters + 1, sizeof *mysums);
    if (!mysums)
        dsm_exit(2);
    int z0 = (int)((long)me * n / np), z1 = (int)((long)(me + 1) * n / np);
    int y0 = z0, y1 = z1;       /* same block split for rows of the yxz arrays */
    dsm_barrier(0);

    double t0 = app_now();
    /* forward transform of the initial array into v0 */
    fft3d_fill(&f, u + z0 * plane, z0, z1, o.seed);
    fft3d_xy(&f, u + z0 * plane, z1 - z0, -1);
    dsm_barrier(1);
    fft3d_to_yxz(&f, u, v0 + y0 * plane, y0, y1);
    fft3d_z(&f, v0 + y0 * plane, y1 - y0, -1);

    for (int t = 1; t <= iters; t++) {
        /* v0 and w rows are this process's own: no barrier before evolve */
        fft3d_evolve(&f, v0 + y0 * plane, w + y0 * plane, y0, y1, t);
        fft3d_z(&f, w + y0 * plane, y1 - y0, +1);
        dsm_barrier(2);
        fft3d_to_zyx(&f, w, u + z0 * plane, z0, z1);
        fft3d_xy(&f, u + z0 * plane, z1 - z0, +1);
        fft3d_checksum(&f, u + z0 * plane, z0, z1, &mysums[t - 1]);
        /* the next evolve overwrites w, which others are still reading */
        dsm_barrier(3);
    }
    for (int t = 0; t < iters; t++)
        slots[me * slot + t] = mysums[t];
    free(mysums);
    dsm_barrier(4);
    double elapsed = app_now() - t0;

    int rc = 0;
    if (me == 0) {
        struct cplx *sums = calloc((size_t)iters + 1, sizeof *sums);
        if (!sums)
            dsm_exit(2);
        for (unsigned p = 0; p < np; p++)
            for (int t = 0; t < iters; t++) {
                sums[t].re += slots[p * slot + t].re;
                sums[t].im += slots[p * slot + t].im;
            }
        app_report_time("fft3d", "dsm", (int)np, &o, elapsed);
        for (int t = 0; t < iters; t++)
            printf("fft3d: step %d checksum %.12e %.12e\n", t + 1, sums[t].re, sums[t].im);
        if (!o.verify) {
            printf("UNVERIFIED fft3d\n");
        } else {
            struct cplx *ref = malloc((size_t)iters * sizeof *ref);
            if (!ref || fft3d_run_seq(&f, o.seed, iters, ref) != 0)
                dsm_exit(2);
            rc = app_verdict(fft3d_same(sums, ref, iters), "fft3d",
                             "checksums match the sequential run within 1e-9");
            free(ref);
        }
        free(sums);
        fflush(stdout);
    }
    dsm_barrier(5);
    dsm_exit(rc);
}
