// expect: noncanonical_init.c:7:3: error: non-canonical loop: init must be
int a[100];
int main(void)
{
  int i = 0;
#pragma omp parallel for
  for (; i < 100; i++)
    a[i] = i;
  return 0;
}
