/* reductions that end a parallel region (they ride in the join): the
 * region's own clause, a combined parallel for with several operators, a
 * team smaller than the job, and the results read by the next region */
#include <omp.h>
#include <stdio.h>

static double weight(int t) { return 1.0 / (t + 1); }

int main(void)
{
  long count = 0;
  double w = 0.0;
  int hi = -1, lo = 1000;
#pragma omp parallel reduction(+:count, w) reduction(max:hi) reduction(min:lo)
  {
    int t = omp_get_thread_num();
    count += 10 + t;
    w += weight(t);
    if (t > hi) hi = t;
    if (100 + t < lo) lo = 100 + t;
  }
  int nt = hi + 1;
  double want = 0.0;
  for (int t = 0; t < nt; t++) want += weight(t);
  printf("threads %d count %ld weight_ok %d lo %d\n", nt, count - (long)nt * (nt - 1) / 2,
         w > want - 1e-12 && w < want + 1e-12, lo);

  long sq = 0;
  unsigned long x = 0;
#pragma omp parallel for reduction(+:sq) reduction(^:x) schedule(static, 7)
  for (long i = 0; i < 1000; i++) {
    sq += i * i;
    x ^= (unsigned long)i * 2654435761u;
  }
  printf("sq %ld x %lu\n", sq, x);

  /* a team of at most two, whatever the job's size */
  long pair = 0;
#pragma omp parallel num_threads(2) reduction(+:pair)
  pair += omp_get_thread_num() + 1;
  printf("pair %ld\n", pair == 1 || pair == 3 ? 3 : pair);

  /* the results are visible to every thread of the next region */
  int bad = 0;
#pragma omp parallel reduction(+:bad)
  bad += (sq != 332833500 || count <= 0);
  printf("bad %d\n", bad);

  /* many regions in a row, each folding into the same variable */
  long acc = 0;
  for (int r = 0; r < 50; r++) {
#pragma omp parallel reduction(+:acc)
    acc += r;
  }
  printf("acc_per_thread %ld\n", acc / nt);
  return 0;
}
