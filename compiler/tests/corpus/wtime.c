/* omp_get_wtime is monotonic; omp_get_num_procs is positive */
#include <stdio.h>
#include <omp.h>
int main(void)
{
  double t0 = omp_get_wtime();
  volatile double x = 0;
  for (int i = 0; i < 100000; i++) x += i;
  double t1 = omp_get_wtime();
  printf("%d %d %d\n", t1 >= t0, omp_get_num_procs() > 0, omp_get_wtick() > 0);
  return 0;
}
