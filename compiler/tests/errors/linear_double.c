// expect: linear_double.c:6:33: error: linear variable 'x' must have an integer or pointer type
int main(void)
{
  double x = 0, a[10];
  int n = 10;
#pragma omp parallel for linear(x:0.5)
  for (int i = 0; i < n; i++) a[i] = x;
  return (int)a[1];
}
