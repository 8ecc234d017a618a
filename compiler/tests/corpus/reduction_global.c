/* reduction on a global and on a static local, inside a parallel region */
#include <stdio.h>
double gsum;
int main(void)
{
  static long ssum;
#pragma omp parallel reduction(+:gsum)
  {
#pragma omp for reduction(+:ssum)
    for (int i = 0; i < 1000; i++) { gsum += i * 0.25; ssum += i; }
  }
  printf("%.2f %ld\n", gsum, ssum);
  return 0;
}
