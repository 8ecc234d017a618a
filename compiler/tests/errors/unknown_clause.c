// expect: unknown_clause.c:5:22: error: unknown OpenMP clause 'privat'
int main(void)
{
  int x = 0;
#pragma omp parallel privat(x)
  x++;
  return x;
}
