// expect: task_reduction.c:5:23: error: clause 'task_reduction' is not supported by ompdsmcc
int main(void)
{
  int s = 0;
#pragma omp taskgroup task_reduction(+: s)
  {
    s += 1;
  }
  return s;
}
