// expect: duplicate_var.c:5:46: error: 'x' appears more than once in data-sharing clauses
int main(void)
{
  int x = 0;
#pragma omp parallel private(x) firstprivate(x)
  x++;
  return 0;
}
