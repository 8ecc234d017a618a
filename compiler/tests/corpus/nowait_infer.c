/* Worksharing loops inside sequential loops, as NAS SP's solvers have
 * them: where each thread touches only its own chunk, the same in every
 * instance, the loops' barriers are not needed (compiler/omp_nowait.c);
 * where a thread reads what another wrote, they are. Each function is one
 * case; "NOWAIT: yes" marks the loops whose barriers must go, "NOWAIT: no"
 * those that must keep them (checked by check_notes.sh from ompdsmcc -v),
 * and every result is compared with gcc's. */
#include <stdio.h>
#include <math.h>

#define N 40
#define M 24

static double a[3][N][M], b[N][M], scratch[M], total, rsum;
static double cv[M], rhon[M];
static int grid[2] = { N, M };

static double sum_all(void)
{
  double s = 0;
  for (int n = 0; n < 3; n++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
        s += a[n][i][j] * (1 + (i * 3 + j + n) % 7);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      s += b[i][j] * (1 + (i + 5 * j) % 3);
  return s;
}

/* SP's forward elimination: the i loop walks the grid, each thread its j. */
static void sweep(void)
{
  int i, i1, j, n;
  for (i = 0; i < grid[0] - 2; i++) {   /* NOWAIT: yes */
    i1 = i + 1;
    n = i % 3;
#pragma omp for
    for (j = 0; j < grid[1]; j++) {
      a[n][i1][j] = a[n][i1][j] - 0.5 * a[n][i][j];
      b[i1][j] = b[i][j] * 0.25 + sqrt(fabs(a[n][i1][j]));
    }
  }
}

/* Two worksharing loops with the same bounds, nested in two loops. */
static void nested(void)
{
  int m, i, j;
  for (m = 0; m < 2; m++) {             /* NOWAIT: yes */
    for (i = N - 2; i >= 1; i--) {
#pragma omp for
      for (j = 0; j < grid[1]; j++)
        a[m][i][j] += 0.5 * a[m][i + 1][j];
#pragma omp for
      for (j = 0; j < grid[1]; j++)
        b[i][j] -= 0.125 * a[m][i][j];
    }
  }
}

/* A thread reads its neighbours' scratch values (SP's lhsx): barriers stay. */
static void halo(void)
{
  int i, j;
  for (i = 0; i < N; i++) {             /* NOWAIT: no */
#pragma omp for
    for (j = 0; j < M; j++)
      scratch[j] = a[0][i][j] + 1.0;
#pragma omp for
    for (j = 0; j < M; j++)
      b[i][j] = scratch[j > 0 ? j - 1 : 0] + scratch[j < M - 1 ? j + 1 : M - 1];
  }
}

/* SP's lhsx: one loop fills scratch vectors, the next reads them at
 * neighbouring indices. Each thread computes the elements it needs itself,
 * so the barriers go, and the shared vectors still end as they would. */
static void halo_scratch(void)
{
  int i, j;
  double ru;
  for (i = 1; i < N - 1; i++) {         /* NOWAIT: yes */
#pragma omp for
    for (j = 0; j < grid[1]; j++) {
      ru = a[1][i][j] * 0.5;
      cv[j] = a[0][i][j];
      rhon[j] = ru > 0.55 ? ru : 0.55;
    }
#pragma omp for
    for (j = 1; j < grid[1] - 1; j++)
      b[i][j] = cv[j - 1] * 0.25 + rhon[j] + 0.125 * cv[j + 1] - rhon[j + 1] * 0.01;
  }
}

/* The same, but the filling loop also writes a shared row: computing it
 * again for a neighbour's indices would write the neighbour's elements. */
static void halo_writer_writes(void)
{
  int i, j;
  for (i = 1; i < N - 1; i++) {         /* NOWAIT: no */
#pragma omp for
    for (j = 0; j < M; j++) {
      cv[j] = b[i][j] + 1.0;
      a[2][i][j] = cv[j] * 0.5;
    }
#pragma omp for
    for (j = 1; j < M - 1; j++)
      b[i][j] = cv[j - 1] - cv[j + 1];
  }
}

/* The bounds change from one instance to the next: so do the chunks. */
static void moving_bounds(void)
{
  int i, j;
  for (i = 0; i < M - 1; i++) {         /* NOWAIT: no */
#pragma omp for
    for (j = i; j < M; j++)
      b[i + 1][j] = b[i][j] + a[1][i][j];
  }
}

/* Every thread writes one shared element: a race without the barrier. */
static void shared_scalar(void)
{
  int i, j;
  for (i = 0; i < 4; i++) {             /* NOWAIT: no */
#pragma omp for
    for (j = 0; j < M; j++)
      b[i][j] += 1.0;
#pragma omp single
    total += b[i][0];
  }
}

/* A reduction's result is complete only after the barrier. */
static void reduction(void)
{
  int i, j;
  for (i = 0; i < 4; i++) {             /* NOWAIT: no */
#pragma omp for reduction(+ : rsum)
    for (j = 0; j < M; j++)
      rsum += b[i][j];
  }
}

/* Through a pointer, the compiler cannot tell what is touched. */
static void through_pointer(double (*p)[M])
{
  int i, j;
  for (i = 1; i < N; i++) {             /* NOWAIT: no */
#pragma omp for
    for (j = 0; j < M; j++)
      p[i][j] = p[i - 1][j] * 0.5 + 1.0;
  }
}

int main(void)
{
  for (int n = 0; n < 3; n++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++)
        a[n][i][j] = 1.0 + 0.01 * ((i * 7 + j * 3 + n) % 13);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      b[i][j] = 0.5 + 0.02 * ((i + j) % 5);
#pragma omp parallel
  {
    for (int rep = 0; rep < 3; rep++) {
      sweep();
      nested();
      halo();
      halo_scratch();
      halo_writer_writes();
      moving_bounds();
      shared_scalar();
      reduction();
      through_pointer(a[2]);
    }
  }
  double v = 0;
  for (int j = 0; j < M; j++)
    v += cv[j] * (j + 1) + rhon[j];
  printf("%.10e %.10e %.10e %.10e\n", sum_all(), total, rsum, v);
  return 0;
}
