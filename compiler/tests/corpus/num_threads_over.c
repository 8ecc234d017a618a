/* num_threads above the number of processes (issue 14, class 8): the team
   has one thread per process of the job, the program is told once which
   region asked for more, and omp_get_max_threads() answers with the team
   size a region without num_threads gets. */
// STDERR: num_threads_over.c:15: the parallel region asks for 10 threads; its team has @N@, the threads of the job
#include <omp.h>
#include <stdio.h>

int main(void)
{
  long sum = 0;
  int team = 0, dflt = 0, agree = 1;
  for (int rep = 0; rep < 3; rep++) {
    sum = 0;
#pragma omp parallel num_threads(10) reduction(+:sum)
    {
      sum += 1;
#pragma omp single
      team = omp_get_num_threads();
    }
    agree &= sum == team;
  }
#pragma omp parallel
  {
#pragma omp single
    dflt = omp_get_num_threads();
  }
  printf("sum matches team: %d\n", agree);
  printf("max_threads is the default team: %d\n", dflt == omp_get_max_threads());
  return 0;
}
