/* fft3d_omp.c - 3-D FFT (NAS FT style) in OpenMP.
 *
 * Every phase is a `parallel for` over independent planes or rows: the x/y
 * FFTs over z planes, the global transpose over the rows of the target
 * layout, the z FFTs and the evolution over y rows. Three shared arrays:
 * u (zyx work array), v0 (forward transform, yxz) and w (evolved, yxz).
 * Checked against the sequential run; tolerance FFT3D_TOL (1e-9 relative). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "fft3d_ref.h"

static const struct app_presets presets = { 64, 6, 128, 40 };

int main(int argc, char **argv)
{
    struct app_opts o;
    struct fft3d f;
    int nthreads = 1;
    app_parse(&o, argc, argv, "fft3d", &presets);
    if (fft3d_setup(&f, (int)o.n) != 0) {
        fprintf(stderr, "fft3d: n must be a power of two in [4, %d]\n", FFT3D_MAXN);
        return 2;
    }
    int n = f.n, iters = (int)o.iters;
    long plane = f.plane;
    size_t bytes = (size_t)plane * (size_t)n * sizeof(struct cplx);
    struct cplx *u = malloc(bytes), *v0 = malloc(bytes), *w = malloc(bytes);
    struct cplx *sums = malloc((size_t)iters * sizeof *sums);
    if (!u || !v0 || !w || !sums)
        return 2;

    double t0 = app_now();
#pragma omp parallel
#pragma omp master
    nthreads = omp_get_num_threads();

    /* forward transform of the initial array into v0 */
#pragma omp parallel for
    for (int z = 0; z < n; z++) {
        fft3d_fill(&f, u + z * plane, z, z + 1, o.seed);
        fft3d_xy(&f, u + z * plane, 1, -1);
    }
#pragma omp parallel for
    for (int y = 0; y < n; y++) {
        fft3d_to_yxz(&f, u, v0 + y * plane, y, y + 1);
        fft3d_z(&f, v0 + y * plane, 1, -1);
    }

    for (int t = 1; t <= iters; t++) {
#pragma omp parallel for
        for (int y = 0; y < n; y++) {
            fft3d_evolve(&f, v0 + y * plane, w + y * plane, y, y + 1, t);
            fft3d_z(&f, w + y * plane, 1, +1);
        }
#pragma omp parallel for
        for (int z = 0; z < n; z++) {
            fft3d_to_zyx(&f, w, u + z * plane, z, z + 1);
            fft3d_xy(&f, u + z * plane, 1, +1);
        }
        fft3d_checksum(&f, u, 0, n, &sums[t - 1]);
    }
    app_report_time("fft3d", "omp", nthreads, &o, app_now() - t0);
    for (int t = 0; t < iters; t++)
        printf("fft3d: step %d checksum %.12e %.12e\n", t + 1, sums[t].re, sums[t].im);

    free(u);
    free(v0);
    free(w);
    if (!o.verify) {
        printf("UNVERIFIED fft3d\n");
        free(sums);
        fft3d_teardown(&f);
        return 0;
    }
    struct cplx *ref = malloc((size_t)iters * sizeof *ref);
    if (!ref || fft3d_run_seq(&f, o.seed, iters, ref) != 0)
        return 2;
    int ok = fft3d_same(sums, ref, iters);
    free(sums);
    free(ref);
    fft3d_teardown(&f);
    return app_verdict(ok, "fft3d", "checksums match the sequential run within 1e-9");
}
