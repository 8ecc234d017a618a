/* N-queens with tasks in the style of BOTS nqueens: for each column of the
   next row a task copies the partial board into its own alloca()'d array,
   adds the queen, and if the board is still legal recurses. Each task
   writes its count into an array (a VLA) in the parent's stack frame,
   shared(csols), so tasks write into another task's frame; the parent
   waits with taskwait and sums. Below a depth cut-off the search is
   sequential. The tasks are untied, as in BOTS. Checked against a
   sequential search and the known count. */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

#define N 10
#define CUTOFF 2

/* queens a[0..n-1] (a[i] = column of the queen in row i) do not attack */
static int ok(int n, const char *a)
{
  for (int i = 0; i < n; i++) {
    char p = a[i];
    for (int j = i + 1; j < n; j++) {
      char q = a[j];
      if (q == p || q == p - (j - i) || q == p + (j - i)) return 0;
    }
  }
  return 1;
}

static long nqueens_seq(int n, int j, char *a)
{
  if (n == j) return 1;
  long count = 0;
  for (int i = 0; i < n; i++) {
    a[j] = (char)i;
    if (ok(j + 1, a)) count += nqueens_seq(n, j + 1, a);
  }
  return count;
}

static void nqueens(int n, int j, char *a, long *solutions, int depth)
{
  if (n == j) { *solutions = 1; return; }
  if (depth >= CUTOFF) {
    char *b = alloca(n);
    memcpy(b, a, j);
    *solutions = nqueens_seq(n, j, b);
    return;
  }
  long csols[n];
  memset(csols, 0, sizeof csols);
  for (int i = 0; i < n; i++) {
#pragma omp task untied firstprivate(i, a, n, j, depth) shared(csols)
    {
      char *b = alloca(n);
      memcpy(b, a, j);
      b[j] = (char)i;
      if (ok(j + 1, b)) nqueens(n, j + 1, b, &csols[i], depth + 1);
    }
  }
#pragma omp taskwait
  long total = 0;
  for (int i = 0; i < n; i++) total += csols[i];
  *solutions = total;
}

int main(void)
{
  static const long known[] = { 1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200 };
  long par = -1;
  char board[N];
#pragma omp parallel
  {
#pragma omp single
    {
      char *a = alloca(N);
      memset(a, 0, N);
      nqueens(N, 0, a, &par, 0);
    }
  }
  long seq = nqueens_seq(N, 0, board);
  printf("%d-queens: %ld solutions\n", N, par);
  int good = par == seq && par == known[N];
  printf("%s\n", good ? "OK" : "FAIL");
  return good ? 0 : 1;
}
