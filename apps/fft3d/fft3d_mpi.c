/* fft3d_mpi.c - 3-D FFT (NAS FT style) with MPI.
 *
 * Slab decomposition: rank r owns zyx planes z in [r*n/p, (r+1)*n/p) and,
 * after the transpose, yxz rows y in the same range. The global transpose is
 * an MPI_Alltoall of (n/p)x(n/p)xn blocks. n must be divisible by the number
 * of ranks. Rank 0 checks the checksums against the sequential run within
 * FFT3D_TOL (1e-9 relative). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "fft3d_ref.h"

static const struct app_presets presets = { 64, 6, 128, 40 };

static int n, np, rank, slab;       /* slab = n/np */
static long plane, block;           /* block: complex numbers per rank pair */
static struct cplx *sendbuf, *recvbuf;

/* u (my zyx planes) -> v (my yxz rows) */
static void transpose_to_yxz(const struct cplx *u, struct cplx *v)
{
    for (int d = 0; d < np; d++) {
        struct cplx *b = sendbuf + d * block;
        for (int zl = 0; zl < slab; zl++)
            for (int y = d * slab; y < (d + 1) * slab; y++)
                for (int x = 0; x < n; x++)
                    *b++ = u[((long)zl * n + y) * n + x];
    }
    MPI_Alltoall(sendbuf, (int)(2 * block), MPI_DOUBLE, recvbuf, (int)(2 * block), MPI_DOUBLE,
                 MPI_COMM_WORLD);
    for (int s = 0; s < np; s++) {
        const struct cplx *b = recvbuf + s * block;
        for (int z = s * slab; z < (s + 1) * slab; z++)
            for (int yl = 0; yl < slab; yl++)
                for (int x = 0; x < n; x++)
                    v[((long)yl * n + x) * n + z] = *b++;
    }
}

/* w (my yxz rows) -> u (my zyx planes) */
static void transpose_to_zyx(const struct cplx *w, struct cplx *u)
{
    for (int d = 0; d < np; d++) {
        struct cplx *b = sendbuf + d * block;
        for (int yl = 0; yl < slab; yl++)
            for (int x = 0; x < n; x++)
                for (int z = d * slab; z < (d + 1) * slab; z++)
                    *b++ = w[((long)yl * n + x) * n + z];
    }
    MPI_Alltoall(sendbuf, (int)(2 * block), MPI_DOUBLE, recvbuf, (int)(2 * block), MPI_DOUBLE,
                 MPI_COMM_WORLD);
    for (int s = 0; s < np; s++) {
        const struct cplx *b = recvbuf + s * block;
        for (int y = s * slab; y < (s + 1) * slab; y++)
            for (int x = 0; x < n; x++)
                for (int zl = 0; zl < slab; zl++)
                    u[((long)zl * n + y) * n + x] = *b++;
    }
}

int main(int argc, char **argv)
{
    struct app_opts o;
    struct fft3d f;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    app_parse(&o, argc, argv, "fft3d", &presets);
    if (fft3d_setup(&f, (int)o.n) != 0 || o.n % np != 0) {
        if (rank == 0)
            fprintf(stderr, "fft3d: n must be a power of two in [4, %d] divisible by %d\n",
                    FFT3D_MAXN, np);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    n = f.n;
    plane = f.plane;
    slab = n / np;
    block = (long)slab * slab * n;
    int iters = (int)o.iters, z0 = rank * slab;
    size_t bytes = (size_t)slab * (size_t)plane * sizeof(struct cplx);
    struct cplx *u = malloc(bytes), *v0 = malloc(bytes), *w = malloc(bytes);
    struct cplx *sums = malloc((size_t)iters * sizeof *sums);
    sendbuf = malloc(bytes);
    recvbuf = malloc(bytes);
    if (!u || !v0 || !w || !sums || !sendbuf || !recvbuf)
        MPI_Abort(MPI_COMM_WORLD, 2);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now();
    fft3d_fill(&f, u, z0, z0 + slab, o.seed);
    fft3d_xy(&f, u, slab, -1);
    transpose_to_yxz(u, v0);
    fft3d_z(&f, v0, slab, -1);
    for (int t = 1; t <= iters; t++) {
        struct cplx part;
        fft3d_evolve(&f, v0, w, z0, z0 + slab, t);   /* my y rows start at z0 too */
        fft3d_z(&f, w, slab, +1);
        transpose_to_zyx(w, u);
        fft3d_xy(&f, u, slab, +1);
        fft3d_checksum(&f, u, z0, z0 + slab, &part);
        MPI_Reduce(&part, &sums[t - 1], 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    double elapsed = app_now() - t0;
    int rc = 0;
    if (rank == 0) {
        app_report_time("fft3d", "mpi", np, &o, elapsed);
        for (int t = 0; t < iters; t++)
            printf("fft3d: step %d checksum %.12e %.12e\n", t + 1, sums[t].re, sums[t].im);
        if (!o.verify) {
            printf("UNVERIFIED fft3d\n");
        } else {
            struct cplx *ref = malloc((size_t)iters * sizeof *ref);
            if (!ref || fft3d_run_seq(&f, o.seed, iters, ref) != 0)
                MPI_Abort(MPI_COMM_WORLD, 2);
            rc = app_verdict(fft3d_same(sums, ref, iters), "fft3d",
                             "checksums match the sequential run within 1e-9");
        }
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
