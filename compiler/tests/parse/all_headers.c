/* Every common system header must parse, translate and compile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <complex.h>
#include <time.h>
#include <sys/time.h>
#include <unistd.h>
#include <pthread.h>
#include <stdint.h>
#include <stdbool.h>
#include <limits.h>
#include <assert.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <ctype.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include <float.h>
#include <inttypes.h>
#include <omp.h>

static int vsum(int n, ...)
{
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}

struct node { int key; struct node *next; };
_Static_assert(sizeof(int) >= 2, "int too small");

int main(void)
{
  struct timeval tv;
  gettimeofday(&tv, NULL);
  double complex z = 1.0 + 2.0 * I;
  bool ok = cabs(z) > 2.0;
  int64_t big = INT64_MAX;
  assert(big > 0);
  size_t off = offsetof(struct node, next);
  __typeof__(off) off2 = off;
  int m = ({ int t = 3; t * 2; });
  int arr[] = { [2] = 5, [0] = 1 };
  struct node n1 = { .key = 4, .next = NULL };
  char buf[32];
  snprintf(buf, sizeof buf, "%" PRId64, (int64_t)42);
  switch (m) { case 1 ... 5: m = 0; break; default: break; }
  int g = _Generic(m, int: 1, default: 0);
  _Alignas(16) int aligned = _Alignof(double);
  printf("%d %d %zu %d %d %d %s %d %d %d\n", ok, vsum(3, 1, 2, 3), off2, arr[2], n1.key, m,
         buf, g, aligned, isdigit('7') != 0);
  return 0;
}
