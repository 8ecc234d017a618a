// expect: task_vla_firstprivate.c:6:31: error: firstprivate 'v' of a task has a variably modified type, which ompdsmcc cannot copy into the task (make it shared, or copy the data yourself)
void f(int n)
{
  double v[n];
  for (int i = 0; i < n; i++) v[i] = i;
#pragma omp task firstprivate(v)
  v[0] += 1;
#pragma omp taskwait
}
int main(void) { f(3); return 0; }
