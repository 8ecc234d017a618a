/* threadprivate: one copy per thread, also with several threads per process
   (dsmrun --threads: _Thread_local), copyin from the master */
#include <stdio.h>
#include <omp.h>
int tp = 5;
static long counter;
#pragma omp threadprivate(tp, counter)
int main(void)
{
  int bad = 0, n = 0;
  tp = 9;
#pragma omp parallel copyin(tp) reduction(+:bad) reduction(+:n)
  {
    static int local_tp;
#pragma omp threadprivate(local_tp)
    bad += (tp != 9);
    tp = 100 + omp_get_thread_num();
    local_tp = omp_get_thread_num();
    for (int k = 0; k < 1000; k++) counter++;
#pragma omp barrier
    bad += (tp != 100 + omp_get_thread_num()) + (local_tp != omp_get_thread_num()) + (counter != 1000);
    n++;
  }
  printf("threads %d, bad %d\n", n, bad);
  return bad != 0;
}
