/* variable-length arrays of main shared with a region */
#include <stdio.h>
int main(int argc, char **argv)
{
  (void)argv;
  int n = 100 + argc - 1, k = 8;
  double v[n];
  int m[n][8];
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    v[i] = i * 0.5;
    for (int j = 0; j < k; j++) m[i][j] = i + j;
  }
  double s = 0;
  for (int i = 0; i < n; i++) { s += v[i]; for (int j = 0; j < 8; j++) s += m[i][j]; }
  printf("%.1f %zu\n", s, sizeof v / sizeof v[0]);
  return 0;
}
