/* taskgroup, if(0), final and omp_in_final, taskyield, untied, mergeable,
   priority, and recursion through orphaned tasks (ompdsmcc lowering test). */
#include <stdio.h>
#include <omp.h>

/* orphaned recursion: n is firstprivate by default, the results are
   locals the tasks name shared and the parent reads after taskwait */
static long fib(int n)
{
  long a, b;
  if (n < 2) return n;
#pragma omp task shared(a) final(n < 12) mergeable
  a = fib(n - 1);
#pragma omp task shared(b) untied
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

/* a taskgroup waits for descendants too, not only for children */
static void tree(int depth, long *out, int idx)
{
  if (depth == 0) { out[idx] = idx; return; }
#pragma omp task
  tree(depth - 1, out, 2 * idx);
#pragma omp task
  tree(depth - 1, out, 2 * idx + 1);
}

int main(void)
{
  long f = 0;
#pragma omp parallel
#pragma omp single
  f = fib(20);
  printf("fib(20) = %ld\n", f);

  long leaves[64] = { 0 };
  long total = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup
    {
#pragma omp task
      tree(5, leaves, 1);
    }
    for (int i = 32; i < 64; i++) total += leaves[i];
  }
  printf("taskgroup: %ld\n", total);

  /* if(0): the creator runs it at once and waits; values still copied */
  int order[4], n = 0;
#pragma omp parallel
#pragma omp single
  {
    int v = 10;
#pragma omp task if(0) shared(order, n)
    {
      order[n++] = v;
      v = -1;
    }
    order[n++] = v + 1;
#pragma omp task if(v > 100) shared(order, n)
    order[n++] = v + 2;
#pragma omp taskwait
  }
  printf("if(0): %d %d %d (n %d)\n", order[0], order[1], order[2], n);

  /* final: the task and what it creates are final and included */
  int fl[4] = { -1, -1, -1, -1 };
  int when = 1;
#pragma omp parallel
#pragma omp single
  {
    fl[0] = omp_in_final();
#pragma omp task final(when) shared(fl)
    {
      fl[1] = omp_in_final();
#pragma omp task shared(fl)
      fl[2] = omp_in_final();
#pragma omp taskwait
    }
#pragma omp task final(when - 1) shared(fl)
    fl[3] = omp_in_final();
#pragma omp taskwait
  }
  printf("final: %d %d %d %d\n", fl[0], fl[1], fl[2], fl[3]);

  /* taskyield, priority: accepted, no visible effect */
  long sq[10];
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < 10; i++) {
#pragma omp task priority(i % 3) shared(sq)
      {
#pragma omp taskyield
        sq[i] = (long)i * i;
      }
    }
#pragma omp taskwait
  }
  total = 0;
  for (int i = 0; i < 10; i++) total += sq[i];
  printf("priority: %ld max %d\n", total, omp_get_max_task_priority() >= 0);

  /* nested taskgroups in the threads of a region; me is private to the
     thread (a worksharing loop variable), so firstprivate in the tasks */
  long per[8] = { 0 };
#pragma omp parallel
#pragma omp for
  for (int me = 0; me < 2; me++) {
#pragma omp taskgroup
    {
      for (int k = 0; k < 4; k++) {
#pragma omp task shared(per)
        {
#pragma omp taskgroup
          {
#pragma omp task shared(per)
            per[me * 4 + k] = (me + 1) * 100 + k;
          }
          per[me * 4 + k] += 1000;
        }
      }
    }
  }
  total = 0;
  for (int i = 0; i < 8; i++) total = total * 7 + per[i];
  printf("nested groups: %ld\n", total);
  return 0;
}
