// expect: for_without_loop.c:6:3: error: 'omp for' must be followed by a for loop
int main(void)
{
  int i = 0;
#pragma omp parallel for
  while (i < 10) i++;
  return 0;
}
