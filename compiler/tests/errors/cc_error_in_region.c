// expect: cc_error_in_region.c:8:
/* a type error found by the system compiler inside an outlined region is
   reported against the user's file and line (#line markers) */
int main(void)
{
  struct { int a; } s = { 1 };
#pragma omp parallel
  s.a = s.nosuchfield;
  return 0;
}
