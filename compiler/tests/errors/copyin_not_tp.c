// expect: copyin_not_tp.c:5:29: error: copyin variable 'g' is not threadprivate
int g;
int main(void)
{
#pragma omp parallel copyin(g)
  g++;
  return 0;
}
