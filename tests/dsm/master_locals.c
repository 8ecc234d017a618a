/*
 * The master-locals mechanism: under dsm_main the master's stack is shared
 * memory. fill() takes the address of its local array and calls
 * run_region() (another function), which forks work that writes the array
 * through the pointer from every process; fill() then checks it. Several
 * regions in a row, with the array read back by the forked code too.
 */
#include <string.h>
#include "check.h"

#define N 3000

struct args { int *arr; int round; };

static void body(void *p)
{
  struct args *a = p;
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  for (int i = (int)me; i < N; i += (int)n) {
    if (a->round > 0)
      CHECK_EQ(a->arr[i], i * 3 + a->round - 1);   /* the previous region's value */
    a->arr[i] = i * 3 + a->round;
  }
}

static void run_region(int *arr, int round)
{
  struct args a = { arr, round };
  dsm_fork(body, &a, sizeof a);
  dsm_join();
}

static int fill(void)
{
  int local[N];
  memset(local, 0, sizeof local);
  for (int round = 0; round < 5; round++) {
    run_region(local, round);
    for (int i = 0; i < N; i++)
      CHECK_EQ(local[i], i * 3 + round);
  }
  return local[N - 1];
}

static int real_main(int argc, char **argv)
{
  int v = fill();
  printf("master_locals: a local array of the master written by %u processes: OK (%d)\n",
         dsm_nprocs(), v);
  return 0;
}

int main(int argc, char **argv)
{
  dsm_main(real_main, argc, argv);
}
