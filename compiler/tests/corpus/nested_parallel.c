/* a nested parallel region runs serialized; shared variables reach it */
#include <stdio.h>
#include <omp.h>
int main(void)
{
  int total = 0, inner_sizes = 0;
#pragma omp parallel
  {
    int mine = 1;
#pragma omp parallel reduction(+:mine)
    {
      mine += 1;
#pragma omp atomic
      inner_sizes += omp_get_num_threads();
    }
#pragma omp atomic
    total += mine;
  }
  printf("%d\n", total == 2 * inner_sizes);
  return 0;
}
