/* fft3d_ref.c - see fft3d_ref.h. */
#include "fft3d_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fft3d_setup(struct fft3d *f, int n)
{
    int logn = 0;
    while ((1 << logn) < n)
        logn++;
    if (n < 4 || n > FFT3D_MAXN || (1 << logn) != n)
        return -1;
    f->n = n;
    f->logn = logn;
    f->plane = (long)n * n;
    f->tw = malloc((size_t)(n / 2) * sizeof *f->tw);
    f->ex = malloc((size_t)n * sizeof *f->ex);
    if (!f->tw || !f->ex)
        return -1;
    for (int k = 0; k < n / 2; k++) {
        f->tw[k].re = cos(2.0 * M_PI * k / n);
        f->tw[k].im = -sin(2.0 * M_PI * k / n);
    }
    for (int k = 0; k < n; k++) {
        double kb = k < n / 2 ? k : k - n;
        f->ex[k] = exp(-4.0 * M_PI * M_PI * FFT3D_ALPHA * kb * kb);
    }
    return 0;
}

void fft3d_teardown(struct fft3d *f)
{
    free(f->tw);
    free(f->ex);
    f->tw = NULL;
    f->ex = NULL;
}

/* Element i of the whole array takes draws 2i and 2i+1 of the generator,
 * whatever slab it is computed in. */
void fft3d_fill(const struct fft3d *f, struct cplx *u, int z0, int z1, uint64_t seed)
{
    struct app_rng r;
    app_rng_seed(&r, seed);
    app_rng_skip(&r, 2 * (uint64_t)z0 * (uint64_t)f->plane);
    for (long i = 0; i < (long)(z1 - z0) * f->plane; i++) {
        u[i].re = app_rng_double(&r);
        u[i].im = app_rng_double(&r);
    }
}

/* Iterative radix-2 decimation in time: bit-reverse, then log n passes. */
void fft3d_line(const struct fft3d *f, struct cplx *a, int dir)
{
    int n = f->n;
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j |= bit;
        if (i < j) {
            struct cplx t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        int half = len / 2, step = n / len;
        for (int s = 0; s < n; s += len)
            for (int k = 0; k < half; k++) {
                struct cplx w = f->tw[k * step];
                if (dir > 0)
                    w.im = -w.im;
                struct cplx *p = &a[s + k], *q = &a[s + k + half];
                double tr = w.re * q->re - w.im * q->im;
                double ti = w.re * q->im + w.im * q->re;
                q->re = p->re - tr;
                q->im = p->im - ti;
                p->re += tr;
                p->im += ti;
            }
    }
}

void fft3d_xy(const struct fft3d *f, struct cplx *u, int nplanes, int dir)
{
    int n = f->n;
    struct cplx line[FFT3D_MAXN];
    for (int z = 0; z < nplanes; z++) {
        struct cplx *p = u + z * f->plane;
        for (int y = 0; y < n; y++)
            fft3d_line(f, p + (long)y * n, dir);
        for (int x = 0; x < n; x++) {
            for (int y = 0; y < n; y++)
                line[y] = p[(long)y * n + x];
            fft3d_line(f, line, dir);
            for (int y = 0; y < n; y++)
                p[(long)y * n + x] = line[y];
        }
    }
}

void fft3d_z(const struct fft3d *f, struct cplx *v, int nrows, int dir)
{
    for (long l = 0; l < (long)nrows * f->n; l++)
        fft3d_line(f, v + l * f->n, dir);
}

void fft3d_to_yxz(const struct fft3d *f, const struct cplx *u, struct cplx *v, int y0, int y1)
{
    int n = f->n;
    for (int y = y0; y < y1; y++)
        for (int x = 0; x < n; x++) {
            struct cplx *dst = v + ((long)(y - y0) * n + x) * n;
            for (int z = 0; z < n; z++)
                dst[z] = u[((long)z * n + y) * n + x];
        }
}

void fft3d_to_zyx(const struct fft3d *f, const struct cplx *v, struct cplx *u, int z0, int z1)
{
    int n = f->n;
    for (int z = z0; z < z1; z++)
        for (int y = 0; y < n; y++) {
            struct cplx *dst = u + ((long)(z - z0) * n + y) * n;
            for (int x = 0; x < n; x++)
                dst[x] = v[((long)y * n + x) * n + z];
        }
}

void fft3d_evolve(const struct fft3d *f, const struct cplx *v0, struct cplx *w,
                  int y0, int y1, int t)
{
    int n = f->n;
    double ext[FFT3D_MAXN];         /* ex[k]^t */
    for (int k = 0; k < n; k++)
        ext[k] = pow(f->ex[k], t);
    for (int y = y0; y < y1; y++)
        for (int x = 0; x < n; x++) {
            double fxy = ext[y] * ext[x];
            long row = ((long)(y - y0) * n + x) * n;
            for (int z = 0; z < n; z++) {
                double fac = fxy * ext[z];
                w[row + z].re = v0[row + z].re * fac;
                w[row + z].im = v0[row + z].im * fac;
            }
        }
}

void fft3d_checksum(const struct fft3d *f, const struct cplx *u, int z0, int z1,
                    struct cplx *sum)
{
    int n = f->n;
    double scale = 1.0 / ((double)f->plane * n);
    sum->re = sum->im = 0.0;
    for (int j = 1; j <= 1024; j++) {
        int x = j % n, y = (3 * j) % n, z = (5 * j) % n;
        if (z < z0 || z >= z1)
            continue;
        const struct cplx *e = &u[((long)(z - z0) * n + y) * n + x];
        sum->re += e->re * scale;
        sum->im += e->im * scale;
    }
}

int fft3d_run_seq(const struct fft3d *f, uint64_t seed, int iters, struct cplx *sums)
{
    int n = f->n;
    size_t bytes = (size_t)f->plane * (size_t)n * sizeof(struct cplx);
    struct cplx *u = malloc(bytes), *v0 = malloc(bytes), *w = malloc(bytes);
    if (!u || !v0 || !w)
        return -1;
    fft3d_fill(f, u, 0, n, seed);
    fft3d_xy(f, u, n, -1);
    fft3d_to_yxz(f, u, v0, 0, n);
    fft3d_z(f, v0, n, -1);
    for (int t = 1; t <= iters; t++) {
        fft3d_evolve(f, v0, w, 0, n, t);
        fft3d_z(f, w, n, +1);
        fft3d_to_zyx(f, w, u, 0, n);
        fft3d_xy(f, u, n, +1);
        fft3d_checksum(f, u, 0, n, &sums[t - 1]);
    }
    free(u);
    free(v0);
    free(w);
    return 0;
}

int fft3d_same(const struct cplx *a, const struct cplx *b, int iters)
{
    for (int t = 0; t < iters; t++) {
        double mag = hypot(b[t].re, b[t].im);
        if (!(fabs(a[t].re - b[t].re) <= FFT3D_TOL * mag) ||
            !(fabs(a[t].im - b[t].im) <= FFT3D_TOL * mag)) {
            printf("fft3d: step %d checksum (%.15e, %.15e), reference (%.15e, %.15e)\n",
                   t + 1, a[t].re, a[t].im, b[t].re, b[t].im);
            return 0;
        }
    }
    return 1;
}
