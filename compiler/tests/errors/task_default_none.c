// expect: task_default_none.c:7:7: error: 'y' not specified in enclosing 'task' with default(none)
#include <stdio.h>
int main(void)
{
  int x = 0, y = 1;
#pragma omp task default(none) shared(x)
  x = y + 1;
  printf("%d\n", x);
  return 0;
}
