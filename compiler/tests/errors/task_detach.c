// expect: task_detach.c:6:18: error: clause 'detach' is not supported by ompdsmcc
int main(void)
{
  int ev = 0;
  int x = 0;
#pragma omp task detach(ev)
  x++;
  return x;
}
