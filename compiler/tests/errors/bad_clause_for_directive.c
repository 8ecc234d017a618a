// expect: bad_clause_for_directive.c:5:22: error: clause 'schedule' is not valid on this directive
int main(void)
{
  int x = 0;
#pragma omp parallel schedule(static)
  x++;
  return x;
}
