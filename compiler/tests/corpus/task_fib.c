/* Recursive Fibonacci with tasks, in the style of BOTS fib: each call makes
   two tasks that write the caller's locals x and y (shared(x) / shared(y):
   the task writes into its parent's stack frame), waits for them with
   taskwait and returns x + y. Below a depth cut-off the recursion is
   sequential, so the number of tasks stays in the hundreds. Called from
   parallel + single. The result is checked against an iterative loop; a
   lost write to x or y, or a taskwait that returns early, changes it. */
#include <stdio.h>

#define N 24
#define CUTOFF 7

static long fib_seq(int n)
{
  if (n < 2) return n;
  return fib_seq(n - 1) + fib_seq(n - 2);
}

static long fib(int n, int depth)
{
  long x, y;
  if (n < 2) return n;
  if (depth >= CUTOFF) return fib_seq(n);
#pragma omp task shared(x) firstprivate(n, depth)
  x = fib(n - 1, depth + 1);
#pragma omp task shared(y) firstprivate(n, depth)
  y = fib(n - 2, depth + 1);
#pragma omp taskwait
  return x + y;
}

int main(void)
{
  long res = -1;
#pragma omp parallel
  {
#pragma omp single
    res = fib(N, 0);
  }
  long a = 0, b = 1;
  for (int i = 0; i < N; i++) { long t = a + b; a = b; b = t; }
  printf("fib(%d) = %ld\n", N, res);
  printf("%s\n", res == a ? "OK" : "FAIL");
  return res == a ? 0 : 1;
}
