// expect: cond_outside_critical.c:6:13: error: 'cond_wait' must be inside a critical construct
int main(void)
{
#pragma omp parallel
  {
#pragma omp cond_wait(c)
  }
  return 0;
}
