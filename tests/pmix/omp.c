/*
 * omp.c — an OpenMP program, built by ompdsmcc, started by mpirun.
 *
 *   pmix_omp N   the team must have N threads (one per process of the
 *                job); a parallel loop fills a malloc()ed array and sums
 *                it with a reduction; prints VERIFIED when the sum and
 *                every element are right
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN 200000

int main(int argc, char **argv)
{
  int want = argc > 1 ? atoi(argv[1]) : 1;
  long *x = malloc(sizeof *x * LEN);
  int threads = 0;
  long sum = 0;
  if (!x)
    return 2;
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
  }
#pragma omp parallel for reduction(+ : sum)
  for (long i = 0; i < LEN; i++) {
    x[i] = i % 97 * 3;
    sum += x[i];
  }
  long expect = 0, bad = 0;
  for (long i = 0; i < LEN; i++) {
    expect += i % 97 * 3;
    bad += x[i] != i % 97 * 3;
  }
  printf("threads %d (wanted %d), sum %ld (expected %ld), %ld wrong elements\n", threads, want,
         sum, expect, bad);
  int ok = threads == want && sum == expect && !bad;
  printf("%s\n", ok ? "VERIFIED" : "FAILED");
  free(x);
  return ok ? 0 : 1;
}
