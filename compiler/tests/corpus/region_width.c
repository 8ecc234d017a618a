/* Regions whose team the runtime may narrow (OMP_DYNAMIC, sync/omp/omp_width.c).
 * lines() is NAS SP's lhsx in small: two short worksharing loops per line
 * of a grid, with a shared scratch vector between them, so a barrier every
 * few dozen flops; run on two processes it waits nearly all the time.
 * lines_via() is the same with its values made by a function it is given,
 * whose code ompdsmcc cannot know. smooth() computes for milliseconds
 * between its barriers. count() asks its thread number, so its team is the
 * one asked for. With REGION_WIDTH_ASK set, the program asks its team's
 * size first, which keeps whole every team that might see it (lines_via's)
 * unless OMP_DYNAMIC=true says it expects any; lines() and smooth() are
 * sealed: nothing they run can see the team. The answers do not depend on
 * the team: every sum is taken in one order by the master. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 40
#define M 200000

static double cv[N], rhon[N];
static double lhs[N][N][3];
static double big[M];

static void lines(int step)
{
#pragma omp parallel
  {
    for (int j = 1; j < N - 1; j++) {
#pragma omp for
      for (int i = 0; i < N; i++) {
        cv[i] = (double)(i + j + step) * 0.5;
        rhon[i] = cv[i] > 10.0 ? cv[i] : 10.0;
      }
#pragma omp for
      for (int i = 1; i < N - 1; i++) {
        lhs[j][i][0] = -cv[i - 1] - rhon[i - 1];
        lhs[j][i][1] = 1.0 + rhon[i];
        lhs[j][i][2] = cv[i + 1] - rhon[i + 1];
      }
    }
  }
}

static double rho(int i, int j)
{
  double c = (double)(i + j) * 0.5;
  return c > 10.0 ? c : 10.0;
}

static void lines_via(int step, double (*f)(int, int))
{
#pragma omp parallel
  {
    for (int j = 1; j < N - 1; j++) {
#pragma omp for
      for (int i = 0; i < N; i++) {
        cv[i] = (double)(i + j + step) * 0.5;
        rhon[i] = f(i, j + step);
      }
#pragma omp for
      for (int i = 1; i < N - 1; i++) {
        lhs[j][i][0] = -cv[i - 1] - rhon[i - 1];
        lhs[j][i][1] = 1.0 + rhon[i];
        lhs[j][i][2] = cv[i + 1] - rhon[i + 1];
      }
    }
  }
}

static void smooth(void)
{
#pragma omp parallel for
  for (int i = 0; i < M; i++) {
    double x = big[i];
    for (int k = 0; k < 60; k++)
      x = x * 0.999 + 0.001 * (double)(i % 97);
    big[i] = x;
  }
}

static int count(void)
{
  int seen = 0;
#pragma omp parallel reduction(+ : seen)
  seen += omp_get_thread_num() >= 0;
  return seen;
}

int main(void)
{
  if (getenv("REGION_WIDTH_ASK")) {
    int nt = 0;
#pragma omp parallel
#pragma omp master
    nt = omp_get_num_threads();
    if (nt < 1)
      return 1;
  }
  double total = 0;
  for (int step = 0; step < 40; step++) {
    lines(step);
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++)
        total += lhs[j][i][0] + 2 * lhs[j][i][1] + 3 * lhs[j][i][2];
  }
  for (int step = 0; step < 40; step++) {
    lines_via(step, rho);
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < N - 1; i++)
        total += lhs[j][i][0] - lhs[j][i][1] + lhs[j][i][2];
  }
  for (int r = 0; r < 12; r++)
    smooth();
  double s = 0;
  for (int i = 0; i < M; i++)
    s += big[i];
  int teams = 0;
  for (int r = 0; r < 6; r++)
    teams += count() > 0;
  printf("lines %.6e smooth %.6e teams %d\n", total, s, teams);
  return 0;
}
