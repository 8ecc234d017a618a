/* num_threads and if clauses */
#include <stdio.h>
#include <omp.h>
int main(void)
{
  int n1 = 0, n2 = 0, inpar = -1;
#pragma omp parallel num_threads(2)
  {
#pragma omp master
    n1 = omp_get_num_threads();
  }
  int zero = 0;
#pragma omp parallel if(zero)
  {
#pragma omp master
    { n2 = omp_get_num_threads(); inpar = omp_in_parallel(); }
  }
  printf("%d %d %d\n", n1 <= 2 && n1 >= 1, n2, inpar);
  return 0;
}
