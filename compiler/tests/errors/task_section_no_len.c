// expect: task_section_no_len.c:5:29: error: array section of pointer 'p' in depend needs a length
int main(void)
{
  int *p = 0;
#pragma omp task depend(in: p[2:])
  p = 0;
  return 0;
}
