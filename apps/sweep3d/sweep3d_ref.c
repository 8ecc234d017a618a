/* sweep3d_ref.c - see sweep3d_ref.h. */
#include "sweep3d_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sw_setup(struct sweep *s, int n)
{
    /* S6 level-symmetric directions (mu1 mu1 mu3) and (mu1 mu2 mu2) with
     * their permutations, weights normalized to 1 over the sphere. */
    static const double m1 = 0.2666355, m2 = 0.6815076, m3 = 0.9261808;
    static const double w1 = 0.1761263, w2 = 0.1572071;
    const double dir[SW_MM][4] = {
        { m1, m1, m3, w1 }, { m1, m3, m1, w1 }, { m3, m1, m1, w1 },
        { m1, m2, m2, w2 }, { m2, m1, m2, w2 }, { m2, m2, m1, w2 },
    };
    double tot = 0;
    s->n = n;
    s->nkb = (n + SW_MK - 1) / SW_MK;
    for (int m = 0; m < SW_MM; m++)
        tot += 8 * dir[m][3];
    for (int m = 0; m < SW_MM; m++) {
        s->mu[m] = dir[m][0];
        s->eta[m] = dir[m][1];
        s->xi[m] = dir[m][2];
        s->w[m] = dir[m][3] / tot;
    }
}

void sw_new_source(const struct sweep *s, double *phi, double *src, int j0, int j1)
{
    for (int k = 0; k < s->n; k++)
        for (int j = j0; j < j1; j++)
            for (int i = 0; i < s->n; i++) {
                long c = sw_idx(s, k, j, i);
                src[c] = SW_Q + SW_SIGS * phi[c];
                phi[c] = 0.0;
            }
}

void sw_block(const struct sweep *s, int oct, int kb, int j0, int j1,
              const double *jin, double *jout, double *kface,
              double *phi, const double *src, int last_in_j, double *leak)
{
    int n = s->n;
    int si = oct & 1 ? -1 : 1, sj = oct & 2 ? -1 : 1, sk = oct & 4 ? -1 : 1;
    int kbs = sk > 0 ? kb : s->nkb - 1 - kb;            /* block in mesh order */
    int k0 = kbs * SW_MK, k1 = k0 + SW_MK < n ? k0 + SW_MK : n;
    double out = 0.0, area = SW_H * SW_H;

    for (int kk = 0; kk < k1 - k0; kk++) {
        int k = sk > 0 ? k0 + kk : k1 - 1 - kk;
        for (int m = 0; m < SW_MM; m++) {
            double ci = 2 * s->mu[m] / SW_H, cj = 2 * s->eta[m] / SW_H, ck = 2 * s->xi[m] / SW_H;
            double den = 1.0 / (SW_SIGT + ci + cj + ck), w = s->w[m];
            const double *fin = jin ? jin + ((long)m * SW_MK + kk) * n : NULL;
            double *fj = jout + ((long)m * SW_MK + kk) * n;  /* j flux, carried along j */
            for (int i = 0; i < n; i++)
                fj[i] = fin ? fin[i] : 0.0;
            for (int jj = 0; jj < j1 - j0; jj++) {
                int j = sj > 0 ? j0 + jj : j1 - 1 - jj;
                double *fk = kface + ((long)m * n + j) * n;
                double fi = 0.0;                          /* vacuum on the i side */
                for (int ii = 0; ii < n; ii++) {
                    int i = si > 0 ? ii : n - 1 - ii;
                    long c = sw_idx(s, k, j, i);
                    double psi = (src[c] + ci * fi + cj * fj[i] + ck * fk[i]) * den;
                    fi = 2 * psi - fi;
                    fj[i] = 2 * psi - fj[i];
                    fk[i] = 2 * psi - fk[i];
                    phi[c] += w * psi;
                }
                if (leak)
                    out += w * s->mu[m] * fi * area;       /* out of the i side */
                if (leak && k == (sk > 0 ? n - 1 : 0))
                    for (int i = 0; i < n; i++)
                        out += w * s->xi[m] * fk[i] * area;
            }
            if (leak && last_in_j)
                for (int i = 0; i < n; i++)
                    out += w * s->eta[m] * fj[i] * area;
        }
    }
    if (leak)
        *leak += out;
}

double sw_sum(const struct sweep *s, const double *phi, int j0, int j1)
{
    double sum = 0.0;
    for (int k = 0; k < s->n; k++)
        for (int j = j0; j < j1; j++)
            for (int i = 0; i < s->n; i++)
                sum += phi[sw_idx(s, k, j, i)];
    return sum;
}

double sw_run_seq(const struct sweep *s, int iters, double *source, double *loss)
{
    int n = s->n;
    long cells = (long)n * n * n;
    double *phi = calloc((size_t)cells, sizeof *phi);
    double *src = malloc((size_t)cells * sizeof *src);
    double *kface = malloc((size_t)SW_MM * n * n * sizeof *kface);
    double *jface = malloc((size_t)sw_face_size(s) * sizeof *jface);
    double leak = 0.0, vol = SW_H * SW_H * SW_H;
    if (!phi || !src || !kface || !jface) {
        fprintf(stderr, "sweep3d: out of memory\n");
        exit(2);
    }
    for (int it = 0; it < iters; it++) {
        sw_new_source(s, phi, src, 0, n);
        leak = 0.0;
        for (int oct = 0; oct < 8; oct++) {
            memset(kface, 0, (size_t)SW_MM * n * n * sizeof *kface);
            for (int kb = 0; kb < s->nkb; kb++)
                sw_block(s, oct, kb, 0, n, NULL, jface, kface, phi, src, 1, &leak);
        }
    }
    double sum = sw_sum(s, phi, 0, n);
    if (source) {
        double q = 0.0;
        for (long c = 0; c < cells; c++)
            q += src[c];
        *source = q * vol;
    }
    if (loss)
        *loss = SW_SIGT * sum * vol + leak;
    free(phi);
    free(src);
    free(kface);
    free(jface);
    return sum;
}
