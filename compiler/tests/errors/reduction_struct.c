// expect: reduction_struct.c:6:34: error: reduction on 's' of unsupported type
struct pt { int x, y; };
int main(void)
{
  struct pt s = { 0, 0 };
#pragma omp parallel reduction(+:s)
  s.x++;
  return s.x;
}
