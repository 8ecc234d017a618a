/* sweep3d_ref.h - Sweep3D-style discrete-ordinates transport, shared pieces.
 *
 * One energy group, n*n*n cubic cells of side SW_H, total cross-section
 * SW_SIGT, isotropic scattering SW_SIGS, a uniform external source, vacuum
 * boundaries. S6 level-symmetric quadrature: SW_MM angles per octant.
 * Diamond difference without negative-flux fixup, so every cell balances
 * exactly (the sequential version checks global particle balance).
 *
 * Source iteration with a fixed iteration count: src = q + sigs * phi, then
 * one transport sweep of all 8 octants gives the new phi. The mesh is
 * blocked along k (SW_MK planes per block); along j it is split between
 * threads or ranks, which form a pipeline: for each k block a worker waits
 * for the j-face of its upstream neighbour, sweeps its own j rows and hands
 * its outgoing j-face downstream. Arrays are indexed [k][j][i].
 *
 * Every cell sees the same arithmetic in the same order however the j rows
 * are split, so phi is bit-identical across versions; only the final sum of
 * phi over ranks may round differently (tolerance SW_TOL). */
#ifndef SWEEP3D_REF_H
#define SWEEP3D_REF_H

#include "apps.h"

#define SW_MM   6           /* angles per octant */
#define SW_MK   4           /* k planes per block */
#define SW_H    0.25        /* cell side */
#define SW_SIGT 1.0
#define SW_SIGS 0.6
#define SW_Q    1.0
#define SW_TOL  1e-10

struct sweep {
    int n, nkb;             /* cells per side, k blocks */
    double mu[SW_MM], eta[SW_MM], xi[SW_MM], w[SW_MM];
};

void sw_setup(struct sweep *s, int n);
static inline long sw_idx(const struct sweep *s, int k, int j, int i)
{
    return ((long)k * s->n + j) * s->n + i;
}
/* Doubles in one j-face block: [m][kk][i]. */
static inline long sw_face_size(const struct sweep *s) { return (long)SW_MM * SW_MK * s->n; }

/* src = q + sigs*phi and phi = 0 on rows j0..j1 of every plane. */
void sw_new_source(const struct sweep *s, double *phi, double *src, int j0, int j1);

/* Sweeps k block kb (in sweep order) of octant oct over rows j0..j1.
 * jin: incoming j-face from upstream, NULL at the vacuum boundary;
 * jout: outgoing j-face for downstream (always written);
 * kface: [m][j][i] over all n rows, carries the k-direction flux from one
 * block to the next (zeroed by the caller at the start of an octant);
 * leak: if not NULL, outflow through the mesh boundary is added to it
 * (the j side only when last_in_j: no worker lies downstream). */
void sw_block(const struct sweep *s, int oct, int kb, int j0, int j1,
              const double *jin, double *jout, double *kface,
              double *phi, const double *src, int last_in_j, double *leak);

/* Sum of phi over rows j0..j1 of every plane. */
double sw_sum(const struct sweep *s, const double *phi, int j0, int j1);

/* The whole sequential computation. Returns the final sum of phi and, if
 * the pointers are not NULL, the total source and the absorption + leakage
 * of the last sweep. */
double sw_run_seq(const struct sweep *s, int iters, double *source, double *loss);

#endif
