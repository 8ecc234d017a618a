// expect: barrier_in_task.c:8:13: error: barrier region may not be closely nested inside an explicit task region
int main(void)
{
#pragma omp parallel
  {
#pragma omp task
    {
#pragma omp barrier
    }
  }
  return 0;
}
