/* nw_seq.c - sequential Needleman-Wunsch: the block wavefront on one
 * thread, checked by two methods that share no code with the block
 * kernel: the linear-space row-by-row recurrence must give the same last
 * row, last column and final score, and the traceback through the matrix
 * must recompute the final score from the alignment it traces. */
#include "nw_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct app_presets presets = { 1024, 1, 16384, 1 };

int main(int argc, char **argv)
{
    struct app_opts o;
    struct nw w;
    app_parse(&o, argc, argv, "nw", &presets);
    nw_init(&w, o.n, o.seed);
    int *h = malloc(nw_cells(&w) * sizeof *h), *e = malloc(nw_edge_cells(&w) * sizeof *e);
    if (!h || !e)
        return 2;
    /* Touched before the clock starts, in every version: the time is the
     * wavefront's, not the kernel's first-touch page faults (1 GiB at the
     * bench size). */
    memset(h, 0, nw_cells(&w) * sizeof *h);
    memset(e, 0, nw_edge_cells(&w) * sizeof *e);

    double t0 = app_now();
    for (long d = 0; d < 2 * w.nb - 1; d++)
        for (long bi = d < w.nb ? 0 : d - w.nb + 1; bi <= d && bi < w.nb; bi++)
            nw_block(&w, h, e, bi, d - bi);
    app_report_time("nw", "seq", 1, &o, app_now() - t0);

    int score = nw_at(&w, h, w.n, w.n);
    printf("nw: score %d (n %ld, blocks %ld x %ld of %ld)\n", score, w.n, w.nb, w.nb, w.bs);
    int rc = 0;
    if (!o.verify) {
        printf("UNVERIFIED nw\n");
    } else {
        long cols;
        long tb = nw_traceback_score(&w, h, &cols);
        int ok = nw_check_linear(&w, h) == 0 && cols > 0 && tb == score;
        if (cols > 0 && tb != score)
            printf("nw: the traceback's alignment scores %ld\n", tb);
        rc = app_verdict(ok, "nw", "last row, last column and score equal the linear-space "
                                   "recurrence; the traceback's alignment has the score");
    }
    free(h);
    free(e);
    nw_free(&w);
    return rc;
}
