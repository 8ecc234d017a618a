/* Jacobi relaxation: repeated worksharing loops with implicit barriers */
#include <stdio.h>
#include <math.h>
#define N 64
double u[N][N], w[N][N];
int main(void)
{
  for (int i = 0; i < N; i++) u[i][0] = u[i][N - 1] = 1.0;
  double diff = 0;
#pragma omp parallel
  {
    for (int it = 0; it < 50; it++) {
#pragma omp for
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
          w[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
#pragma omp for
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
          u[i][j] = w[i][j];
    }
#pragma omp for reduction(+:diff)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) diff += u[i][j];
  }
  printf("%.6f\n", diff);
  return 0;
}
