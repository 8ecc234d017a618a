/* a small matrix multiply on heap matrices */
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
  int n = 48;
  double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n), *c = malloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; i++) { a[i] = i % 7; b[i] = i % 5; }
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
  double t = 0;
  for (int i = 0; i < n * n; i++) t += c[i];
  printf("%.0f\n", t);
  return 0;
}
