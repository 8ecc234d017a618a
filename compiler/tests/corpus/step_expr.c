/* loop forms: i = i + k, i = k + i, i -= k with variable bounds */
#include <stdio.h>
int mark[300];
int main(void)
{
  int k = 4, lo = 2, hi = 290;
#pragma omp parallel for
  for (int i = lo; i < hi; i = i + k) mark[i] += 1;
#pragma omp parallel for
  for (int i = lo; i <= hi; i = 3 + i) mark[i] += 2;
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = hi; i >= lo; i -= k + 1) mark[i] += 4;
  long s = 0;
  for (int i = 0; i < 300; i++) s += (long)mark[i] * i;
  printf("%ld\n", s);
  return 0;
}
