/* ordered under every static shape the runtime hands the turn through
 * (block, chunk 1, chunk 3; fewer iterations than threads, one iteration,
 * counts that do not divide) and under dynamic and guided schedules, in
 * one region after another and in two loops of one region: each ordered
 * block appends its iteration to a log, which must read 0, 1, 2, ... for
 * every loop, and a value computed in one block is read by the next. */
#include <stdio.h>

static int log_[4096];
static int n_log;
static long chain;

static int check(int count, const char *what)
{
  int bad = n_log != count;
  for (int i = 0; i < n_log && !bad; i++)
    if (log_[i] != i) bad = 1;
  if (bad) printf("%s over %d: out of order\n", what, count);
  n_log = 0;
  return bad;
}

int main(void)
{
  static const int counts[] = { 1, 2, 3, 5, 8, 13, 64, 100 };
  int bad = 0;
  for (unsigned k = 0; k < sizeof counts / sizeof *counts; k++) {
    int n = counts[k];
#pragma omp parallel for ordered schedule(static)
    for (int i = 0; i < n; i++) {
#pragma omp ordered
      { log_[n_log++] = i; chain = (chain * 3 + i) % 1000003; }
    }
    bad += check(n, "static");
#pragma omp parallel for ordered schedule(static, 1)
    for (int i = 0; i < n; i++) {
#pragma omp ordered
      { log_[n_log++] = i; chain = (chain * 3 + i) % 1000003; }
    }
    bad += check(n, "static,1");
#pragma omp parallel for ordered schedule(static, 3)
    for (int i = 0; i < n; i++) {
#pragma omp ordered
      { log_[n_log++] = i; chain = (chain * 3 + i) % 1000003; }
    }
    bad += check(n, "static,3");
#pragma omp parallel for ordered schedule(dynamic, 2)
    for (int i = 0; i < n; i++) {
#pragma omp ordered
      { log_[n_log++] = i; chain = (chain * 3 + i) % 1000003; }
    }
    bad += check(n, "dynamic,2");
#pragma omp parallel
    {
#pragma omp for ordered schedule(guided) nowait
      for (int i = 0; i < n; i++) {
#pragma omp ordered
        { log_[n_log++] = i; chain = (chain * 3 + i) % 1000003; }
      }
#pragma omp barrier
#pragma omp single
      bad += check(n, "guided");
#pragma omp for ordered schedule(static, 2)
      for (int i = n - 1; i >= 0; i--) {
#pragma omp ordered
        { log_[n_log++] = n - 1 - i; chain = (chain * 3 + i) % 1000003; }
      }
    }
    bad += check(n, "static,2 descending");
  }
  printf("ordered: %d bad, chain %ld\n", bad, chain);
  return 0;
}
