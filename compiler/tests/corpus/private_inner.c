/* private inner loop variable declared outside the region */
#include <stdio.h>
int main(void)
{
  int i, j;
  double m[20][30];
#pragma omp parallel for private(j)
  for (i = 0; i < 20; i++)
    for (j = 0; j < 30; j++)
      m[i][j] = i * 0.5 + j;
  double s = 0;
  for (i = 0; i < 20; i++) for (j = 0; j < 30; j++) s += m[i][j];
  printf("%.1f\n", s);
  return 0;
}
