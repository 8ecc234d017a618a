/* pointers into a shared array computed inside the loop */
#include <stdio.h>
struct cell { int v; char tag; };
struct cell grid[512];
int main(void)
{
  struct cell *base = grid;
#pragma omp parallel for
  for (int i = 0; i < 512; i++) {
    struct cell *c = base + i;
    c->v = i * 3;
    c->tag = (char)('A' + i % 26);
  }
  long s = 0; int tags = 0;
  for (int i = 0; i < 512; i++) { s += grid[i].v; tags += grid[i].tag == 'A'; }
  printf("%ld %d\n", s, tags);
  return 0;
}
