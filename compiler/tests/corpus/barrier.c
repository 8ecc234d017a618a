/* barrier separates two phases that use each other's results */
#include <stdio.h>
#include <omp.h>
int buf[64], res[64];
int main(void)
{
  omp_set_num_threads(4);
#pragma omp parallel
  {
    int me = omp_get_thread_num(), n = omp_get_num_threads();
    for (int i = me; i < 64; i += n) buf[i] = i + 1;
#pragma omp barrier
    for (int i = me; i < 64; i += n) res[i] = buf[63 - i] * 2;
  }
  long s = 0;
  for (int i = 0; i < 64; i++) s += res[i] * (i + 1);
  printf("%ld\n", s);
  return 0;
}
