/* orphaned omp for and barrier in a function called from a region,
   writing a local array of main through a pointer */
#include <stdio.h>
static void fill(int *v, int n, int k)
{
#pragma omp for
  for (int i = 0; i < n; i++) v[i] = i * k;
#pragma omp barrier
}
static long total(const int *v, int n)
{
  long s = 0;
#pragma omp parallel for reduction(+:s)
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}
int main(void)
{
  int local[300];
#pragma omp parallel
  fill(local, 300, 3);
  fill(local, 10, 1000);   /* outside a region: team of one */
  printf("%ld\n", total(local, 300));
  return 0;
}
