// expect: task_bad_clause.c:5:18: error: clause 'schedule' is not valid on this directive
int main(void)
{
  int x = 0;
#pragma omp task schedule(static)
  x++;
  return x;
}
