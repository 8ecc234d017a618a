// expect: collapse_not_nested.c:7:32: error: collapse(2) needs 2 perfectly nested loops
int a[10];
int main(void)
{
  int s = 0;
#pragma omp parallel for collapse(2)
  for (int i = 0; i < 10; i++) { s++; a[i] = s; }
  return 0;
}
