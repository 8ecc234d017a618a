/* Tasks that outlive the function that created them: spawn() makes a few
   tasks that write a shared heap array and returns at once, without
   taskwait, so its frame is gone when they run (their arguments are
   firstprivate copies). Every thread calls it for its iterations of a
   nowait loop. Phase 1 is completed by an explicit barrier (a barrier
   waits for all tasks of the team) and checked inside the region by one
   thread; phase 2 is completed only by the implicit barrier at the end of
   the parallel region and checked after it. */
#include <stdio.h>
#include <stdlib.h>

#define N 400
#define PER 4

static long value(int i, int k, int phase)
{
  unsigned long h = (unsigned long)(i * PER + k) * 2654435761UL + (unsigned long)phase;
  for (int r = 0; r < 20 + i % 30; r++) h = h * 1103515245UL + 12345UL;
  return (long)(h % 1000003UL);
}

static void spawn(long *out, int i, int phase)
{
  for (int k = 0; k < PER; k++) {
#pragma omp task
    out[i * PER + k] = value(i, k, phase);
  }
  /* returns before the tasks run; i, k, phase and out were captured */
}

int main(void)
{
  long *out = malloc(2 * N * PER * sizeof *out);
  long bad1 = -1;
  for (int i = 0; i < 2 * N * PER; i++) out[i] = -1;

#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (int i = 0; i < N; i++)
      spawn(out, i, 1);
#pragma omp barrier
#pragma omp single
    {
      long b = 0;
      for (int i = 0; i < N; i++)
        for (int k = 0; k < PER; k++) b += out[i * PER + k] != value(i, k, 1);
      bad1 = b;
    }
#pragma omp for schedule(dynamic, 8) nowait
    for (int i = 0; i < N; i++)
      spawn(out + N * PER, i, 2);
  }

  long bad2 = 0, s1 = 0, s2 = 0;
  for (int i = 0; i < N; i++)
    for (int k = 0; k < PER; k++) {
      bad2 += out[N * PER + i * PER + k] != value(i, k, 2);
      s1 += out[i * PER + k];
      s2 += out[N * PER + i * PER + k];
    }
  printf("phase 1 (explicit barrier): sum %ld, wrong %ld\n", s1, bad1);
  printf("phase 2 (end of region): sum %ld, wrong %ld\n", s2, bad2);
  int good = bad1 == 0 && bad2 == 0;
  printf("%s\n", good ? "OK" : "FAIL");
  free(out);
  return good ? 0 : 1;
}
