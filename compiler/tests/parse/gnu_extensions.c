/* GNU C and C11 constructs that glibc headers and real programs use. */
#include <stdio.h>
#include <omp.h>

typedef struct __attribute__((packed)) { char c; int i; } packed_t;
struct bits { unsigned a : 3, b : 5; unsigned : 0; int tail; };
union u { int i; float f; struct { short lo, hi; }; };
enum color { RED, GREEN = 5, BLUE, };
static __thread int tls_counter;
_Thread_local int tls2;
extern int renamed(int) __asm__("puts_like_renamed");
__extension__ typedef long long ll_t;
static const double table[] __attribute__((aligned(16))) = { 1.0, 2.0 };
__int128 wide;
_Float128 quad;
_Atomic int atom;
static int (*fptrs[2])(const char *) = { puts, 0 };
__attribute__((noinline, unused)) static int attr_fn(int x __attribute__((unused))) { return 1; }
static inline __attribute__((always_inline)) int add(int a, int b) { return a + b; }

int knr(a, b)
  int a;
  int b;
{
  return a + b;
}

static int sum_cl(void)
{
  int *p = (int[]){ 1, 2, 3 };
  struct bits bb = (struct bits){ .a = 1, .b = 2 };
  return p[0] + p[1] + p[2] + bb.a + bb.b;
}

int main(int argc, char **argv)
{
  packed_t pk = { 'x', 3 };
  union u uu = { .i = 7 };
  enum color c = BLUE;
  ll_t big = 1LL << 40;
  double _Complex zc = 1.0;
  double re = __real__ zc;
  int same = __builtin_types_compatible_p(int, signed int);
  unsigned long o = __builtin_offsetof(struct bits, tail);
  int r = 0;
  tls_counter = 1;
  __asm__ __volatile__("" ::: "memory");
  if (argc > 5) goto out;
  for (int i = 0; i < 3; i++) r += i;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
  int unused_here;
#pragma GCC diagnostic pop
  r += sum_cl() + knr(1, 2) + add(1, 1) + attr_fn(0) + (fptrs[1] == 0);
out:
  printf("%d %d %d %ld %d %.0f %d %lu %d %d\n", pk.i, uu.i, c, (long)(big >> 40), r, re + table[1], same, o,
         (int)sizeof(wide), argv != 0);
  return 0;
}
