// expect: task_depend_iterator.c:5:25: error: depend modifier 'iterator' is not supported by ompdsmcc
int main(void)
{
  int a[4] = { 0 };
#pragma omp task depend(iterator(i = 0:4), in: a[i])
  a[0]++;
  return a[0];
}
