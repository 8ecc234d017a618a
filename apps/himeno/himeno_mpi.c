/* himeno_mpi.c - the Himeno benchmark in MPI, decomposed in one dimension
 * as the benchmark's own MPI version can be: each rank holds a contiguous
 * block of the updated i planes plus one halo plane on each side, of every
 * array. Before each sweep a rank sends its first plane of p to the rank
 * above and its last to the rank below, and receives their boundary planes
 * into its halos; gosa is an MPI_Allreduce of the ranks' sums every
 * iteration. Rank 0 collects p's updated planes at the end and checks them
 * against the sequential run bit for bit, gosa within HIMENO_TOL. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "himeno_ref.h"

static const struct app_presets presets = { 17, 20, 65, 200 };

int main(int argc, char **argv)
{
    struct app_opts o;
    struct himeno h;
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    app_parse(&o, argc, argv, "himeno", &presets);
    if (!himeno_shape(&h, o.n) || himeno_end(&h) - himeno_first(&h) < np)
        MPI_Abort(MPI_COMM_WORLD, 2);
    long first = himeno_first(&h), span = himeno_end(&h) - first;
    long i0 = first + (long)me * span / np, i1 = first + (long)(me + 1) * span / np;
    if (!himeno_alloc(&h, i0 - 1, i1 + 1))
        MPI_Abort(MPI_COMM_WORLD, 2);
    himeno_init(&h, i0 - 1, i1 + 1);
    long plane = h.mj * h.mk;
    int up = me > 0 ? me - 1 : MPI_PROC_NULL, down = me < np - 1 ? me + 1 : MPI_PROC_NULL;
    float *p = h.p;   /* local plane l is global plane i0 - 1 + l */
    long nl = i1 - i0 + 2;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now(), gosa = 0;
    for (long it = 0; it < o.iters; it++) {
        MPI_Sendrecv(p + 1 * plane, (int)plane, MPI_FLOAT, up, 0, p + (nl - 1) * plane,
                     (int)plane, MPI_FLOAT, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(p + (nl - 2) * plane, (int)plane, MPI_FLOAT, down, 1, p, (int)plane,
                     MPI_FLOAT, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double mine = himeno_jacobi(&h, i0, i1);
        himeno_copy(&h, i0, i1);
        MPI_Allreduce(&mine, &gosa, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    double elapsed = app_now() - t0;

    int rc = 0;
    if (me == 0) {
        app_report_time("himeno", "mpi", np, &o, elapsed);
        printf("himeno: %ldx%ldx%ld gosa %.17g MFLOPS %.1f\n", h.mi, h.mj, h.mk, gosa,
               himeno_flops(&h) * (double)o.iters / elapsed * 1e-6);
    }
    /* Rank 0 compares every rank's planes with the reference's, its own
     * in place and the others' in a buffer of the largest block. */
    struct himeno ref;
    double gref = 0;
    long bad = 0;
    if (me == 0 && o.verify)
        gref = himeno_run_seq(&ref, o.n, o.iters);
    if (o.verify) {
        if (me == 0) {
            bad = himeno_p_differ(&h, &ref, i0, i1);
            struct himeno other = h;
            long most = span / np + 1;
            float *buf = malloc((size_t)(most * plane) * sizeof *buf);
            if (!buf)
                MPI_Abort(MPI_COMM_WORLD, 2);
            for (int q = 1; q < np; q++) {
                long q0 = first + (long)q * span / np, q1 = first + (long)(q + 1) * span / np;
                MPI_Recv(buf, (int)((q1 - q0) * plane), MPI_FLOAT, q, 2, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                other.p = buf;
                other.ilo = q0;
                bad += himeno_p_differ(&other, &ref, q0, q1);
            }
            free(buf);
            printf("himeno: sequential gosa %.17g, %ld values of p differ\n", gref, bad);
            rc = app_verdict(bad == 0 && app_close(gosa, gref, HIMENO_TOL), "himeno",
                             "p identical to the sequential run's, gosa within 1e-10");
            himeno_free(&ref);
        } else {
            MPI_Send(p + plane, (int)((i1 - i0) * plane), MPI_FLOAT, 0, 2, MPI_COMM_WORLD);
        }
    } else if (me == 0) {
        printf("UNVERIFIED himeno\n");
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    himeno_free(&h);
    MPI_Finalize();
    return rc;
}
