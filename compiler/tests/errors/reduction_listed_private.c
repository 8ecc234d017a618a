// expect: reduction_listed_private.c:7:34: error: reduction variable 's' is private in the enclosing region; a worksharing construct reduces into a shared variable
int main(void)
{
  int s = 0;
#pragma omp parallel private(s)
  {
#pragma omp sections reduction(+:s)
    {
#pragma omp section
      s = 1;
    }
  }
  return s;
}
