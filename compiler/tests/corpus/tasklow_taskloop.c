/* taskloop: grainsize, num_tasks, nogroup, lastprivate, firstprivate,
   private, collapse, if, final, negative steps, combined forms
   (ompdsmcc lowering test). A firstprivate counter that each task starts
   from its captured value tells where chunks begin, so chunk sizes can be
   checked against the rules OpenMP gives. */
#include <stdio.h>
#include <omp.h>

#define N 100

static int pos[N];

/* chunk lengths from pos[] (1 at the first iteration of each chunk) */
static void chunks(int n, int *count, int *minlen, int *maxlen)
{
  *count = 0; *minlen = n + 1; *maxlen = 0;
  int len = 0;
  for (int i = 0; i < n; i++) {
    if (pos[i] == 1 && len) {
      if (len < *minlen) *minlen = len;
      if (len > *maxlen) *maxlen = len;
      len = 0;
    }
    if (pos[i] == 1) (*count)++;
    len++;
  }
  if (len < *minlen) *minlen = len;
  if (len > *maxlen) *maxlen = len;
}

int main(void)
{
  int cnt, mn, mx;
  long sum = 0;

#pragma omp parallel
#pragma omp single
  {
    int at = 0;
#pragma omp taskloop grainsize(7) firstprivate(at)
    for (int i = 0; i < N; i++) pos[i] = ++at;
  }
  chunks(N, &cnt, &mn, &mx);
  printf("grainsize(7): %d chunks, sizes in [7,14): %d\n", cnt, mn >= 7 && mx < 14);

#pragma omp parallel
#pragma omp single
  {
    int at = 0;
#pragma omp taskloop num_tasks(6) firstprivate(at)
    for (int i = 0; i < N; i++) pos[i] = ++at;
  }
  chunks(N, &cnt, &mn, &mx);
  printf("num_tasks(6): %d chunks, sizes differ by <= 1: %d\n", cnt, mx - mn <= 1);

#pragma omp parallel
#pragma omp single
  {
    int at = 0;
#pragma omp taskloop num_tasks(50) firstprivate(at)
    for (int i = 0; i < 10; i++) pos[i] = ++at;
  }
  chunks(10, &cnt, &mn, &mx);
  printf("num_tasks(50) over 10: %d chunks\n", cnt);

  /* lastprivate of a variable and of the loop variable; a negative step */
  int last = -1, i;
  long v[N];
#pragma omp parallel
#pragma omp master
#pragma omp taskloop grainsize(9) lastprivate(last, i)
  for (i = N - 1; i >= 0; i -= 3) { v[i] = i * 2; last = i; }
  printf("lastprivate: last %d i %d\n", last, i);

  /* zero trips: lastprivate leaves the original alone */
  int zl = 123;
#pragma omp parallel master taskloop lastprivate(zl)
  for (int k = 5; k < 5; k++) zl = k;
  printf("zero trips: %d\n", zl);

  /* firstprivate values are taken once, at the taskloop, for every task */
  int scale = 3;
  long w[N];
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop num_tasks(4) firstprivate(scale) nogroup
    for (int k = 0; k < N; k++) w[k] = k * scale;
    scale = 1000;
#pragma omp taskwait
  }
  for (int k = 0; k < N; k++) sum += w[k];
  printf("firstprivate+nogroup: %ld (scale now %d)\n", sum, scale);

  /* private: each task's own, uninitialized copy */
  int tmp = -5;
  long x[N];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop private(tmp) grainsize(10)
  for (int k = 0; k < N; k++) { tmp = k * k; x[k] = tmp + 1; }
  sum = 0;
  for (int k = 0; k < N; k++) sum += x[k];
  printf("private: %ld tmp %d\n", sum, tmp);

  /* collapse(2) with a non-unit step in the inner loop */
  int m[10][12] = { { 0 } };
