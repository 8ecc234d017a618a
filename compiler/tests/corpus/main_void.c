/* main without a return type parameter list and with static data */
#include <stdio.h>
static int table[4] = { 1, 2, 3, 4 };
int main()
{
  int s = 0;
#pragma omp parallel for reduction(+:s)
  for (int i = 0; i < 4; i++) s += table[i];
  printf("%d\n", s);
  return 0;
}
