// expect: noncanonical_test.c:6:19: error: non-canonical loop: test must be
int a[10];
int main(void)
{
#pragma omp parallel for
  for (int i = 0; i != 10; i++)
    a[i] = i;
  return 0;
}
