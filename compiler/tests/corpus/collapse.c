/* collapse(2) over a rectangular nest */
#include <stdio.h>
#define R 13
#define C 17
double m[R][C];
int main(void)
{
#pragma omp parallel for collapse(2) schedule(static, 5)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      m[i][j] = i * 100 + j;
  double s = 0;
  for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) s += m[i][j] * (i + j + 1);
  printf("%.0f\n", s);
  return 0;
}
