// expect: taskloop_reduction.c:5:22: error: reduction on taskloop is not supported by ompdsmcc
int main(void)
{
  long s = 0;
#pragma omp taskloop reduction(+: s)
  for (int i = 0; i < 10; i++) s += i;
  return (int)s;
}
