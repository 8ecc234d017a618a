// expect: nonmonotonic_static.c:6:35: error: the 'nonmonotonic' modifier needs a dynamic or guided schedule
int main(void)
{
  int a[10];
  int n = 10;
#pragma omp parallel for schedule(nonmonotonic: static)
  for (int i = 0; i < n; i++) a[i] = i;
  return a[3];
}
