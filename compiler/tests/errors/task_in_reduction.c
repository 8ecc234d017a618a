// expect: task_in_reduction.c:7:18: error: clause 'in_reduction' is not supported by ompdsmcc
int main(void)
{
  int s = 0;
#pragma omp taskgroup
  {
#pragma omp task in_reduction(+: s)
    s += 1;
  }
  return s;
}
