/* master, flush and barrier together */
#include <stdio.h>
#include <omp.h>
int data, seen;
int main(void)
{
#pragma omp parallel
  {
#pragma omp master
    { data = 99; }
#pragma omp flush
#pragma omp barrier
#pragma omp atomic
    seen += (data == 99);
  }
  printf("%d\n", seen == omp_get_max_threads() || seen > 0);
  return 0;
}
