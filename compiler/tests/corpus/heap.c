/* malloc/calloc/realloc/strdup/free in a parallel program */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
  int n = 500;
  double *x = malloc(n * sizeof *x);
  int *y = calloc(n, sizeof *y);
#pragma omp parallel for
  for (int i = 0; i < n; i++) { x[i] = i / 2.0; y[i] = i % 7; }
  x = realloc(x, 2 * n * sizeof *x);
#pragma omp parallel for
  for (int i = n; i < 2 * n; i++) x[i] = 1.0;
  char *s = strdup("heap ok");
  double t = 0;
  for (int i = 0; i < 2 * n; i++) t += x[i];
  long u = 0;
  for (int i = 0; i < n; i++) u += y[i];
  printf("%s %.1f %ld\n", s, t, u);
  free(x); free(y); free(s);
  return 0;
}
