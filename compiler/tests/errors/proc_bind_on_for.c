// expect: proc_bind_on_for.c:7:17: error: clause 'proc_bind' is not valid on this directive
int main(void)
{
  int a[10];
#pragma omp parallel
  {
#pragma omp for proc_bind(close)
    for (int i = 0; i < 10; i++) a[i] = i;
  }
  return a[2];
}
