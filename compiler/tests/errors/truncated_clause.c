// expect: truncated_clause.c:6:43: error: expected ')' in OpenMP directive
int a[4];
int main(void)
{
  int i;
#pragma omp parallel for schedule(static, 2
  for (i = 0; i < 4; i++) a[i] = i;
  return 0;
}
