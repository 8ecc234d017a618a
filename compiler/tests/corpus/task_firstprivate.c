/* The data environment a task gets at creation:
   1. default data-sharing in an orphaned function: its local and its
      parameters are firstprivate, captured when the task is created; the
      caller changes the local right after creating the task, and the task
      must see the old value;
   2. a struct and a fixed-size array made firstprivate explicitly: copied
      by value at creation (the creator overwrites the originals at once),
      and the task's changes to its copies stay in the task;
   3. a pointer that is firstprivate by default: the pointer is copied, the
      heap data it points to is shared, and the task's writes through it
      are seen after taskwait even though the creator reset its pointer;
   4. the same orphaned function called by every thread from a loop, with
      the tasks completed by the loop's barrier;
   5. default(none) with every variable listed, and a private scratch
      variable that the task sets before use (the single's implied
      barrier completes these tasks).
   Checked against the values each task should have captured. */
#include <stdio.h>
#include <stdlib.h>

#define N 64

struct params { int scale; double offset; char tag[8]; };

static void spawn(long *out, int k)
{
  long local = (long)k * 10;
#pragma omp task
  out[k] = local + k;           /* local, k and out: firstprivate */
  local = -1;                   /* after creation: the task keeps k * 10 */
  k = -1;
}

int main(void)
{
  long *out = malloc(2 * N * sizeof *out);
  double *heap = calloc(N, sizeof *heap);
  long res_struct = 0, res_array = 0, after_struct = 0, after_array = 0;
  long bad = 0, sq[N] = { 0 };
  for (int i = 0; i < 2 * N; i++) out[i] = -5;

#pragma omp parallel
  {
#pragma omp single
    {
      /* 1 */
      for (int k = 0; k < N; k++) spawn(out, k);
#pragma omp taskwait

      /* 2 */
      struct params p = { 3, 0.5, "abc" };
      int arr[6] = { 1, 2, 3, 4, 5, 6 };
#pragma omp task firstprivate(p) shared(res_struct)
      {
        p.scale *= 10;          /* the task's own copy */
        res_struct = p.scale + (long)(p.offset * 4) + p.tag[2];
      }
#pragma omp task firstprivate(arr) shared(res_array)
      {
        long s = 0;
        for (int i = 0; i < 6; i++) { arr[i] *= 2; s += arr[i] * (i + 1); }
        res_array = s;
      }
      p.scale = 1000; p.offset = -1; p.tag[2] = 'z';
      for (int i = 0; i < 6; i++) arr[i] = -100;
#pragma omp taskwait
      after_struct = p.scale;
      after_array = arr[0];

      /* 3 */
      double *q = heap;
      for (int t = 0; t < 8; t++) {
#pragma omp task firstprivate(t)
        for (int i = t; i < N; i += 8) q[i] = i * 0.25 + t;
      }
      q = NULL;                 /* the tasks have their own copies */
#pragma omp taskwait
    }

    /* 4: every thread spawns; the loop's implied barrier completes them */
#pragma omp for schedule(static, 3)
    for (int k = 0; k < N; k++) spawn(out + N, k);

    /* 5 */
#pragma omp single
    for (int k = 0; k < N; k++) {
      long scratch = -7;
#pragma omp task default(none) firstprivate(k) private(scratch) shared(sq)
      {
        scratch = (long)k * k;
        sq[k] = scratch + 1;
      }
    }
  }

  long osum = 0;
  double hsum = 0;
  for (int k = 0; k < N; k++) {
    bad += out[k] != 11L * k;
    bad += out[N + k] != 11L * k;
    bad += heap[k] != k * 0.25 + k % 8;
    osum += out[k] + out[N + k];
    hsum += heap[k];
  }
  long sqsum = 0;
  for (int k = 0; k < N; k++) { bad += sq[k] != (long)k * k + 1; sqsum += sq[k]; }
  bad += res_struct != 30 + 2 + 'c';
  bad += res_array != 2 * (1 + 4 + 9 + 16 + 25 + 36);
  bad += after_struct != 1000 || after_array != -100;
  printf("orphaned spawn sum %ld\n", osum);
  printf("struct %ld array %ld (originals now %ld %ld)\n", res_struct, res_array, after_struct, after_array);
  printf("heap via pointer %.2f\n", hsum);
  printf("default(none) sum %ld\n", sqsum);
  printf("%s\n", bad == 0 ? "OK" : "FAIL");
  free(out); free(heap);
  return bad == 0 ? 0 : 1;
}
