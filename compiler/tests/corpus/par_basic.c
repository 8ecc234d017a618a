/* parallel region: shared local counter updated in critical */
#include <stdio.h>
#include <omp.h>
int main(void)
{
  int count = 0, n = 0;
#pragma omp parallel
  {
#pragma omp critical
    count++;
#pragma omp master
    n = omp_get_num_threads();
  }
  printf("count==threads: %d\n", count == n);
  return 0;
}
