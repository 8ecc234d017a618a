/* taskloop over an irregular loop (iteration i does work proportional to
   i, as in a triangular solve), three ways, each generated from single:
   grainsize(16); num_tasks(7) over a loop whose bounds are variables and
   whose step is 3; and nogroup followed by an explicit taskwait (without
   the taskwait nothing would wait for those tasks). Each iteration writes
   its own slot; the sums (a reduction through per-iteration slots) are
   added after the loop and checked against a sequential loop. */
#include <stdio.h>
#include <stdlib.h>

#define N 1500

static unsigned long long work(long i)
{
  unsigned long long h = (unsigned long long)i * 2654435761ULL + 1;
  for (long k = 0; k < i; k++) h = h * 6364136223846793005ULL + (unsigned long long)k;
  return h >> 20;
}

int main(void)
{
  unsigned long long *a = malloc(N * sizeof *a);
  unsigned long long *b = malloc(N * sizeof *b);
  unsigned long long *c = malloc(N * sizeof *c);
  long lo = 5, hi = N - 7;
  for (long i = 0; i < N; i++) a[i] = b[i] = c[i] = 0;

#pragma omp parallel
  {
#pragma omp single
    {
#pragma omp taskloop grainsize(16)
      for (long i = 0; i < N; i++)
        a[i] = work(i);

#pragma omp taskloop num_tasks(7) firstprivate(lo, hi)
      for (long i = lo; i < hi; i += 3)
        b[i] = work(N - i) ^ (unsigned long long)i;

#pragma omp taskloop nogroup grainsize(50)
      for (long i = N - 1; i >= 0; i--)
        c[i] = a[i] + work(i / 2);
#pragma omp taskwait
    }
  }

  unsigned long long sa = 0, sb = 0, sc = 0, ra = 0, rb = 0, rc = 0;
  long bad = 0;
  for (long i = 0; i < N; i++) {
    unsigned long long ea = work(i);
    unsigned long long eb = (i >= lo && i < hi && (i - lo) % 3 == 0) ? (work(N - i) ^ (unsigned long long)i) : 0;
    unsigned long long ec = ea + work(i / 2);
    bad += a[i] != ea;
    bad += b[i] != eb;
    bad += c[i] != ec;
    sa += a[i]; sb += b[i]; sc += c[i];
    ra += ea; rb += eb; rc += ec;
  }
  printf("grainsize sum %llu\n", sa);
  printf("num_tasks sum %llu\n", sb);
  printf("nogroup sum %llu\n", sc);
  printf("wrong slots %ld\n", bad);
  int good = bad == 0 && sa == ra && sb == rb && sc == rc;
  printf("%s\n", good ? "OK" : "FAIL");
  free(a); free(b); free(c);
  return good ? 0 : 1;
}
