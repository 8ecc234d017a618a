// expect: proc_bind_kind.c:5:32: error: expected master, primary, close or spread in proc_bind
int main(void)
{
  int x = 0;
#pragma omp parallel proc_bind(tight) reduction(+:x)
  x++;
  return x;
}
