// expect: bad_reduction_op.c:5:32: error: unknown reduction operator '/'
int main(void)
{
  int x = 0;
#pragma omp parallel reduction(/:x)
  x++;
  return 0;
}
