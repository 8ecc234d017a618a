/* canonical loop forms: <=, >, >=, decrements, += steps, reversed test */
#include <stdio.h>
int hits[200];
int main(void)
{
  int lo = 3, hi = 150;
#pragma omp parallel for
  for (int i = lo; i <= hi; i += 3) hits[i] += 1;
#pragma omp parallel for
  for (int i = hi; i > lo; i--) hits[i] += 10;
#pragma omp parallel for
  for (int i = 199; i >= 0; i -= 7) hits[i] += 100;
#pragma omp parallel for
  for (int i = 0; 50 > i; i = i + 2) hits[i] += 1000;
#pragma omp parallel for
  for (int i = 10; i < 10; i++) hits[i] += 99999;
  long s = 0;
  for (int i = 0; i < 200; i++) s += (long)hits[i] * (i + 1);
  printf("%ld\n", s);
  return 0;
}
