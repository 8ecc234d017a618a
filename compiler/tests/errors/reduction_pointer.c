// expect: reduction_pointer.c:6:34: error: reduction on 'p' of unsupported type
int main(void)
{
  int v = 0;
  int *p = &v;
#pragma omp parallel reduction(+:p)
  (void)p;
  return v;
}
