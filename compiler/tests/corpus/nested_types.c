/* Types that exist only inside the function that holds the region: a
   block-scope struct tag, a typedef of it, an enum, and a struct with the
   same tag name as a file-scope one. The outlined function repeats them. */
#include <stdio.h>

struct cell { char tag; };

int main(void)
{
  struct cell { int v; double w; };
  typedef struct cell cell_t;
  enum color { RED = 2, GREEN = 5 };
  typedef enum color color_t;
  cell_t grid[20];
  struct { int hits; } stats = { 0 };
  color_t pick = GREEN;
#pragma omp parallel for
  for (int i = 0; i < 20; i++) {
    struct cell *p = &grid[i];
    p->v = i * pick;
    p->w = i * 0.5 + (enum color)RED;
  }
  for (int i = 0; i < 20; i++) stats.hits += grid[i].v + (int)grid[i].w;
#pragma omp parallel
  {
#pragma omp single
    stats.hits += (int)sizeof(cell_t) > 0;
  }
  printf("%d\n", stats.hits);
  return 0;
}
