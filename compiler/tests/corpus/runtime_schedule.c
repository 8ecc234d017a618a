/* schedule(runtime) with omp_set_schedule; omp_get_schedule round trip */
#include <stdio.h>
#include <omp.h>
int v[300];
int main(void)
{
  omp_set_schedule(omp_sched_dynamic, 4);
  omp_sched_t k; int chunk;
  omp_get_schedule(&k, &chunk);
#pragma omp parallel for schedule(runtime)
  for (int i = 0; i < 300; i++) v[i] = i % 17;
  int s = 0;
  for (int i = 0; i < 300; i++) s += v[i];
  printf("%d %d %d\n", s, k == omp_sched_dynamic, chunk);
  return 0;
}
