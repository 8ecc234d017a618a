// expect: taskloop_bad_combination.c:5:13: error: this combination of constructs is not supported by ompdsmcc
int main(void)
{
  int a[8];
#pragma omp parallel for taskloop
  for (int i = 0; i < 8; i++) a[i] = i;
  return a[3];
}
