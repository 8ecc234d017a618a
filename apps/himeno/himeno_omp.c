/* himeno_omp.c - the Himeno benchmark in OpenMP, written as a user
 * parallelises the sequential solver: each iteration is a `parallel for`
 * over the outer (i) index with reduction(+:gosa), then a second
 * `parallel for` copies wrk2 to p. The sweep is written out here, not
 * called from himeno_ref.c, with the same expression for each point, so p
 * must equal the sequential run's bit for bit and gosa (summed per thread,
 * then across threads) agree within HIMENO_TOL. */
#include "himeno_ref.h"

#include <omp.h>
#include <stdio.h>

static const struct app_presets presets = { 17, 20, 65, 200 };

int main(int argc, char **argv)
{
    struct app_opts o;
    struct himeno h;
    app_parse(&o, argc, argv, "himeno", &presets);
    if (!himeno_shape(&h, o.n) || !himeno_alloc(&h, 0, h.mi))
        return 2;
    long mj = h.mj, mk = h.mk, plane = mj * mk;
    long imax = h.mi - 1, jmax = mj - 1, kmax = mk - 1;
    /* The solver's loop, schedule and all, initialises the planes it will
     * update: the first-touch idiom of NUMA machines, which on the DSM
     * makes each page's home the process that works on it. */
#pragma omp parallel for schedule(static)
    for (long i = 1; i < imax - 1; i++)
        himeno_init(&h, i, i + 1);
    himeno_init(&h, 0, 1);
    himeno_init(&h, imax - 1, h.mi);
    float *p = h.p, *a0 = h.a[0], *a1 = h.a[1], *a2 = h.a[2], *a3 = h.a[3];
    float *b0 = h.b[0], *b1 = h.b[1], *b2 = h.b[2];
    float *c0 = h.c[0], *c1 = h.c[1], *c2 = h.c[2];
    float *bnd = h.bnd, *wrk1 = h.wrk1, *wrk2 = h.wrk2;
    int nthreads = omp_get_max_threads();
    double gosa = 0;

    double t0 = app_now();
    for (long it = 0; it < o.iters; it++) {
        gosa = 0;
#pragma omp parallel for schedule(static) reduction(+:gosa)
        for (long i = 1; i < imax - 1; i++)
            for (long j = 1; j < jmax - 1; j++)
                for (long k = 1; k < kmax - 1; k++) {
                    long x = (i * mj + j) * mk + k;
                    float s0 = a0[x] * p[x + plane] + a1[x] * p[x + mk] + a2[x] * p[x + 1]
                             + b0[x] * (p[x + plane + mk] - p[x + plane - mk]
                                        - p[x - plane + mk] + p[x - plane - mk])
                             + b1[x] * (p[x + mk + 1] - p[x - mk + 1]
                                        - p[x + mk - 1] + p[x - mk - 1])
                             + b2[x] * (p[x + plane + 1] - p[x - plane + 1]
                                        - p[x + plane - 1] + p[x - plane - 1])
                             + c0[x] * p[x - plane] + c1[x] * p[x - mk] + c2[x] * p[x - 1]
                             + wrk1[x];
                    float ss = (s0 * a3[x] - p[x]) * bnd[x];
                    gosa += ss * ss;
                    wrk2[x] = p[x] + HIMENO_OMEGA * ss;
                }
#pragma omp parallel for schedule(static)
        for (long i = 1; i < imax - 1; i++)
            for (long j = 1; j < jmax - 1; j++)
                for (long k = 1; k < kmax - 1; k++)
                    p[(i * mj + j) * mk + k] = wrk2[(i * mj + j) * mk + k];
    }
    double elapsed = app_now() - t0;
    app_report_time("himeno", "omp", nthreads, &o, elapsed);
    printf("himeno: %ldx%ldx%ld gosa %.17g MFLOPS %.1f\n", h.mi, h.mj, h.mk, gosa,
           himeno_flops(&h) * (double)o.iters / elapsed * 1e-6);
    int rc = himeno_verify(&h, gosa, &o);
    himeno_free(&h);
    return rc;
}
