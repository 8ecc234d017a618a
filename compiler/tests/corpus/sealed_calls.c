/* Which regions ompdsmcc marks sealed: all the code they may run is in
 * this file or the C library, and none of it asks its team, prints or
 * calls through a pointer (omp_outline.c, seals_span). The runtime may
 * narrow a sealed region even after the program asked its team's size
 * (sync/omp/omp_width.c). check_sealed.sh reads the calls ompdsmcc made,
 * in the order of the file:
 *   dynamic: one_each's loop over the team's size main asked for, checked
 *            to give each thread one iteration (apps/bench/ompbench.c):
 *            the size reaches it through a parameter
 *   sealed:  a recursive function
 *   dynamic: m1, which reaches a pointer call (hook) through m1 <-> m2
 *   dynamic: m2, found sealed while m1 was being judged, then not
 *   sealed:  qsort with a comparison function of this file
 *   sealed:  a cast followed by a parenthesized expression
 *   sealed:  output on the way to exit()
 *   dynamic: output every time
 *   dynamic: omp_get_max_threads in a callee
 *   sealed:  partial sums added up in a critical construct (NAS LU's
 *            l2norm), a struct's in an atomic one (FT's checksum), and
 *            output in single and master constructs
 *   fixed:   a flag set in the loop, added up: how many threads saw one
 *   fixed:   a partial that starts at 1: it counts the threads
 *   fixed:   an atomic increment: it counts the threads
 *   fixed:   a partial that adds another partial carried from iteration
 *            to iteration: what it adds depends on the thread's share
 *   fixed:   a partial read before it is added up: `if (part > 0)`
 *   sealed:  NAS FT's checksum: indices set in each iteration before they
 *            are read (q = ...; if (q ...) { r = ...; ... a[q + r] })
 *   fixed:   the same with an index set only under an if without braces:
 *            an iteration that skips it reads the one before's
 *   fixed:   main asks the team's size (master)
 * Every region's result is the same for any team but those that keep
 * their team's (one_each's, once main asked). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64

static double a[N];
static int keys[N];
static double twice(double x) { return 2 * x; }
static double (*hook)(double) = twice;

static double fact(int k) { return k <= 1 ? 1.0 : k * fact(k - 1); }

static double m2(double x, int d);
static double m1(double x, int d) { return d ? m2(x, d - 1) + hook(x) : x; }
static double m2(double x, int d) { return d ? m1(x, d - 1) : x; }

static int cmp(const void *p, const void *q)
{
  int x = *(const int *)p, y = *(const int *)q;
  return (x > y) - (x < y);
}

static double checked(double x)
{
  if (x < 0) {
    fprintf(stderr, "sealed_calls: %f is negative\n", x);
    exit(3);
  }
  return x;
}

static void say(int i)
{
  if (i == 0)
    fprintf(stderr, "sealed_calls: a thread said hello\n");
}

static int width(void) { return omp_get_max_threads() > 0; }

struct cplx { double re, im; };

static int one_each(int nt)
{
  int bad = 0;
#pragma omp parallel
  {
    int seen = 0;
#pragma omp for
    for (int i = 0; i < nt; i++)
      seen++;
    if (seen != 1)
      bad = 1;
  }
  return bad;
}

int main(void)
{
  double s1 = 0, s2 = 0, s3 = 0, s5 = 0, s6 = 0;
  int sorted = 1, w = 0;
#pragma omp parallel for reduction(+ : s1)
  for (int i = 0; i < N; i++)
    s1 += fact(i % 8);
#pragma omp parallel for reduction(+ : s2)
  for (int i = 0; i < N; i++)
    s2 += m1((double)i, 3);
#pragma omp parallel for reduction(+ : s3)
  for (int i = 0; i < N; i++)
    s3 += m2((double)i, 2);
#pragma omp parallel
  {
#pragma omp single
    {
      for (int i = 0; i < N; i++)
        keys[i] = (i * 37) % N;
      qsort(keys, N, sizeof keys[0], cmp);
    }
  }
#pragma omp parallel for reduction(+ : s5)
  for (int i = 0; i < N; i++)
    s5 += (double)(i / 2) * (double)(i + 1);
#pragma omp parallel for reduction(+ : s6)
  for (int i = 0; i < N; i++)
    s6 += checked(a[i] + i);
#pragma omp parallel
  say(0);
#pragma omp parallel for reduction(+ : w)
  for (int i = 0; i < N; i++)
    w += width();
  double norm = 0;
  struct cplx tot = { 0, 0 };
#pragma omp parallel
  {
    double part = 0.0;
    struct cplx c;
    c.re = 0;
    c.im = 0;
#pragma omp for nowait
    for (int i = 0; i < N; i++) {
      part = part + a[i] * a[i] + i;
      (c).re = (c).re + i;
      c.im += 2 * i;
    }
#pragma omp critical
    norm += part;
#pragma omp atomic
    tot.re += c.re;
#pragma omp atomic
    tot.im -= c.im;
#pragma omp single
    printf("single: once\n");
#pragma omp master
    printf("master: once\n");
  }
  int saw = 0, threads = 0, incs = 0;
#pragma omp parallel
  {
    int flag = 0;
#pragma omp for
    for (int i = 0; i < N; i++)
      flag = 1;
#pragma omp critical
    saw += flag;
  }
#pragma omp parallel
  {
    int one = 1;
#pragma omp for
    for (int i = 0; i < N; i++)
      one += 0;
#pragma omp critical
    threads += one;
  }
#pragma omp parallel
  {
#pragma omp atomic
    incs++;
  }
  long carried = 0, peeked = 0;
#pragma omp parallel
  {
    long w = 0, v = 0;
#pragma omp for
    for (int i = 0; i < N; i++) {
      w += 1;
      v += w;
    }
#pragma omp critical
    carried += v;
  }
#pragma omp parallel
  {
    long part = 0;
#pragma omp for
    for (int i = 0; i < N; i++)
      part += i;
    if (part > 0) {
#pragma omp critical
      peeked += part;
    }
  }
  int team = 0;
#pragma omp parallel
#pragma omp master
  team = omp_get_num_threads();
  int bad = one_each(team);
  double chk = 0, chk2 = 0;
#pragma omp parallel
  {
    int q, r;
    double c = 0;
#pragma omp for nowait
    for (int j = 1; j <= 100; j++) {
      q = j % N;
      if (q >= 3) {
        r = (3 * j) % 7;
        if (r < 5)
          c = c + a[q] + r;
      }
    }
#pragma omp critical
    chk += c;
  }
#pragma omp parallel
  {
    int q = 0;
    double c = 0;
#pragma omp for nowait
    for (int j = 1; j <= 100; j++) {
      if (j % 3)
        q = j % N;
      c = c + q;
    }
#pragma omp critical
    chk2 += c;
  }
  for (int i = 1; i < N; i++)
    sorted &= keys[i - 1] <= keys[i];
  printf("%.1f %.1f %.1f %d %.1f %.1f %d\n", s1, s2, s3, sorted, s5, s6, w);
  printf("%.1f %.1f %.1f %d %d %d %d %d %ld %ld %.1f %.1f\n", norm, tot.re, tot.im, saw, threads,
         incs, team, bad, carried, peeked, chk, chk2);
  return 0;
}
