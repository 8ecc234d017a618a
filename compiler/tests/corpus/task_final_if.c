/* The clauses that make tasks undeferred or included:
   1. if(0): the task runs to completion before the creating thread goes
      on, so its result may be read right after the construct, without
      taskwait; if(expr) with an expression true for some iterations;
   2. final(depth > K) in a recursion: from that depth on, every task is
      final and its descendants are included tasks, and omp_in_final() is
      true exactly there (the recursion itself switches to plain calls
      when omp_in_final() says so, as in BOTS's "final" cut-off);
   3. mergeable tasks (inside final tasks, where they may be merged) that
      only read their firstprivate copies, so merging changes nothing.
   The printed results do not depend on whether OpenMP is on; the
   omp_in_final() counts are checked inside (without OpenMP they are 0). */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_in_final(void) { return 0; }
#endif

#define DEPTH 12
#define K 4

static long in_final_calls, deep_calls;   /* updated under atomic */

/* sums the leaves' values of a full binary tree of depth DEPTH */
static long tree(int depth, long id)
{
  if (depth == DEPTH) return id % 17;
  if (depth > K) {
#pragma omp atomic
    deep_calls++;
  }
  if (omp_in_final()) {
#pragma omp atomic
    in_final_calls++;
  }
  long l = 0, r = 0;
#pragma omp task shared(l) firstprivate(depth, id) final(depth + 1 > K)
  l = tree(depth + 1, 2 * id);
#pragma omp task shared(r) firstprivate(depth, id) final(depth + 1 > K) mergeable
  r = tree(depth + 1, 2 * id + 1);
#pragma omp taskwait
  return l + r;
}

static long leaves_seq(int depth, long id)
{
  if (depth == DEPTH) return id % 17;
  return leaves_seq(depth + 1, 2 * id) + leaves_seq(depth + 1, 2 * id + 1);
}

int main(void)
{
  long bad = 0;
  long undeferred[10] = { 0 }, cond[40], treesum = -1;
  long merged_sum = 0;

#pragma omp parallel
  {
#pragma omp single
    {
      /* 1: if(0) completes before the next statement */
      for (int i = 0; i < 10; i++) {
        long v = (long)i * i + 1;
#pragma omp task if(0) shared(undeferred) firstprivate(i, v)
        undeferred[i] = v * 3;
        if (undeferred[i] != ((long)i * i + 1) * 3) bad++;
      }
      for (int i = 0; i < 40; i++) {
#pragma omp task if(i % 3 == 0) shared(cond) firstprivate(i)
        cond[i] = (long)i * 7 - 5;
      }
#pragma omp taskwait

      /* 2: final */
      if (omp_in_final()) bad++;    /* the implicit task is not final */
      treesum = tree(0, 1);

      /* 3: mergeable inside a final task */
#pragma omp task final(1) shared(merged_sum)
      {
#ifdef _OPENMP
        if (!omp_in_final()) bad++;
#endif
        long part[8];
        for (int i = 0; i < 8; i++) {
          long base = 100 * i;
#pragma omp task mergeable firstprivate(base) shared(part) firstprivate(i)
          part[i] = base + i;
        }
#pragma omp taskwait
        for (int i = 0; i < 8; i++) merged_sum += part[i];
      }
#pragma omp taskwait
    }
  }

  long csum = 0, usum = 0;
  for (int i = 0; i < 40; i++) { csum += cond[i]; bad += cond[i] != (long)i * 7 - 5; }
  for (int i = 0; i < 10; i++) usum += undeferred[i];
  /* nodes at depth K+1 .. DEPTH-1 of the full tree run in final tasks */
  long expect_deep = 0;
  for (int d = K + 1; d < DEPTH; d++) expect_deep += 1L << d;
#ifdef _OPENMP
  long expect_final = expect_deep;
#else
  long expect_final = 0;
#endif
  bad += deep_calls != expect_deep;
  bad += in_final_calls != expect_final;
  bad += treesum != leaves_seq(0, 1);
  bad += merged_sum != 100 * 28 + 28;
  printf("if(0) sum %ld, if(expr) sum %ld\n", usum, csum);
  printf("final tree sum %ld, calls below depth %d: %ld\n", treesum, K, deep_calls);
  printf("mergeable sum %ld\n", merged_sum);
  printf("in_final count %s\n", in_final_calls == expect_final ? "as expected" : "wrong");
  printf("%s\n", bad == 0 ? "OK" : "FAIL");
  return bad == 0 ? 0 : 1;
}
