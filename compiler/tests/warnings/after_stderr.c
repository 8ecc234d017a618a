/* A system header's macro used in the user's code (stderr, which cc -E
 * marks as a system header's for that token alone): the user's code after
 * it keeps its warnings. Before 2026-12-07 ompdsmcc took the rest of the
 * file for a system header, and cc said nothing about it. */
#include <stdio.h>

static int report(int n, int spare)
{
  fprintf(stderr, "n = %d\n", n);
  int unused;
  return n;
}

int main(void)
{
  int sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 8; i++)
    sum += report(i, 0);
  fprintf(stderr, "sum = %d\n", sum);
  return sum == 28 ? 0 : 1;
}
