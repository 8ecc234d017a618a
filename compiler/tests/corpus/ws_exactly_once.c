/* Every iteration, section and single block runs exactly once, whatever
 * the runtime's way of handing them out: dynamic and guided loops of many
 * sizes against the team (shorter than one chunk per thread, exactly one,
 * a few, many), schedule(runtime) set by omp_set_schedule in the
 * sequential code, sections fewer and more than the threads, and runs of
 * single nowait blocks. Each unit of work counts itself atomically into
 * its own slot; a unit run twice or never shows in the sums printed. */
#include <omp.h>
#include <stdio.h>

#define N 1000
static int hits[N];
static int sect[8];
static int singles;

static void clear(void)
{
  for (int i = 0; i < N; i++) hits[i] = 0;
}

/* Sum of hits weighted so that a miss and a double cannot cancel out. */
static long check(int n)
{
  long bad = 0;
  for (int i = 0; i < n; i++)
    if (hits[i] != 1) bad += 1 + i;
  for (int i = n; i < N; i++)
    if (hits[i] != 0) bad += 1 + i;
  return bad;
}

int main(void)
{
  static const int sizes[] = { 1, 3, 4, 7, 8, 12, 33, 100, 257, 1000 };
  static const int chunks[] = { 1, 2, 4, 16 };
  long bad = 0;
  for (unsigned a = 0; a < sizeof sizes / sizeof *sizes; a++)
    for (unsigned b = 0; b < sizeof chunks / sizeof *chunks; b++) {
      int n = sizes[a], c = chunks[b];
      clear();
#pragma omp parallel for schedule(dynamic, c)
      for (int i = 0; i < n; i++) {
#pragma omp atomic
        hits[i]++;
      }
      bad += check(n);
      clear();
#pragma omp parallel for schedule(guided, c)
      for (int i = 0; i < n; i++) {
#pragma omp atomic
        hits[i]++;
      }
      bad += check(n);
      clear();
      omp_set_schedule(b & 1 ? omp_sched_guided : omp_sched_dynamic, c);
#pragma omp parallel
      {
        /* two loops in one region, the first nowait: their claims must
         * not mix */
#pragma omp for schedule(runtime) nowait
        for (int i = 0; i < n; i++) {
#pragma omp atomic
          hits[i]++;
        }
#pragma omp for schedule(dynamic, c)
        for (int i = 0; i < n; i++) {
#pragma omp atomic
          hits[i] += 2;
        }
      }
      for (int i = 0; i < n; i++) hits[i] -= 2;
      bad += check(n);
    }
  printf("loops: %ld\n", bad);

#pragma omp parallel
  {
#pragma omp sections
    {
#pragma omp section
      { sect[0]++; }
#pragma omp section
      { sect[1]++; }
    }
#pragma omp sections
    {
#pragma omp section
      { sect[2]++; }
#pragma omp section
      { sect[3]++; }
#pragma omp section
      { sect[4]++; }
#pragma omp section
      { sect[5]++; }
#pragma omp section
      { sect[6]++; }
    }
    for (int k = 0; k < 10; k++) {
#pragma omp single nowait
      {
#pragma omp atomic
        singles++;
      }
    }
#pragma omp barrier
#pragma omp single
    { singles += 100; }
  }
  printf("sections:");
  for (int i = 0; i < 7; i++) printf(" %d", sect[i]);
  printf("\nsingles: %d\n", singles);
  return 0;
}
