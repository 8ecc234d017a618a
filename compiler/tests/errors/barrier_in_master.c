// expect: barrier_in_master.c:8:13: error: barrier region may not be closely nested
int main(void)
{
#pragma omp parallel
  {
#pragma omp master
    {
#pragma omp barrier
    }
  }
  return 0;
}
