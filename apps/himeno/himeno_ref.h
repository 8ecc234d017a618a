/* himeno_ref.h - the Himeno benchmark's pressure solver, shared pieces.
 *
 * Himeno (RIKEN, 1996) measures the Jacobi iteration that a solver of the
 * incompressible Navier-Stokes equations spends its time in: the pressure
 * Poisson equation in general curvilinear coordinates, a 19-point stencil
 * with coefficient arrays a[4], b[3], c[3], a boundary mask bnd and a
 * source wrk1, over single-precision 3-D arrays. One iteration computes,
 * for every interior point,
 *
 *     s0 = a0 p[i+1] + a1 p[j+1] + a2 p[k+1]
 *        + b0 (p[i+1,j+1] - p[i+1,j-1] - p[i-1,j+1] + p[i-1,j-1])
 *        + b1 (p[j+1,k+1] - p[j-1,k+1] - p[j+1,k-1] + p[j-1,k-1])
 *        + b2 (p[i+1,k+1] - p[i-1,k+1] - p[i+1,k-1] + p[i-1,k-1])
 *        + c0 p[i-1] + c1 p[j-1] + c2 p[k-1] + wrk1
 *     ss = (s0 a3 - p) bnd;   gosa += ss^2;   wrk2 = p + omega ss
 *
 * and then copies wrk2 to p: 34 floating-point operations per point, the
 * count the benchmark's MFLOPS use. As published, the arrays are
 * mi x mj x mk (size S: 65 x 65 x 129, M: 129 x 129 x 257), the grid is one
 * smaller in each direction (imax = mi - 1, ...), and points 1..imax-2 are
 * updated; the coefficients are a = 1, 1, 1, 1/6, b = 0, c = 1, bnd = 1,
 * wrk1 = 0, and p starts at i^2 / (imax-1)^2.
 *
 * -n sets mi; mj = mi and mk = 2 mi - 1, the benchmark's shapes, so
 * -n 65 is size S and -n 129 size M.
 *
 * gosa is accumulated in double (the benchmark uses float): every version
 * sums it in another order, and in double the orders agree to 1e-13. The
 * arrays stay float. Each point's value is the same float expression in
 * every version whatever the distribution, so p must equal the sequential
 * run's bit for bit. */
#ifndef HIMENO_REF_H
#define HIMENO_REF_H

#include "apps.h"

#define HIMENO_OMEGA 0.8f
#define HIMENO_TOL 1e-10           /* gosa, relative */
#define HIMENO_FLOPS_PER_POINT 34.0

struct himeno {
    long mi, mj, mk;   /* array extents */
    long ilo, ihi;     /* planes held: all of them [0, mi), or an MPI rank's block */
    float *p, *a[4], *b[3], *c[3], *bnd, *wrk1, *wrk2;
};

/* Element (i, j, k) of one of h's arrays; i is a global plane number. */
#define HIMENO_AT(h, arr, i, j, k) \
    ((arr)[(((i) - (h)->ilo) * (h)->mj + (j)) * (h)->mk + (k)])

/* Sets h's extents for -n mi; returns 0 if mi is too small (under 5). */
int himeno_shape(struct himeno *h, long mi);
/* The 14 arrays of planes [ilo, ihi) (malloc: shared under ompdsmcc). */
int himeno_alloc(struct himeno *h, long ilo, long ihi);
void himeno_free(struct himeno *h);
/* Initial values of planes [i0, i1) of every array (wrk2 zeroed). */
void himeno_init(struct himeno *h, long i0, long i1);
/* One Jacobi sweep of the interior points of planes [i0, i1): wrk2 from p;
 * returns their sum of ss^2, in i, j, k order. */
double himeno_jacobi(struct himeno *h, long i0, long i1);
/* p = wrk2 on the interior points of planes [i0, i1). */
void himeno_copy(struct himeno *h, long i0, long i1);
/* The planes that iterations update: [1, imax - 1) = [1, mi - 2). */
static inline long himeno_first(const struct himeno *h) { (void)h; return 1; }
static inline long himeno_end(const struct himeno *h) { return h->mi - 2; }
/* Floating-point operations of one iteration, as the benchmark counts them. */
double himeno_flops(const struct himeno *h);
/* The sequential reference: iters iterations from the initial state;
 * returns the last iteration's gosa and leaves the grid in *h. */
double himeno_run_seq(struct himeno *h, long mi, long iters);
/* Number of floats in which planes [i0, i1) of p differ between a and b. */
long himeno_p_differ(const struct himeno *a, const struct himeno *b, long i0, long i1);
/* The end of the versions that hold all of p in one place (omp, dsm):
 * unless o->verify is off, compare p and gosa with the sequential run's
 * and print the verdict. Returns the exit status. */
int himeno_verify(const struct himeno *h, double gosa, const struct app_opts *o);

#endif
