/* One producer, many consumers: one thread (single nowait) creates NTASK
   small tasks while the other threads go on to the barrier, where they
   must pick up and run the tasks (with priorities, and a taskyield by
   the producer every 100 tasks). Each task writes its own slot. Then the
   same with master, whose lack of an implied barrier makes the explicit
   barrier the only place that completes the tasks. Checked after each
   barrier by one thread and after the region. */
#include <stdio.h>
#include <stdlib.h>

#define NTASK 2000

static unsigned slot_value(int i, unsigned salt)
{
  unsigned h = (unsigned)i * 2246822519u + salt;
  for (int r = 0; r < 50; r++) h = (h ^ (h >> 13)) * 3266489917u + (unsigned)r;
  return h;
}

int main(void)
{
  unsigned *a = calloc(NTASK, sizeof *a), *b = calloc(NTASK, sizeof *b);
  long bad_in_region = -1;

#pragma omp parallel
  {
#pragma omp single nowait
    for (int i = 0; i < NTASK; i++) {
#pragma omp task firstprivate(i) priority(i % 4)
      a[i] = slot_value(i, 17u);
      if (i % 100 == 99) {
#pragma omp taskyield
      }
    }
#pragma omp barrier
#pragma omp master
    for (int i = 0; i < NTASK; i++) {
#pragma omp task firstprivate(i)
      b[i] = slot_value(i, 4242u) ^ a[NTASK - 1 - i];
    }
#pragma omp barrier
#pragma omp single
    {
      long bad = 0;
      for (int i = 0; i < NTASK; i++) bad += b[i] != (slot_value(i, 4242u) ^ slot_value(NTASK - 1 - i, 17u));
      bad_in_region = bad;
    }
  }

  long bad = 0;
  unsigned long long sa = 0, sb = 0;
  for (int i = 0; i < NTASK; i++) {
    bad += a[i] != slot_value(i, 17u);
    sa += a[i];
    sb += b[i];
  }
  printf("%d tasks: sums %llu %llu, wrong %ld and %ld\n", NTASK, sa, sb, bad, bad_in_region);
  int good = bad == 0 && bad_in_region == 0;
  printf("%s\n", good ? "OK" : "FAIL");
  free(a); free(b);
  return good ? 0 : 1;
}
