/* stencil_ref.h - a 2-D Jacobi stencil, shared pieces.
 *
 * An n x n grid of doubles with fixed boundary rows and columns; each sweep
 * sets every interior point of the new grid to the mean of its four
 * neighbours in the old grid, then the grids swap. Every version computes
 * each point with the same expression in the same order, so all versions
 * produce bit-identical grids whatever their distribution: the check is
 * exact.
 *
 * This is the kernel of issue 13: rows are block-distributed, so each
 * process rewrites its own rows every sweep and reads one boundary row of
 * each neighbour. A DSM that charges every written page a fault and a twin
 * per sweep (rather than only the boundary pages that someone else reads)
 * loses to the sequential program. */
#ifndef STENCIL_REF_H
#define STENCIL_REF_H

#include "apps.h"

/* Initial grid: boundary from a fixed function, interior from the RNG. */
void stencil_init(double *g, long n, uint64_t seed);
/* One sweep of rows [r0, r1) (interior rows only are touched): dst from src. */
void stencil_rows(double *dst, const double *src, long n, long r0, long r1);
/* Sum of all points, in row-major order. */
double stencil_sum(const double *g, long n);
/* The sequential reference: iters sweeps from the initial grid; returns the
 * final grid's sum (and the grid in *out when out is not NULL). */
double stencil_run_seq(long n, long iters, uint64_t seed, double **out);

#endif
