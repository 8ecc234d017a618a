/* nw_mpi.c - Needleman-Wunsch in MPI: block rows dealt round-robin over
 * the ranks (row bi to rank bi mod P), each rank holding only the tiles of
 * its rows. A rank computes its rows one after another, left to right;
 * before block (bi,bj) it receives the last row of block (bi-1,bj) from the
 * rank above, and after it sends its own block's last row to the rank
 * below. No barrier: the ranks form a pipeline, one message per block. The
 * corner H(bi*bs, bj*bs) is the last cell of the row received for block
 * (bi,bj-1). Rank 0 gathers the tiles at the end for the check. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nw_ref.h"

static const struct app_presets presets = { 1024, 1, 16384, 1 };

int main(int argc, char **argv)
{
    struct app_opts o;
    struct nw w;
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    app_parse(&o, argc, argv, "nw", &presets);
    nw_init(&w, o.n, o.seed);
    long nb = w.nb, bs = w.bs, tile = bs * bs;
    long mine = nb > me ? (nb - me + np - 1) / np : 0;   /* my block rows: me, me+np, ... */
    /* Local row k is block row me + k*np, its tiles side by side as in the
     * full array; cleared before the clock starts, as in every version. */
    int *local = malloc((size_t)(mine > 0 ? mine : 1) * (size_t)(nb * tile) * sizeof *local);
    int *tops = malloc(2 * (size_t)bs * sizeof *tops);
    /* A send's buffer is the last row of a finished tile, which nothing
     * writes again, so sends are only waited for at the end. Waiting at the
     * end of each block row instead would hold a rank until the rank below
     * had received the row's last edge, i.e. finished its own row: the
     * ranks would take turns instead of overlapping. */
    MPI_Request *sent = malloc((size_t)(mine > 0 ? mine : 1) * (size_t)nb * sizeof *sent);
    if (!local || !tops || !sent)
        MPI_Abort(MPI_COMM_WORLD, 2);
    memset(local, 0, (size_t)mine * (size_t)(nb * tile) * sizeof *local);
    int up = (me + np - 1) % np, down = (me + 1) % np;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = app_now();
    long nsent = 0;
    for (long k = 0; k < mine; k++) {
        long bi = me + k * np;
        int *row = local + k * nb * tile;
        int corner = 0;
        for (long bj = 0; bj < nb; bj++) {
            int *t = row + bj * tile;
            const int *top = NULL;
            if (bi > 0 && np == 1) {
                top = t - nb * tile + (bs - 1) * bs;    /* the tile above is mine */
            } else if (bi > 0) {
                int *buf = tops + (bj % 2) * bs;
                MPI_Recv(buf, (int)bs, MPI_INT, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                top = buf;
            }
            if (bi == 0 || bj == 0)
                corner = nw_corner(&w, bi, bj);
            nw_kernel(&w, bi, bj, top, corner, bj > 0 ? t - tile + (bs - 1) : NULL, t);
            if (top)
                corner = top[bs - 1];
            if (bi + 1 < nb && np > 1)
                MPI_Isend(t + (bs - 1) * bs, (int)bs, MPI_INT, down, 0, MPI_COMM_WORLD,
                          &sent[nsent++]);
        }
    }
    MPI_Waitall((int)nsent, sent, MPI_STATUSES_IGNORE);
    double elapsed = app_now() - t0;

    /* Gather every rank's rows into rank 0's full tile array. */
    int rc = 0;
    if (me == 0) {
        int *h = malloc(nw_cells(&w) * sizeof *h);
        if (!h)
            MPI_Abort(MPI_COMM_WORLD, 2);
        for (long bi = 0; bi < nb; bi++) {
            int *dst = h + bi * nb * tile;
            if (bi % np == 0)
                memcpy(dst, local + (bi / np) * nb * tile, (size_t)(nb * tile) * sizeof *h);
            else
                MPI_Recv(dst, (int)(nb * tile), MPI_INT, (int)(bi % np), 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        }
        app_report_time("nw", "mpi", np, &o, elapsed);
        rc = nw_verify(&w, h, &o);
        free(h);
    } else {
        for (long k = 0; k < mine; k++)
            MPI_Send(local + k * nb * tile, (int)(nb * tile), MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    free(local);
    free(tops);
    free(sent);
    nw_free(&w);
    MPI_Finalize();
    return rc;
}
