/*
 * omp_env.c — an OpenMP program (built by ompdsmcc, and by gcc -fopenmp for
 * comparison, in test_omp_env.sh) that reports what the OpenMP variables
 * gave it (issue 56).
 *
 * usage: omp_env threads      prints "max M team T" (omp_get_max_threads,
 *                             and the threads of a region)
 *        omp_env deep MIB     the last thread of a region recurses through
 *                             MIB MiB of stack; prints "deep ok"
 *        omp_env argv WORD    the last thread of a region prints WORD, through
 *                             a pointer into argv (the master's, with gcc)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int mode_deep;
static long deep_mib;

/* About 4 KiB of stack a call, which the compiler cannot take away. */
static long dig(long n)
{
  volatile char frame[4000];
  frame[0] = (char)n;
  frame[sizeof frame - 1] = (char)n;
  if (n == 0)
    return frame[0];
  return dig(n - 1) + frame[sizeof frame - 1] - (char)(n - 1) + 1 - 1;
}

int main(int argc, char **argv)
{
  if (argc > 2 && !strcmp(argv[1], "argv")) {
    const char *word = argv[2];
#pragma omp parallel
    {
      if (omp_get_thread_num() == omp_get_num_threads() - 1)
        printf("thread %d: %s\n", omp_get_thread_num(), word);
    }
    return 0;
  }
  mode_deep = argc > 1 && !strcmp(argv[1], "deep");
  deep_mib = argc > 2 ? atol(argv[2]) : 0;
  if (!mode_deep) {
    int team = 0;
#pragma omp parallel
    {
#pragma omp single
      team = omp_get_num_threads();
    }
    printf("max %d team %d\n", omp_get_max_threads(), team);
    return 0;
  }
  long r = 0;
#pragma omp parallel reduction(+:r)
  {
    if (omp_get_thread_num() == omp_get_num_threads() - 1)
      r += dig(deep_mib * 256) >= 0;
  }
  printf("deep %s\n", r == 1 ? "ok" : "wrong");
  return 0;
}
