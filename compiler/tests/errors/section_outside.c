// expect: section_outside.c:4:13: error: 'omp section' outside 'omp sections'
int main(void)
{
#pragma omp section
  ;
  return 0;
}
