/* sections with reduction and firstprivate */
#include <stdio.h>
int main(void)
{
  int acc = 0, seed = 3;
#pragma omp parallel sections reduction(+:acc) firstprivate(seed)
  {
#pragma omp section
    acc += seed * 1;
#pragma omp section
    acc += seed * 10;
#pragma omp section
    acc += seed * 100;
  }
  printf("%d\n", acc);
  return 0;
}
