/* Read-only objects next to writable globals (issue 14, class 2): they are
   the same in every process and stay out of the shared sections; putting
   them there made gcc refuse the unit ("section type conflict"). */
#include <stdio.h>

typedef const double cdouble;
static int a = 1, b = 2, c = 3;
static const int limit = 40;
static int *const ptrs[3] = { &a, &b, &c };
static const char *const names[] = { "one", "two", "three" };
static volatile int **const volatile *const deep[2] = { 0, 0 };
static cdouble weights[4] = { 0.5, 0.25, 0.125, 0.0625 };
struct pt { int x, y; };
static const struct pt origin = { 3, 4 };
const int exported_table[3] = { 10, 20, 30 };
static int counts[40];

int main(void)
{
  static const long local_tab[2] = { 100, 200 };
#pragma omp parallel for
  for (int i = 0; i < limit; i++)
    counts[i] = *ptrs[i % 3] + exported_table[i % 3] + (int)(weights[i % 4] * 16) + origin.x + (int)local_tab[i % 2];
  long s = 0;
  for (int i = 0; i < limit; i++) s += counts[i] * (i + 1);
  printf("%ld %s %s %d\n", s, names[0], names[2], deep[1] == 0);
  return 0;
}
