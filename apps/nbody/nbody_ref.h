/* nbody_ref.h - all-pairs gravitational N-body, shared pieces.
 *
 * n bodies of random mass in a unit ball, G = 1, Plummer softening eps
 * (the force between two bodies at distance r goes as r / (r^2 + eps^2)^1.5,
 * which also makes a body's pull on itself zero without a test). Time
 * stepping is velocity Verlet, kick-drift-kick:
 *
 *     v += dt/2 a;  x += dt v;  a = F(x);  v += dt/2 a
 *
 * The force on body i sums over j = 0..n-1 in that order in every version,
 * and a process or thread computes the forces on whole bodies, so each
 * body's arithmetic does not depend on the distribution: parallel results
 * should equal the sequential ones bit for bit. They are compared within
 * NBODY_TOL all the same (relative to the largest coordinate), which a
 * differently compiled but correct force loop meets and a missed update of
 * any body's position in any step does not. */
#ifndef NBODY_REF_H
#define NBODY_REF_H

#include "apps.h"

#define NBODY_TOL 1e-10

#define NBODY_DT   0.002
#define NBODY_EPS2 (0.05 * 0.05)

struct nbody {
    long n;
    double (*pos)[3], (*vel)[3], (*acc)[3];
    double *mass;
};

/* Allocates the four arrays with malloc (under ompdsmcc: shared memory);
 * returns 0 when out of memory. */
int nbody_alloc(struct nbody *b, long n);
void nbody_free(struct nbody *b);
/* Random masses, positions in the unit ball, small random velocities with
 * the centre of mass at rest. */
void nbody_init(struct nbody *b, uint64_t seed);
/* acc of bodies [i0,i1) from the positions of all bodies. */
void nbody_forces(struct nbody *b, long i0, long i1);
void nbody_kick(struct nbody *b, long i0, long i1);    /* v += dt/2 a */
void nbody_drift(struct nbody *b, long i0, long i1);   /* x += dt v */
/* Total energy (kinetic + softened potential, each pair once) and
 * momentum; with *scale = sum of m|v|, the size momentum errors are
 * measured against. */
double nbody_energy(const struct nbody *b);
void nbody_momentum(const struct nbody *b, double p[3], double *scale);
/* The sequential simulation: init, forces, steps of kick-drift-kick. */
void nbody_run_seq(struct nbody *b, long n, long steps, uint64_t seed);
/* Largest |x - xref| over positions and velocities, each relative to the
 * largest |xref| of its kind; *same = 1 when all are identical. */
double nbody_diff(const struct nbody *b, const struct nbody *ref, int *same);
/* The end of every parallel version: print the first body's position,
 * then, unless o->verify is off, compare b with the sequential run and
 * print the verdict. Returns the exit status. */
int nbody_verify(const struct nbody *b, const struct app_opts *o);

#endif
