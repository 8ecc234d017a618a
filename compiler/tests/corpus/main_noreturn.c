/* main reaches its closing brace (issue 14, class 3): that returns 0
   (C99 5.1.2.2.3), whatever the last call left in the return register. */
#include <stdio.h>

int total;

int main(void)
{
#pragma omp parallel
  {
#pragma omp atomic
    total += 1;
  }
  printf("regions ran: %d\n", total > 0);
}
