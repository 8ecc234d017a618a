// expect: barrier_in_single.c:7:13: error: barrier region may not be closely nested
int main(void)
{
#pragma omp parallel
  {
#pragma omp single
#pragma omp barrier
  }
  return 0;
}
