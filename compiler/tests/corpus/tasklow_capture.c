/* Task data-sharing: what a task captures and when (ompdsmcc lowering test).
   Defaults as OpenMP 5.x says for tasks: shared if shared where the task is
   (globals, static locals, what the enclosing region or task shares),
   firstprivate otherwise; firstprivate values are taken at creation. */
#include <stdio.h>
#include <string.h>

struct pt { int x, y; };

int g_counter = 0;
int slots[64];

/* an orphaned task: x, arr and p are locals of this function, so they are
   firstprivate and the task sees them as they were when it was created */
static void orphan(int *out, int base)
{
  int x = base;
  int arr[4] = { base, base + 1, base + 2, base + 3 };
  struct pt p = { base * 10, base * 20 };
  static int calls = 0;          /* static local: shared */
  calls++;
#pragma omp task
  {
    out[0] = x * 1000 + arr[3] * 10 + p.y;
    calls += 100;
    x = -1;                      /* the task's own copy */
  }
  x = 7;
  arr[3] = 77;
  p.y = 777;
#pragma omp taskwait
  out[1] = x;                    /* still 7 */
  out[2] = calls;
}

/* a local written by a task that names it shared, read after taskwait */
static int shared_local(int n)
{
  int r = 0, untouched = 5;
#pragma omp task shared(r)
  r = n * 3;
#pragma omp task
  untouched = 99;                /* firstprivate by default: no effect */
#pragma omp taskwait
  return r + untouched;
}

/* a parameter "double a[n][m]" is a pointer to a VLA: the task copies the
   pointer and the bound it needs, as they are when it is created */
static void scale_rows(int n, int m, double a[n][m])
{
  for (int i = 0; i < n; i++) {
#pragma omp task
    for (int j = 0; j < m; j++) a[i][j] *= i + 2;
  }
  m = 1;
#pragma omp taskwait
}

/* types declared in a function: the task's copies still travel by value */
static int local_types(int k)
{
  struct acc { int v[3]; double w; } a = { { k, k + 1, k + 2 }, 0.5 };
  typedef struct { int n; char tag[4]; } item;
  item it = { 7, "abc" };
  int out = 0;
#pragma omp task shared(out)
  out = a.v[2] * 100 + it.n * 10 + (int)(a.w * 2) + it.tag[1];
  a.v[2] = -1;
  it.n = 0;
#pragma omp taskwait
  return out;
}

int main(void)
{
  printf("local types: %d\n", local_types(5));
  double grid[3][5];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 5; j++) grid[i][j] = i * 5 + j;
#pragma omp parallel
#pragma omp single
  scale_rows(3, 5, grid);
  double gs = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 5; j++) gs = gs * 2 + grid[i][j];
  printf("vla rows: %.0f\n", gs);

  int out[3];
  orphan(out, 4);
  printf("orphan: %d %d %d\n", out[0], out[1], out[2]);
  printf("shared_local: %d\n", shared_local(11));

  int outer = 1;                 /* shared in the region, so in its tasks */
  int vals[8] = { 0 };
#pragma omp parallel
  {
#pragma omp single
    {
      int mine = 50;             /* declared in the region: firstprivate */
      for (int i = 0; i < 8; i++) {
#pragma omp task
        {
          vals[i] = i * 100 + mine;   /* i and mine captured now */
        }
        mine++;
      }
#pragma omp task
      {
        outer = 2;
        g_counter += 1;
      }
#pragma omp taskwait
#pragma omp task default(firstprivate) shared(slots)
      {
        mine += 1000;            /* a copy */
        slots[0] = mine;
      }
#pragma omp task default(shared)
      {
        slots[1] = outer * 10;
      }
      int q = 3;
#pragma omp task private(q)
      {
        q = 40;
        slots[2] = q;
      }
#pragma omp taskwait
      slots[3] = q + mine;
    }
  }
  printf("vals:");
  for (int i = 0; i < 8; i++) printf(" %d", vals[i]);
  printf("\nouter %d g %d slots %d %d %d %d\n", outer, g_counter, slots[0], slots[1], slots[2], slots[3]);

  /* nested tasks: what the outer task shares stays shared (total), its
     private copies (level, inner_local) are firstprivate in the inner task,
     taken when the inner task is created */
  int total = 0, level = 5;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task firstprivate(level)
    {
      int inner_local = level * 2;
#pragma omp task shared(total)
      total += inner_local + level;
      inner_local = 0;
      level = 0;
#pragma omp taskwait
    }
#pragma omp taskwait
  }
  printf("nested: total %d level %d\n", total, level);

  /* a task in a worksharing loop: the loop variable is private to the
     thread, so each task has its own */
  int sq[16];
  memset(sq, 0, sizeof sq);
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < 16; i++) {
#pragma omp task
      sq[i] = i * i;
    }
#pragma omp taskwait
  }
  int s = 0;
  for (int i = 0; i < 16; i++) s += sq[i];
  printf("sq sum %d\n", s);
  return 0;
}
