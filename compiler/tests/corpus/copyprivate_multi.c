/* copyprivate of several variables, including an array */
#include <stdio.h>
int main(void)
{
  int good = 0;
#pragma omp parallel reduction(+:good)
  {
    int a; double b; int arr[3];
#pragma omp single copyprivate(a, b, arr)
    { a = 7; b = 2.5; arr[0] = 1; arr[1] = 2; arr[2] = 3; }
    good += (a == 7 && b == 2.5 && arr[0] + arr[1] + arr[2] == 6) ? 1 : -1000;
  }
  printf("%d\n", good > 0);
  return 0;
}
