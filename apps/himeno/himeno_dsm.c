/* himeno_dsm.c - the Himeno benchmark against libdsm, SPMD in the
 * TreadMarks style. The master allocates the 14 arrays in shared memory;
 * the updated planes are split into one contiguous block of i planes per
 * process, and each process initialises its own block's planes of every
 * array (so it holds them, and with first-touch homes is their home) and
 * from then on writes only those. An iteration reads one p plane of each
 * neighbour's block. Two barriers per iteration: after the sweep (every
 * wrk2 is written and nobody reads p any more, so p may be overwritten),
 * and after the copy (p is complete for the next sweep). gosa: each
 * process leaves its block's sum in a slot of its own, a page apart, and
 * after the first barrier every process adds the slots in rank order, as
 * an allreduce would. Checked against the sequential run: p bit for bit,
 * gosa within HIMENO_TOL. */
#include <stdio.h>
#include <stdlib.h>

#include "dsm.h"
#include "himeno_ref.h"

static const struct app_presets presets = { 17, 20, 65, 200 };

#define SLOT_DOUBLES (4096 / sizeof(double))

static struct himeno h;     /* private copy of the pointers to shared arrays */
static double *slots;       /* shared: one page per process */

static float *shared_array(void)
{
    float *a = dsm_malloc((size_t)(h.mi * h.mj * h.mk) * sizeof(float));
    if (!a) {
        fprintf(stderr, "himeno: dsm_malloc failed\n");
        dsm_exit(2);
    }
    return a;
}

int main(int argc, char **argv)
{
    struct app_opts o;
    dsm_startup(argc, argv);
    unsigned me = dsm_proc_id(), np = dsm_nprocs();
    app_parse(&o, argc, argv, "himeno", &presets);
    if (!himeno_shape(&h, o.n))
        dsm_exit(2);
    if (me == 0) {
        h.ilo = 0;
        h.ihi = h.mi;
        h.p = shared_array();
        for (int l = 0; l < 4; l++)
            h.a[l] = shared_array();
        for (int l = 0; l < 3; l++) {
            h.b[l] = shared_array();
            h.c[l] = shared_array();
        }
        h.bnd = shared_array();
        h.wrk1 = shared_array();
        h.wrk2 = shared_array();
        slots = dsm_malloc((size_t)np * 4096);
        if (!slots)
            dsm_exit(2);
        dsm_distribute(&h, sizeof h);
        dsm_distribute(&slots, sizeof slots);
    }
    dsm_barrier(0);
    long first = himeno_first(&h), span = himeno_end(&h) - first;
    long i0 = first + (long)me * span / np, i1 = first + (long)(me + 1) * span / np;
    /* the planes no iteration updates go with the end blocks */
    himeno_init(&h, me == 0 ? 0 : i0, me == np - 1 ? h.mi : i1);
    dsm_barrier(1);

    double t0 = app_now(), gosa = 0;
    for (long it = 0; it < o.iters; it++) {
        slots[me * SLOT_DOUBLES] = himeno_jacobi(&h, i0, i1);
        dsm_barrier(2);
        himeno_copy(&h, i0, i1);
        gosa = 0;
        for (unsigned q = 0; q < np; q++)
            gosa += slots[q * SLOT_DOUBLES];
        dsm_barrier(3);
    }
    double elapsed = app_now() - t0;

    int rc = 0;
    if (me == 0) {
        app_report_time("himeno", "dsm", (int)np, &o, elapsed);
        printf("himeno: %ldx%ldx%ld gosa %.17g MFLOPS %.1f\n", h.mi, h.mj, h.mk, gosa,
               himeno_flops(&h) * (double)o.iters / elapsed * 1e-6);
        rc = himeno_verify(&h, gosa, &o);
        fflush(stdout);
    }
    dsm_barrier(4);
    dsm_exit(rc);
}
