/* depend(in/out/inout) on variables, array elements and array sections
   (ompdsmcc lowering test). Every update is order-sensitive (x*3+k), so a
   dependence that is lost shows as a different value once tasks are
   deferred; the readers record what they saw. */
#include <stdio.h>

#define N 16   /* not in the pragmas: cc -E leaves macros in them unexpanded */

static void chain(long *res)
{
  long x = 1;
  long seen[4] = { 0 };
  /* x is a local of an orphaned function: the tasks name it shared */
#pragma omp task shared(x) depend(out: x)
  x = x * 3 + 1;
#pragma omp task shared(x, seen) depend(in: x)
  seen[0] = x;
#pragma omp task shared(x, seen) depend(in: x)
  seen[1] = x;
#pragma omp task shared(x) depend(inout: x)
  x = x * 3 + 2;
#pragma omp task shared(x, seen) depend(in: x)
  seen[2] = x;
#pragma omp task shared(x) depend(out: x)
  x = x * 3 + 3;
#pragma omp taskwait
  res[0] = x;
  res[1] = seen[0] * 10000 + seen[1] * 100 + seen[2];
}

int main(void)
{
  long res[2];
  chain(res);
  printf("chain %ld %ld\n", res[0], res[1]);

  /* OpenMP wants the list items of dependent tasks identical or disjoint,
     so the sections are per block of 4 and the elements are another array */
  int a[N], c[8], d[N];
  long b[4], acc = 0, dsum = 0;
  for (int i = 0; i < N; i++) a[i] = d[i] = 0;
  for (int i = 0; i < 8; i++) c[i] = 1;
#pragma omp parallel
#pragma omp single
  {
    for (int k = 0; k < 4; k++) {
#pragma omp task depend(out: a[4*k:4])
      for (int j = 0; j < 4; j++) a[4 * k + j] = k * 10 + j;
    }
    for (int k = 0; k < 4; k++) {
#pragma omp task depend(inout: a[4*k:4])
      for (int j = 0; j < 4; j++) a[4 * k + j] = a[4 * k + j] * 3 + 1;
    }
    for (int k = 0; k < 4; k++) {
#pragma omp task depend(in: a[4*k:4]) depend(out: b[k])
      {
        long s = 0;
        for (int j = 0; j < 4; j++) s = s * 100 + a[4 * k + j];
        b[k] = s;
      }
    }
#pragma omp task depend(in: b[0], b[1], b[2], b[3]) depend(inout: acc)
    acc = b[0] + b[1] * 3 + b[2] * 5 + b[3] * 7;
    /* a chain per element, with values captured at creation */
    for (int r = 0; r < 3; r++)
      for (int i = 0; i < 8; i++) {
#pragma omp task depend(inout: c[i])
        c[i] = c[i] * 10 + r + i;
      }
    /* the whole array, as d, d[0:] and d[:16]: one list item */
#pragma omp task depend(out: d)
    for (int i = 0; i < N; i++) d[i] = i;
#pragma omp task depend(inout: d[0:])
    for (int i = 0; i < N; i++) d[i] = d[i] * d[i] + 1;
#pragma omp task depend(in: d[:16]) depend(out: dsum)
    for (int i = 0; i < N; i++) dsum = dsum * 3 + d[i];
#pragma omp taskwait
  }
  printf("acc %ld dsum %ld\n", acc, dsum);
  for (int i = 0; i < 8; i++) printf("%d ", c[i]);
  printf("\n");

  /* taskwait with a depend clause waits (at least) for the task it names */
  int y = 0;
#pragma omp task shared(y) depend(out: y)
  y = 42;
#pragma omp taskwait depend(in: y)
  printf("y %d\n", y);
  return 0;
}
