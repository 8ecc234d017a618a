/* tsp_mpi.c - TSP branch and bound with MPI, master and workers.
 *
 * Rank 0 keeps the priority queue and the shortest tour. A worker sends a
 * request carrying the shortest tour it knows; the master answers with the
 * next TSP_BATCH partial tours from tsp_get_tour (plus the current shortest
 * length), or with an empty batch once the queue is empty. Batches keep the
 * number of round trips small; one tour per request made the master a
 * bottleneck. With one rank, rank 0 runs the sequential branch and bound
 * itself. */
#include <limits.h>
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "tsp_ref.h"

static const struct app_presets presets = { 18, 1, 21, 1 };

#define TSP_BATCH 8

enum { TAG_REQ = 1, TAG_WORK };

struct work { int best, count; struct tsp_tour tours[TSP_BATCH]; };

int main(int argc, char **argv)
{
    struct app_opts o;
    struct tsp_problem prob;
    int rank, np, best = INT_MAX;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    app_parse(&o, argc, argv, "tsp", &presets);
    tsp_make(&prob, (int)o.n, o.seed);  /* deterministic: no need to send it */

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now();
    if (np == 1) {
        best = tsp_branch_and_bound(&prob);
    } else if (rank == 0) {
        struct tsp_queue q;
        struct work w;
        MPI_Status st;
        int active = np - 1, theirs;
        if (tsp_queue_init(&q, TSP_POOL) != 0)
            MPI_Abort(MPI_COMM_WORLD, 2);
        tsp_start(&prob, &w.tours[0]);
        tsp_queue_push(&q, &w.tours[0]);
        while (active > 0) {
            MPI_Recv(&theirs, 1, MPI_INT, MPI_ANY_SOURCE, TAG_REQ, MPI_COMM_WORLD, &st);
            if (theirs < best)
                best = theirs;
            w.count = 0;
            while (w.count < TSP_BATCH && tsp_get_tour(&prob, &q, best, &w.tours[w.count]))
                w.count++;
            w.best = best;
            if (w.count == 0)
                active--;               /* the empty batch tells the worker to stop */
            MPI_Send(&w, (int)(offsetof(struct work, tours) + w.count * sizeof w.tours[0]),
                     MPI_BYTE, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
        }
    } else {
        struct work w;
        for (;;) {
            MPI_Send(&best, 1, MPI_INT, 0, TAG_REQ, MPI_COMM_WORLD);
            MPI_Recv(&w, (int)sizeof w, MPI_BYTE, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (w.best < best)
                best = w.best;
            if (w.count == 0)
                break;
            for (int i = 0; i < w.count; i++)
                tsp_search(&prob, &w.tours[i], &best);
        }
    }
    MPI_Bcast(&best, 1, MPI_INT, 0, MPI_COMM_WORLD);
    double t = app_now() - t0;
    int rc = 0;
    if (rank == 0) {
        app_report_time("tsp", "mpi", np, &o, t);
        printf("tsp: shortest tour %d\n", best);
        if (!o.verify) {
            printf("UNVERIFIED tsp\n");
        } else {
            int ref = tsp_held_karp(&prob);
            char what[96];
            snprintf(what, sizeof what, "tour length %d, Held-Karp %d", best, ref);
            rc = app_verdict(best == ref, "tsp", what);
        }
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
