/*
 * Red-black SOR over many barrier epochs, rows split in blocks among the
 * processes; the result must equal the sequential computation bit for bit
 * (every process recomputes the sequential answer privately and compares).
 */
#include <string.h>
#include "check.h"

#define R 130
#define C 256
#define ITERS 40

static void init(double (*g)[C])
{
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      g[i][j] = (i == 0 || j == 0 || i == R - 1 || j == C - 1) ? (double)((i * 31 + j * 17) % 97) : 0.0;
}

static void sweep(double (*g)[C], int color, int lo, int hi)
{
  for (int i = lo; i < hi; i++) {
    if (i == 0 || i == R - 1) continue;
    for (int j = 1 + ((i + color) & 1); j < C - 1; j += 2)
      g[i][j] = 0.25 * (g[i - 1][j] + g[i + 1][j] + g[i][j - 1] + g[i][j + 1]) * 1.5 - 0.5 * g[i][j];
  }
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  static double (*g)[C];
  if (me == 0) {
    g = dsm_malloc(sizeof(double) * R * C);
    init(g);
    dsm_distribute(&g, sizeof g);
  }
  dsm_barrier(0);
  int lo = (int)(R * me / n), hi = (int)(R * (me + 1) / n);
  for (int it = 0; it < ITERS; it++) {
    sweep(g, 0, lo, hi);
    dsm_barrier(1);
    sweep(g, 1, lo, hi);
    dsm_barrier(2);
  }
  static double seq[R][C];
  init(seq);
  for (int it = 0; it < ITERS; it++) {
    sweep(seq, 0, 0, R);
    sweep(seq, 1, 0, R);
  }
  CHECK(memcmp(seq, g, sizeof seq) == 0);
  dsm_barrier(3);
  if (me == 0)
    printf("sor: %d red-black iterations on %u processes equal the sequential result bit for bit\n",
           ITERS, n);
  dsm_exit(0);
}
