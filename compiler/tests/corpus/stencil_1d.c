/* time-stepped 1-D stencil on two heap buffers swapped by the master */
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
  int n = 2000;
  double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
  a[n / 2] = 1000.0;
  for (int t = 0; t < 30; t++) {
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++) b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
    double *tmp = a; a = b; b = tmp;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  printf("%.6f %.6f\n", s, a[n / 2]);
  free(a); free(b);
  return 0;
}
