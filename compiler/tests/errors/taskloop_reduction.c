// expect: taskloop_reduction.c:5:43: error: reduction 's' on a taskloop with nogroup
int main(void)
{
  long s = 0;
#pragma omp taskloop nogroup reduction(+: s)
  for (int i = 0; i < 10; i++) s += i;
  return (int)s;
}
