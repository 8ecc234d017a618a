/* water_seq.c - sequential Water. Its reference is the same simulation
 * with the forces computed over all n-1 partners of each molecule instead
 * of half of them (energies within WATER_TOL = 1e-8 relative). */
#include "water_ref.h"

#include <stdio.h>

static const struct app_presets presets = { 512, 30, 2744, 60 };

int main(int argc, char **argv)
{
    struct app_opts o;
    struct water_energy e, ref;
    app_parse(&o, argc, argv, "water", &presets);
    if (o.n < 2)
        return 2;

    double t0 = app_now();
    water_run_seq((int)o.n, (int)o.iters, o.seed, 0, &e);
    app_report_time("water", "seq", 1, &o, app_now() - t0);
    if (!o.verify) {
        printf("water: kinetic %.15e intra %.15e inter %.15e\nUNVERIFIED water\n",
               e.kin, e.intra, e.inter);
        return 0;
    }
    water_run_seq((int)o.n, (int)o.iters, o.seed, 1, &ref);
    return app_verdict(water_same(&e, &ref), "water",
                       "energies match the all-partner run within 1e-8");
}
