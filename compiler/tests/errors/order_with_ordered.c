// expect: order_with_ordered.c:6:34: error: an 'ordered' loop may not have order(concurrent)
#include <stdio.h>
int main(void)
{
  int n = 10;
#pragma omp parallel for ordered order(concurrent)
  for (int i = 0; i < n; i++) {
#pragma omp ordered
    printf("%d\n", i);
  }
  return 0;
}
