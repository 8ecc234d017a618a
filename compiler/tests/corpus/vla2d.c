/* Variable-length arrays with every bound variable (issue 14, class 5):
   shared by a region, private to it, and as a parameter. The bounds are
   read when the array is declared, so changing n afterwards changes
   nothing. */
#include <stdio.h>

static double trace(int n, int m, double a[n][m])
{
  double t = 0;
#pragma omp parallel for reduction(+:t)
  for (int i = 0; i < n; i++)
    t += a[i][i % m];
  return t;
}

int main(int argc, char **argv)
{
  int n = 12 + argc, m = 7 + argc;
  double b[n][m];
  int rows = n, cols = m;
  n = 1000; m = 1000;      /* the array keeps its size */
#pragma omp parallel for
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      b[i][j] = i * 100 + j;
  double s = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) s += b[i][j] * (j + 1);
  printf("%.0f %zu\n", s, sizeof b / sizeof b[0][0]);
  int k = cols;
  int scratch[k];
  long tot = 0;
#pragma omp parallel private(scratch) reduction(+:tot)
  {
    for (int j = 0; j < k; j++) scratch[j] = j;
    for (int j = 0; j < k; j++) tot += scratch[j];
    tot = tot > 0;
  }
  printf("%d %.0f\n", tot > 0, trace(rows, cols, b));
  return 0;
}
