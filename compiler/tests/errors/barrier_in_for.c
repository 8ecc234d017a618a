// expect: barrier_in_for.c:8:13: error: barrier region may not be closely nested
int a[10];
int main(void)
{
#pragma omp parallel for
  for (int i = 0; i < 10; i++) {
    a[i] = i;
#pragma omp barrier
  }
  return 0;
}
