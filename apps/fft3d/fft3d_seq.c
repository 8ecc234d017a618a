/* fft3d_seq.c - sequential 3-D FFT (NAS FT style).
 *
 * Check: the shared FFT code is tested independently of itself. The forward
 * transform of the initial array must satisfy Parseval's identity, and the
 * inverse of it must give back the initial array (both to 1e-10 relative),
 * and the checksums must be finite. */
#include "fft3d_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const struct app_presets presets = { 64, 6, 128, 40 };

static int roundtrip_ok(const struct fft3d *f, uint64_t seed)
{
    int n = f->n;
    long tot = f->plane * n;
    size_t bytes = (size_t)tot * sizeof(struct cplx);
    struct cplx *u = malloc(bytes), *u0 = malloc(bytes), *v = malloc(bytes);
    double e0 = 0, e1 = 0, err = 0, big = 0;
    if (!u || !u0 || !v)
        exit(2);
    fft3d_fill(f, u0, 0, n, seed);
    fft3d_fill(f, u, 0, n, seed);
    fft3d_xy(f, u, n, -1);
    fft3d_to_yxz(f, u, v, 0, n);
    fft3d_z(f, v, n, -1);
    for (long i = 0; i < tot; i++) {
        e0 += u0[i].re * u0[i].re + u0[i].im * u0[i].im;
        e1 += v[i].re * v[i].re + v[i].im * v[i].im;
    }
    e1 /= (double)tot;
    fft3d_z(f, v, n, +1);
    fft3d_to_zyx(f, v, u, 0, n);
    fft3d_xy(f, u, n, +1);
    for (long i = 0; i < tot; i++) {
        err = fmax(err, fabs(u[i].re / (double)tot - u0[i].re));
        err = fmax(err, fabs(u[i].im / (double)tot - u0[i].im));
        big = fmax(big, fmax(fabs(u0[i].re), fabs(u0[i].im)));
    }
    printf("fft3d: Parseval %.15e vs %.15e, roundtrip error %.3e\n", e0, e1, err);
    free(u);
    free(u0);
    free(v);
    return app_close(e0, e1, 1e-10) && err <= 1e-10 * big;
}

int main(int argc, char **argv)
{
    struct app_opts o;
    struct fft3d f;
    app_parse(&o, argc, argv, "fft3d", &presets);
    if (fft3d_setup(&f, (int)o.n) != 0) {
        fprintf(stderr, "fft3d: n must be a power of two in [4, %d]\n", FFT3D_MAXN);
        return 2;
    }
    int iters = (int)o.iters;
    struct cplx *sums = malloc((size_t)iters * sizeof *sums);
    if (!sums)
        return 2;

    double t0 = app_now();
    if (fft3d_run_seq(&f, o.seed, iters, sums) != 0)
        return 2;
    app_report_time("fft3d", "seq", 1, &o, app_now() - t0);
    for (int t = 0; t < iters; t++)
        printf("fft3d: step %d checksum %.12e %.12e\n", t + 1, sums[t].re, sums[t].im);

    if (!o.verify) {
        printf("UNVERIFIED fft3d\n");
        free(sums);
        fft3d_teardown(&f);
        return 0;
    }
    int ok = roundtrip_ok(&f, o.seed);
    for (int t = 0; t < iters; t++)
        ok = ok && isfinite(sums[t].re) && isfinite(sums[t].im);
    free(sums);
    fft3d_teardown(&f);
    return app_verdict(ok, "fft3d", "Parseval and inverse(forward(u0)) = u0 within 1e-10");
}
