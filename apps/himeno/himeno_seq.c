/* himeno_seq.c - sequential Himeno. Its two checks do not rerun the
 * reference's loop:
 *  - the same iterations by a sweep written the other way round (k outer,
 *    i inner, so it walks the grid a plane apart at each step), which must
 *    give the same p bit for bit and the same gosa within HIMENO_TOL;
 *  - gosa never grows. With these coefficients the sweep is damped Jacobi
 *    (omega = 0.8) for the 7-point Laplacian, whose iteration matrix on the
 *    scaled residual is symmetric with eigenvalues in (1 - 2 omega, 1), so
 *    the residual's norm, and gosa with it, shrinks every iteration. A
 *    wrong neighbour or sign in the stencil breaks one check or the other. */
#include "himeno_ref.h"

#include <stdio.h>
#include <stdlib.h>

static const struct app_presets presets = { 17, 20, 65, 200 };

/* One sweep and copy in k, j, i order; returns gosa. */
static double sweep_kji(struct himeno *h)
{
    long mj = h->mj, mk = h->mk, plane = mj * mk;
    long imax = h->mi - 1, jmax = mj - 1, kmax = mk - 1;
    double gosa = 0;
    for (long k = 1; k < kmax - 1; k++)
        for (long j = 1; j < jmax - 1; j++)
            for (long i = 1; i < imax - 1; i++) {
                long x = i * plane + j * mk + k;
                const float *p = h->p;
                float s0 = h->a[0][x] * p[x + plane] + h->a[1][x] * p[x + mk]
                         + h->a[2][x] * p[x + 1]
                         + h->b[0][x] * (p[x + plane + mk] - p[x + plane - mk]
                                         - p[x - plane + mk] + p[x - plane - mk])
                         + h->b[1][x] * (p[x + mk + 1] - p[x - mk + 1]
                                         - p[x + mk - 1] + p[x - mk - 1])
                         + h->b[2][x] * (p[x + plane + 1] - p[x - plane + 1]
                                         - p[x + plane - 1] + p[x - plane - 1])
                         + h->c[0][x] * p[x - plane] + h->c[1][x] * p[x - mk]
                         + h->c[2][x] * p[x - 1] + h->wrk1[x];
                float ss = (s0 * h->a[3][x] - p[x]) * h->bnd[x];
                gosa += ss * ss;
                h->wrk2[x] = p[x] + HIMENO_OMEGA * ss;
            }
    for (long k = 1; k < kmax - 1; k++)
        for (long j = 1; j < jmax - 1; j++)
            for (long i = 1; i < imax - 1; i++)
                h->p[i * plane + j * mk + k] = h->wrk2[i * plane + j * mk + k];
    return gosa;
}

int main(int argc, char **argv)
{
    struct app_opts o;
    struct himeno h;
    app_parse(&o, argc, argv, "himeno", &presets);
    double *hist = malloc((size_t)o.iters * sizeof *hist);
    if (!hist || !himeno_shape(&h, o.n) || !himeno_alloc(&h, 0, h.mi))
        return 2;
    himeno_init(&h, 0, h.mi);

    double t0 = app_now();
    for (long it = 0; it < o.iters; it++) {
        hist[it] = himeno_jacobi(&h, himeno_first(&h), himeno_end(&h));
        himeno_copy(&h, himeno_first(&h), himeno_end(&h));
    }
    double elapsed = app_now() - t0;
    double gosa = hist[o.iters - 1];
    app_report_time("himeno", "seq", 1, &o, elapsed);
    printf("himeno: %ldx%ldx%ld gosa %.17g MFLOPS %.1f\n", h.mi, h.mj, h.mk, gosa,
           himeno_flops(&h) * (double)o.iters / elapsed * 1e-6);
    if (!o.verify) {
        printf("UNVERIFIED himeno\n");
        himeno_free(&h);
        free(hist);
        return 0;
    }
    long grew = 0;
    for (long it = 1; it < o.iters; it++)
        if (hist[it] > hist[it - 1])
            grew++;
    struct himeno k;
    double gk = 0;
    if (!himeno_shape(&k, o.n) || !himeno_alloc(&k, 0, k.mi))
        return 2;
    himeno_init(&k, 0, k.mi);
    for (long it = 0; it < o.iters; it++)
        gk = sweep_kji(&k);
    long bad = himeno_p_differ(&h, &k, 0, h.mi);
    printf("himeno: k-outer sweep gosa %.17g, %ld values of p differ; gosa grew %ld times\n",
           gk, bad, grew);
    himeno_free(&h);
    himeno_free(&k);
    free(hist);
    return app_verdict(bad == 0 && app_close(gosa, gk, HIMENO_TOL) && grew == 0, "himeno",
                       "p equals a k-outer sweep's, gosa within 1e-10 and never growing");
}
