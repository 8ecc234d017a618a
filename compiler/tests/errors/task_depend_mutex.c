// expect: task_depend_mutex.c:5:25: error: depend kind 'mutexinoutset' is not supported by ompdsmcc (only in, out and inout)
int main(void)
{
  int x = 0;
#pragma omp task depend(mutexinoutset: x)
  x++;
  return x;
}
