/* nbody_seq.c - sequential N-body. A sequential run cannot be compared with
 * itself, so it checks what the physics promises: all-pairs forces are
 * antisymmetric, so total momentum (zero at the start) stays zero up to
 * rounding; and velocity Verlet at this step size keeps the total energy
 * within a small bound. A wrong force (sign, missing pair, a kick without
 * its drift) breaks one or both. */
#include "nbody_ref.h"

#include <math.h>
#include <stdio.h>

static const struct app_presets presets = { 256, 20, 4096, 20 };

/* Relative energy drift allowed: at dt = 0.002 in this cold, collapsing
 * ball the drift measured over 20 to 40 steps is below 1e-8 (small and
 * bench sizes); a force twice too big or of the wrong sign, or a kick of
 * the wrong length, moves it by 1e-4 or more. */
#define NBODY_EDRIFT 1e-5
/* Momentum error allowed, relative to sum of m|v|: rounding only. */
#define NBODY_PTOL 1e-12

int main(int argc, char **argv)
{
    struct app_opts o;
    struct nbody b;
    app_parse(&o, argc, argv, "nbody", &presets);
    long n = o.n;
    if (n < 2 || !nbody_alloc(&b, n))
        return 2;
    nbody_init(&b, o.seed);
    double e0 = o.verify ? nbody_energy(&b) : 0;

    double t0 = app_now();
    nbody_forces(&b, 0, n);
    for (long s = 0; s < o.iters; s++) {
        nbody_kick(&b, 0, n);
        nbody_drift(&b, 0, n);
        nbody_forces(&b, 0, n);
        nbody_kick(&b, 0, n);
    }
    app_report_time("nbody", "seq", 1, &o, app_now() - t0);
    printf("nbody: x0 %.17g %.17g %.17g\n", b.pos[0][0], b.pos[0][1], b.pos[0][2]);
    if (!o.verify) {
        printf("UNVERIFIED nbody\n");
        nbody_free(&b);
        return 0;
    }
    double e1 = nbody_energy(&b), p[3], scale;
    nbody_momentum(&b, p, &scale);
    double drift = fabs(e1 - e0) / fabs(e0);
    double perr = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) / scale;
    printf("nbody: energy %.15e -> %.15e (drift %.2e), momentum error %.2e\n", e0, e1, drift,
           perr);
    nbody_free(&b);
    char what[160];
    snprintf(what, sizeof what, "momentum conserved within %.0e, energy within %.0e",
             NBODY_PTOL, NBODY_EDRIFT);
    return app_verdict(drift <= NBODY_EDRIFT && perr <= NBODY_PTOL, "nbody", what);
}