#pragma omp parallel master taskloop collapse(2) grainsize(5)
  for (int r = 0; r < 10; r++)
    for (int c = 11; c >= 0; c -= 2)
      m[r][c] = r * 100 + c;
  sum = 0;
  for (int r = 0; r < 10; r++)
    for (int c = 0; c < 12; c++) sum = sum * 3 % 1000003 + m[r][c];
  printf("collapse: %ld\n", sum);

  /* if(0) and final(1): tasks still split the loop; final ones say so */
  int fin[N];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop final(1) num_tasks(4)
  for (int k = 0; k < N; k++) fin[k] = omp_in_final();
  int nf = 0;
  for (int k = 0; k < N; k++) nf += fin[k];
  long y[N];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop if(0) untied mergeable priority(1)
  for (int k = 0; k < N; k++) y[k] = 2 * k;
  sum = 0;
  for (int k = 0; k < N; k++) sum += y[k];
  printf("final: %d in final; if(0): %ld\n", nf, sum);

  /* shared default: a local of main is shared by the region, so by the
     tasks; each iteration owns its element */
  long acc[N];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop
  for (int k = 0; k < N; k++) acc[k] = (long)k * k;
  sum = 0;
  for (int k = 0; k < N; k++) sum += acc[k];
  printf("default: %ld\n", sum);

  /* a taskloop outside any region: q is a local of a function with no
     enclosing region, so it is firstprivate and only the tasks' copies
     change; shared(r) makes r the original */
  int q[20] = { 0 }, r[20] = { 0 };
#pragma omp taskloop grainsize(3) shared(r)
  for (int k = 0; k < 20; k++) { q[k] = 1; r[k] = k + 1; }
  sum = 0;
  for (int k = 0; k < 20; k++) sum += q[k] * 1000 + r[k];
  printf("orphaned shared: %ld\n", sum);
#pragma omp taskloop grainsize(3) lastprivate(last)
  for (int k = 0; k < 20; k++) { q[k] = k + 1; last = k * 7; }
  sum = 0;
  for (int k = 0; k < 20; k++) sum += q[k];
  printf("orphaned: %ld last %d\n", sum, last);

  /* reductions: every task folds its partial in when it ends */
  long rs = 5, rp = 1;
  int rmin = 1000, rmax = -1000, rall = 1, rany = 0;
  unsigned rx = 0;
  double rd = 0.5;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(6) reduction(+: rs, rd) reduction(*: rp) reduction(min: rmin) \
    reduction(max: rmax) reduction(&&: rall) reduction(||: rany) reduction(^: rx)
  for (int k = 1; k <= 60; k++) {
    rs += k;
    rd += k * 0.25;
    if (k % 20 == 0) rp *= 3;
    if (k * 7 % 61 < rmin) rmin = k * 7 % 61;
    if (k * 11 % 67 > rmax) rmax = k * 11 % 67;
    rall = rall && k > 0;
    rany = rany || k == 37;
    rx ^= (unsigned)k * 2654435761u;
  }
  printf("reduction: %ld %.2f %ld %d %d %d %d %u\n", rs, rd, rp, rmin, rmax, rall, rany, rx);
  /* min starts from the original, which may already be the answer */
  int lo = -7;
#pragma omp parallel master taskloop reduction(min: lo) num_tasks(3)
  for (int k = 0; k < 30; k++)
    if (k - 3 < lo) lo = k - 3;
  printf("reduction min: %d\n", lo);

  /* parallel master, and the combined form with default(none) (the shared
     list serves the region and the taskloop), taskloop simd */
  int who = -1;
#pragma omp parallel master
  who = omp_get_thread_num();
  long z[50];
#pragma omp parallel master taskloop simd grainsize(4) default(none) shared(z)
  for (int k = 0; k < 50; k++) z[k] = k;
  sum = 0;
  for (int k = 0; k < 50; k++) sum += z[k];
  printf("parallel master: %d %ld\n", who, sum);
  return 0;
}
