/* fft3d_ref.h - NAS FT-style 3-D FFT pieces shared by every version.
 *
 * The grid is n*n*n complex numbers. In "zyx" layout u[(z*n + y)*n + x]
 * (x contiguous); in "yxz" layout v[(y*n + x)*n + z] (z contiguous). The
 * forward transform does the x and y FFTs plane by plane in zyx layout,
 * transposes to yxz (the global transpose) and does the z FFTs there. Each
 * time step t multiplies the forward transform by exp(-4 pi^2 alpha t |k|^2),
 * transforms back and takes a checksum of 1024 elements, as NAS FT does.
 *
 * Every function works on a slab: a pointer to the first plane (zyx, planes
 * z0..z1) or first y row (yxz, rows y0..y1) that it touches, so the MPI
 * version can hand it a local slab and the others an offset into the whole
 * array. */
#ifndef FFT3D_REF_H
#define FFT3D_REF_H

#include "apps.h"

#define FFT3D_MAXN 1024
#define FFT3D_ALPHA 1e-6
#define FFT3D_TOL 1e-9      /* relative to |checksum|, per component */

struct cplx { double re, im; };

struct fft3d {
    int n, logn;
    long plane;             /* n*n */
    struct cplx *tw;        /* tw[k] = exp(-2 pi i k / n), k < n/2 */
    double *ex;             /* ex[k] = exp(-4 pi^2 alpha kbar^2), kbar = k or k-n */
};

int  fft3d_setup(struct fft3d *f, int n);   /* n a power of two; 0 on success */
void fft3d_teardown(struct fft3d *f);       /* frees what fft3d_setup allocated */
void fft3d_fill(const struct fft3d *f, struct cplx *u, int z0, int z1, uint64_t seed);
/* dir = -1 forward, +1 inverse (unscaled). */
void fft3d_line(const struct fft3d *f, struct cplx *a, int dir);
void fft3d_xy(const struct fft3d *f, struct cplx *u, int nplanes, int dir);
void fft3d_z(const struct fft3d *f, struct cplx *v, int nrows, int dir);
/* v rows y0..y1 of yxz <- all of u (zyx); and u planes z0..z1 <- all of v. */
void fft3d_to_yxz(const struct fft3d *f, const struct cplx *u, struct cplx *v, int y0, int y1);
void fft3d_to_zyx(const struct fft3d *f, const struct cplx *v, struct cplx *u, int z0, int z1);
/* w = v0 * exp(-4 pi^2 alpha t |k|^2) on yxz rows y0..y1 (slab pointers). */
void fft3d_evolve(const struct fft3d *f, const struct cplx *v0, struct cplx *w,
                  int y0, int y1, int t);
/* Sum of the checksum elements that lie in zyx planes z0..z1, scaled 1/n^3. */
void fft3d_checksum(const struct fft3d *f, const struct cplx *u, int z0, int z1,
                    struct cplx *sum);
/* The whole sequential computation: sums[t-1] for t = 1..iters. */
int  fft3d_run_seq(const struct fft3d *f, uint64_t seed, int iters, struct cplx *sums);
/* Compares two checksum series within FFT3D_TOL; prints the first mismatch. */
int  fft3d_same(const struct cplx *a, const struct cplx *b, int iters);

#endif
