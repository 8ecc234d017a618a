// expect: task_return.c:7:16: error: 'return' may not leave a 'task' region
int f(int n)
{
  int r = 0;
#pragma omp task shared(r)
  {
    if (n > 3) return;
    r = n;
  }
#pragma omp taskwait
  return r;
}
int main(void) { return f(2); }
