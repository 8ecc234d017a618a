/* A wavefront pipelined through flush and busy-waiting on a flag array,
 * as NAS LU's blts/buts do: rows i are split statically among threads, and
 * row i of plane k waits for row i-1 of the same plane (another thread's
 * at the split) through flag[], with no barrier between planes. Row
 * boundaries fall inside pages, and a per-plane scratch array is rewritten
 * for every plane. The result does not depend on the thread count.
 * Eight steps, not three: with two threads per process a spinner that held
 * the gate while it waited let its neighbour hand over only when a wait
 * timed out, 66 s for three steps (the CI run of 2026-12-07, where NAS LU
 * timed out); eight make that exceed the test's 120 s, against 6 s now. */
#include <stdio.h>
#include <omp.h>

#define NI 33
#define NJ 33
#define NK 33

static double v[NI][NJ][NK][5];
static double s[NI][NJ][5][5];   /* per-plane scratch, like LU's a, b, c, d */
static int flag[NI];

static void plane(int k, int ist, int iend)
{
  int i, j, m;
#pragma omp for nowait schedule(static)
  for (i = ist; i <= iend; i++)
    for (j = 1; j < NJ - 1; j++)
      for (m = 0; m < 5; m++) {
        s[i][j][m][0] = 0.01 * (i + j + k + m);
        s[i][j][m][1] = 0.02 / (1 + i + j + k + m);
      }
#pragma omp for nowait schedule(static)
  for (i = ist; i <= iend; i++)
    for (j = 1; j < NJ - 1; j++)
      for (m = 0; m < 5; m++)
        v[i][j][k][m] -= s[i][j][m][0] * v[i][j][k - 1][m];
#pragma omp for nowait schedule(static)
  for (i = ist; i <= iend; i++) {
    if (i != ist)
      while (flag[i - 1] == 0) {
#pragma omp flush(flag)
      }
    if (i != iend)
      while (flag[i] == 1) {
#pragma omp flush(flag)
      }
    for (j = 1; j < NJ - 1; j++)
      for (m = 0; m < 5; m++)
        v[i][j][k][m] = (v[i][j][k][m] + s[i][j][m][1] * (v[i - 1][j][k][m] + v[i][j - 1][k][m]))
                        / 1.05;
    if (i != ist) flag[i - 1] = 0;
    if (i != iend) flag[i] = 1;
#pragma omp flush(flag)
  }
}

int main(void)
{
  int i, j, k, m, step;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      for (k = 0; k < NK; k++)
        for (m = 0; m < 5; m++)
          v[i][j][k][m] = 1.0 + 0.001 * ((i * 7 + j * 5 + k * 3 + m) % 17);
  for (step = 0; step < 8; step++) {
#pragma omp parallel private(k)
    {
      for (k = 1; k < NK - 1; k++)
        plane(k, 1, NI - 2);
#pragma omp barrier
    }
  }
  double sum = 0, wsum = 0;
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      for (k = 0; k < NK; k++)
        for (m = 0; m < 5; m++) {
          sum += v[i][j][k][m];
          wsum += v[i][j][k][m] * (1 + (i + 2 * j + 3 * k + m) % 11);
        }
  printf("%.12e %.12e\n", sum, wsum);
  return 0;
}
