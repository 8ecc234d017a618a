/* depend(mutexinoutset): sibling tasks that update the same object one at
 * a time, after the task that wrote it (out) and before the one that reads
 * it (in). Each task adds to a shared sum and appends to a shared log; a
 * lost update or a reader that ran early changes the output. */
#include <stdio.h>

#define N 24

static long sum;
static int log_[N], nlog;

int main(void)
{
  long seen = -1;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out: sum)
    sum = 1000;
    for (int t = 0; t < N; t++) {
#pragma omp task firstprivate(t) depend(mutexinoutset: sum)
      {
        long s = sum;
        for (volatile int k = 0; k < 2000; k++)
          ;
        sum = s + t + 1;
        log_[nlog++] = t;
      }
    }
#pragma omp task depend(in: sum) shared(seen)
    seen = sum;
  }
  int mask = 0, ok = nlog == N;
  for (int i = 0; i < nlog && i < N; i++)
    mask |= 1 << log_[i];
  printf("sum %ld seen %ld tasks %d all %d\n", sum, seen, nlog, ok && mask == (1 << N) - 1);
  return 0;
}
