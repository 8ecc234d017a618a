// expect: unknown_directive.c:5:13: error: unknown OpenMP directive 'paralel'
int main(void)
{
  int x = 0;
#pragma omp paralel
  x++;
  return x;
}
