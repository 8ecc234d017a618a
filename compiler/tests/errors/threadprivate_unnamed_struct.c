// expect: threadprivate_unnamed_struct.c:4:34: error: threadprivate variable 'tp' shares a declaration with other variables and an unnamed struct or union; declare it on its own
struct { int x; } shared_s, tp;
struct { int y; } alone;
#pragma omp threadprivate(alone, tp)
int main(void)
{
  return tp.x + shared_s.x + alone.y;
}
