/* threadprivate global with copyin */
#include <stdio.h>
#include <omp.h>
int tp = 5;
#pragma omp threadprivate(tp)
int main(void)
{
  int ok = 0;
  tp = 9;
#pragma omp parallel copyin(tp) reduction(+:ok)
  {
    ok += (tp == 9);
    tp = omp_get_thread_num();
    ok -= (tp != omp_get_thread_num());
  }
  printf("%d\n", ok == omp_get_max_threads() || ok > 0);
  return 0;
}
