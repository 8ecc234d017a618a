// expect: default_none.c:7:5: error: 'y' not specified in enclosing 'parallel' with default(none)
int main(void)
{
  int x = 0, y = 1;
#pragma omp parallel default(none) shared(x)
  {
    y++;
    x++;
  }
  return 0;
}
