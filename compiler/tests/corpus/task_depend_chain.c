/* Task dependences where the order decides the result, all generated from
   single with no taskwait between the tasks:
   1. a chain on a scalar: x = x * 3 + i (mod 2^32) with depend(inout: x),
      started by a depend(out: x) task;
   2. diamonds: a = f(k) (out a); b = a + 1 and c = 2a (in a, out b / out
      c, may run together); d = b * c + d (in b, c; inout d); the next
      diamond's out(a) must wait for both readers of the last a;
   3. readers before a writer: R tasks depend(in: y) copy y, then a
      depend(inout: y) task changes it; every copy must be the old value;
   4. a wavefront over array elements: v[i] depends on v[i-1] (in) and
      writes v[i] (out), then a second sweep updates each v[i] in place
      (inout), in reverse order of creation within each element's chain.
   Checked against the same computation done sequentially. */
#include <stdio.h>

#define CHAIN 200
#define DIAMONDS 40
#define READERS 16
#define LEN 64

static unsigned spin(unsigned v, int n)
{
  /* a little work, so that out-of-order execution would show */
  for (int r = 0; r < n; r++) v = v * 1664525u + 1013904223u;
  return v;
}

int main(void)
{
  unsigned x = 0, a = 0, b = 0, c = 0, d = 0, y = 0;
  unsigned copies[READERS];
  unsigned v[LEN], w[LEN];

#pragma omp parallel
  {
#pragma omp single
    {
      /* 1: a chain on a scalar */
#pragma omp task depend(out: x) shared(x)
      x = spin(7u, 100) & 0xffu;
      for (int i = 0; i < CHAIN; i++) {
#pragma omp task depend(inout: x) shared(x) firstprivate(i)
        x = x * 3u + (unsigned)i + (spin((unsigned)i, i % 7) & 1u);
      }

      /* 2: diamonds */
      for (int k = 0; k < DIAMONDS; k++) {
#pragma omp task depend(out: a) shared(a) firstprivate(k)
        a = spin((unsigned)k, 50) % 1000u;
#pragma omp task depend(in: a) depend(out: b) shared(a, b)
        b = a + 1u;
#pragma omp task depend(in: a) depend(out: c) shared(a, c)
        c = 2u * spin(a, 30) % 997u;
#pragma omp task depend(in: b, c) depend(inout: d) shared(b, c, d)
        d = d * 31u + b * c;
      }

      /* 3: readers, then a writer, then readers again */
#pragma omp task depend(out: y) shared(y)
      y = 12345u;
      for (int r = 0; r < READERS / 2; r++) {
#pragma omp task depend(in: y) shared(y, copies) firstprivate(r)
        copies[r] = y;
      }
#pragma omp task depend(inout: y) shared(y)
      y = y * 2u + 1u;
      for (int r = READERS / 2; r < READERS; r++) {
#pragma omp task depend(in: y) shared(y, copies) firstprivate(r)
        copies[r] = y;
      }

      /* 4: a wavefront over v[], then an in-place sweep per element */
#pragma omp task depend(out: v[0]) shared(v)
      v[0] = 1u;
      for (int i = 1; i < LEN; i++) {
#pragma omp task depend(in: v[i - 1]) depend(out: v[i]) shared(v) firstprivate(i)
        v[i] = spin(v[i - 1], 20) % 100000u + (unsigned)i;
      }
      for (int i = LEN - 1; i >= 0; i--) {
#pragma omp task depend(inout: v[i]) shared(v, w) firstprivate(i)
        { v[i] = v[i] * 5u + 3u; w[i] = v[i] % 7u; }
      }
#pragma omp taskwait
    }
  }

  /* the same, sequentially */
  unsigned sx = spin(7u, 100) & 0xffu, sd = 0, sy, sv[LEN];
  for (int i = 0; i < CHAIN; i++) sx = sx * 3u + (unsigned)i + (spin((unsigned)i, i % 7) & 1u);
  for (int k = 0; k < DIAMONDS; k++) {
    unsigned sa = spin((unsigned)k, 50) % 1000u;
    sd = sd * 31u + (sa + 1u) * (2u * spin(sa, 30) % 997u);
  }
  sy = 12345u * 2u + 1u;
  sv[0] = 1u;
  for (int i = 1; i < LEN; i++) sv[i] = spin(sv[i - 1], 20) % 100000u + (unsigned)i;
  long bad = 0;
  unsigned vsum = 0;
  for (int i = 0; i < LEN; i++) {
    unsigned e = sv[i] * 5u + 3u;
    bad += v[i] != e || w[i] != e % 7u;
    vsum += v[i];
  }
  for (int r = 0; r < READERS; r++) bad += copies[r] != (r < READERS / 2 ? 12345u : sy);
  bad += x != sx;
  bad += d != sd;
  bad += y != sy;
  printf("chain x = %u\n", x);
  printf("diamonds d = %u\n", d);
  printf("readers/writer y = %u\n", y);
  printf("wavefront v[last] = %u sum %u\n", v[LEN - 1], vsum);
  printf("%s\n", bad == 0 ? "OK" : "FAIL");
  return bad == 0 ? 0 : 1;
}
