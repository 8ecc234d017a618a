// expect: noncanonical_incr.c:6:28: error: non-canonical loop: increment must be
int a[100];
int main(void)
{
#pragma omp parallel for
  for (int i = 1; i < 100; i *= 2)
    a[i] = i;
  return 0;
}
