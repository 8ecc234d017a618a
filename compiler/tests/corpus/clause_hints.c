/* Issue 56: clauses of OpenMP 4.5 and 5.0 that ompdsmcc said were unknown.
   proc_bind and the schedule modifiers are hints; order(concurrent) allows
   what every schedule does; linear gives a variable base + k * step at
   logical iteration k and copies out its value after the last iteration.
   (gcc -fopenmp sets it at the start of each thread's chunk only, so the
   runs compared with it advance the variable in the body, as programs do.) */
#include <stdio.h>

#define N 100

int main(void)
{
  static int a[N], b[2 * N];
  static long out[N];
  long sum = 0, dyn = 0;
  int ok;

#pragma omp parallel proc_bind(close) reduction(+:sum)
  sum += 1;
  printf("proc_bind: %s\n", sum >= 1 ? "ran" : "did not run");

#pragma omp parallel for schedule(nonmonotonic: dynamic, 3) reduction(+:dyn)
  for (int i = 0; i < N; i++) {
    a[i] = i * 3;
    dyn += i;
  }
#pragma omp parallel for schedule(monotonic: static, 7)
  for (int i = 0; i < N; i++) a[i] += 1;
#pragma omp parallel for schedule(simd: guided)
  for (int i = 0; i < N; i++) a[i] += 1;
  printf("nonmonotonic dynamic: %ld, a[99] = %d\n", dyn, a[N - 1]);

#pragma omp parallel for order(concurrent)
  for (int i = 0; i < N; i++) out[i] = (long)a[i] * a[i];
  long sq = 0;
  for (int i = 0; i < N; i++) sq += out[i];
  printf("order(concurrent): %ld\n", sq);

  /* linear as programs use it: the body advances the variable by the
     step itself (so the value it starts each iteration with, base + k *
     step, is what the body has anyway), in a for inside a region, with a
     step that is an expression; then on a combined construct */
  int j = 5;
#pragma omp parallel for linear(j:2)
  for (int i = 0; i < N; i++) {
    b[j - 5] = i;
    j += 2;
  }
  ok = 1;
  for (int i = 0; i < N; i++) ok &= b[2 * i] == i;
  printf("linear on parallel for: j = %d, %s\n", j, ok ? "placed" : "misplaced");

  int k = 0, step = 3;
#pragma omp parallel
  {
#pragma omp for linear(k: step)
    for (int i = 0; i < N; i++) {
      out[i] = k;
      k += step;
    }
  }
  ok = 1;
  for (int i = 0; i < N; i++) ok &= out[i] == 3L * i;
  printf("linear, body advances it: k = %d, %s\n", k, ok ? "placed" : "misplaced");

  /* a linear pointer, with a collapsed nest: one element per iteration */
  int grid[10][10], *p = &grid[0][0];
#pragma omp parallel for collapse(2) linear(p)
  for (int r = 0; r < 10; r++)
    for (int c = 0; c < 10; c++)
      *p++ = r * 10 + c;
  ok = 1;
  for (int r = 0; r < 10; r++)
    for (int c = 0; c < 10; c++) ok &= grid[r][c] == r * 10 + c;
  printf("linear pointer over collapse(2): %s, p - grid = %d\n", ok ? "filled" : "wrong",
         (int)(p - &grid[0][0]));
  return 0;
}
