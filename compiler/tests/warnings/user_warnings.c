/* The warnings a user's own compiler gives must survive ompdsmcc, on the
   user's lines (issue 56): format mismatches (libc's printf and scanf, and
   a function of the program's with a format attribute), unused variables
   outside and inside a region. Code that gcc -fopenmp compiles quietly
   must stay quiet too: a variable the region makes private and nothing
   else uses, a lastprivate that a loop of no iterations never writes, a
   firstprivate const. check_warnings.sh compares with gcc -fopenmp. */
#include <stdio.h>
#include <omp.h>

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) { (void)fmt; }

static int scaled(const int k, int n)
{
  int i, total = 0;
#pragma omp parallel for reduction(+:total) firstprivate(k)
  for (i = 0; i < n; i++)
    total += k * i;
  return total;
}

int main(void)
{
  int unused = 3;
  long wide = 5;
  int got;
  printf("%d\n", wide);
  say("%s\n", 42);
  if (scanf("%d", &wide) != 1)
    got = 0;
  int last = -1, t = 0;
#pragma omp parallel for lastprivate(last) private(t)
  for (int k = 0; k < 0; k++) { t = k; last = t; }
#pragma omp parallel
  {
    int also_unused;
    printf("%s\n", omp_get_thread_num());
  }
  printf("%d %d\n", last, scaled(2, 10));
  return 0;
}
