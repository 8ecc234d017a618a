/* sweep3d_seq.c - sequential Sweep3D. Check: particle balance of the last
 * sweep (source = absorption + leakage, relative 1e-10), which holds
 * exactly for diamond difference whatever the iterate. */
#include "sweep3d_ref.h"

#include <stdio.h>

static const struct app_presets presets = { 48, 8, 96, 16 };

int main(int argc, char **argv)
{
    struct app_opts o;
    struct sweep s;
    double source, loss;
    app_parse(&o, argc, argv, "sweep3d", &presets);
    sw_setup(&s, (int)o.n);

    double t0 = app_now();
    double sum = sw_run_seq(&s, (int)o.iters, &source, &loss);
    app_report_time("sweep3d", "seq", 1, &o, app_now() - t0);
    printf("sweep3d: flux sum %.15e, source %.15e, absorption+leakage %.15e\n", sum, source, loss);
    if (!o.verify) {
        printf("UNVERIFIED sweep3d\n");
        return 0;
    }
    return app_verdict(app_close(source, loss, 1e-10) && sum > 0, "sweep3d",
                       "particle balance within 1e-10");
}
