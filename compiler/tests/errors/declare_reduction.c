// expect: declare_reduction.c:6:21: error: 'declare reduction' (a user-defined reduction) is not supported by ompdsmcc
/* Refused at the declaration, not at its first use (issue 56). */
#include <stdio.h>
struct pt { double x, y; };

#pragma omp declare reduction(ptadd : struct pt : omp_out.x += omp_in.x, omp_out.y += omp_in.y) initializer(omp_priv = (struct pt){0, 0})

int main(void)
{
  struct pt s = {0, 0};
#pragma omp parallel for reduction(ptadd : s)
  for (int i = 0; i < 10; i++) { s.x += i; s.y -= i; }
  printf("%g %g\n", s.x, s.y);
  return 0;
}
