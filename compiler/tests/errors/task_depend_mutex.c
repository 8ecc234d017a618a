// expect: task_depend_mutex.c:5:25: error: depend kind 'inoutset' is not supported by ompdsmcc (only in, out, inout and mutexinoutset)
int main(void)
{
  int x = 0;
#pragma omp task depend(inoutset: x)
  x++;
  return x;
}
