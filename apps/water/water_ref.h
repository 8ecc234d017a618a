/* water_ref.h - Water-nsquared-style molecular dynamics, shared pieces.
 *
 * A 1-D array of molecule records, three atoms each (O, H, H). Reduced
 * units. Intra-molecular forces: harmonic O-H bonds and a harmonic H-H
 * spring that holds the angle. Inter-molecular forces: Lennard-Jones
 * between oxygens plus Coulomb between all nine site pairs, for molecule
 * pairs whose O-O minimum-image distance is below the cutoff (as in
 * SPLASH-2 Water, the image shift of the oxygens is applied to the whole
 * molecule). Each molecule interacts with the next n/2 molecules
 * (cyclically), so every pair is computed once. Velocity-Verlet
 * integration in a periodic cubic box.
 *
 * Parallel versions sum the pair forces in another order, so results are
 * compared with a relative tolerance WATER_TOL on the energies. */
#ifndef WATER_REF_H
#define WATER_REF_H

#include "apps.h"

#define WATER_TOL 1e-8

struct molecule {
    double pos[3][3];       /* [atom][xyz], atom 0 = O */
    double vel[3][3];
    double force[3][3];
};

struct water {
    int n;
    double box, cutoff, dt;
};

struct water_energy { double kin, intra, inter; };

/* Lattice start with small random displacements and velocities. */
void water_init(struct water *w, struct molecule *mol, int n, uint64_t seed);
/* Sets mol[i].force to the intra-molecular force for i in [i0,i1);
 * returns their potential energy. */
double water_intra(const struct water *w, struct molecule *mol, int i0, int i1);
/* Adds the inter-molecular forces of the pairs (i, partner) for i in
 * [i0,i1) to acc[molecule][atom][xyz] (both sides of each pair); returns
 * their potential energy. full = 1: every j != i is a partner and only i's
 * side is added (each pair is then seen twice; energy is halved), an
 * independent way to get the same forces. */
double water_inter(const struct water *w, const struct molecule *mol, int i0, int i1,
                   double (*acc)[3][3], int full);
void water_kick(const struct water *w, struct molecule *mol, int i0, int i1);   /* v += dt/2 F/m */
void water_drift(const struct water *w, struct molecule *mol, int i0, int i1);  /* x += dt v */
double water_kinetic(const struct molecule *mol, int i0, int i1);
/* The sequential simulation. */
void water_run_seq(int n, int steps, uint64_t seed, int full, struct water_energy *e);
int  water_same(const struct water_energy *a, const struct water_energy *b);

#endif
