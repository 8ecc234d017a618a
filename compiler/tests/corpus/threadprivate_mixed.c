/* threadprivate variables declared beside shared ones ("int a, tp;"): only
   the named ones get a copy per thread, also with several threads per
   process, where the others must stay one shared object */
#include <stdio.h>
#include <omp.h>
struct pt { int x, y; };
int shared_a = 1, tp = 5, shared_b[4] = { 1, 2, 3, 4 }, tp2;
struct pt p_shared = { 7, 8 }, p_tp;
static double tp_first, d_shared;
#pragma omp threadprivate(tp, tp2, p_tp, tp_first)
int main(void)
{
  int bad = 0, n = 0, nthreads = 1;
#pragma omp parallel reduction(+:bad) reduction(+:n)
  {
    int me = omp_get_thread_num();
    tp = me; tp2 = 2 * me; p_tp.x = me; p_tp.y = -me; tp_first = me + 0.5;
#pragma omp single
    {
      nthreads = omp_get_num_threads();
      shared_a = 41;
      shared_b[3] = 44;
      p_shared.y = 88;
      d_shared = 2.5;
    }
    /* the single's writes are seen by every thread: they are one object */
    bad += (shared_a != 41) + (shared_b[3] != 44) + (p_shared.y != 88) + (d_shared != 2.5);
#pragma omp barrier
    bad += (tp != me) + (tp2 != 2 * me) + (p_tp.x != me) + (p_tp.y != -me) + (tp_first != me + 0.5);
    n++;
  }
  printf("threads %d of %d, bad %d, a %d b %d p %d d %.1f\n", n, nthreads, bad, shared_a, shared_b[3],
         p_shared.y, d_shared);
  return bad != 0;
}
