// expect: reduction_private_outer.c:8:29: error: reduction variable 'r' is private in the enclosing region; a worksharing construct reduces into a shared variable
int main(void)
{
  long total = 0;
#pragma omp parallel
  {
    long r = 0;
#pragma omp for reduction(+:r)
    for (int i = 0; i < 100; i++) r += i;
    total += r;
  }
  return total == 0;
}
