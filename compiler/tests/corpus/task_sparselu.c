/* Sparse LU factorisation in the style of BOTS sparselu (written here): an
   NB x NB matrix of BS x BS blocks of doubles, some blocks absent (NULL).
   For each kk: lu0 on the diagonal block, fwd on the blocks of row kk, bdiv
   on the blocks of column kk, bmod on the trailing blocks, allocating the
   fill-in blocks (zeroed) as they appear. Every kernel is a task with
   depend(in/inout) on the block pointers M[i][j] (the pointer cell stands
   for its block), all generated from one single; the dependences alone
   order them (no taskwait until the end). The fill-in is allocated by the
   generating thread while earlier tasks run. Checked against the same
   factorisation done sequentially (relative tolerance 1e-9 per element),
   and printed as a rounded checksum and the final sparsity. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NB 8
#define BS 16

typedef double *Matrix[NB][NB];

static void genmat(Matrix M)
{
  unsigned long long s = 1325ULL;
  for (int ii = 0; ii < NB; ii++)
    for (int jj = 0; jj < NB; jj++) {
      /* the diagonal, its neighbours and a fixed pattern of others */
      int present = ii == jj || ii == jj + 1 || jj == ii + 1 ||
                    (ii * 7 + jj * 3) % 5 == 0;
      if (!present) { M[ii][jj] = NULL; continue; }
      double *b = malloc(BS * BS * sizeof *b);
      for (int i = 0; i < BS; i++)
        for (int j = 0; j < BS; j++) {
          s = s * 6364136223846793005ULL + 1442695040888963407ULL;
          double v = (double)(s >> 40) / (double)(1ULL << 24) - 0.5;  /* [-0.5, 0.5) */
          /* diagonally dominant on the diagonal blocks: no pivoting needed */
          if (ii == jj && i == j) v += 4.0 * BS;
          b[i * BS + j] = v;
        }
      M[ii][jj] = b;
    }
}

static double *zero_block(void)
{
  return calloc(BS * BS, sizeof(double));
}

static void lu0(double *diag)
{
  for (int k = 0; k < BS; k++)
    for (int i = k + 1; i < BS; i++) {
      diag[i * BS + k] /= diag[k * BS + k];
      for (int j = k + 1; j < BS; j++)
        diag[i * BS + j] -= diag[i * BS + k] * diag[k * BS + j];
    }
}

static void fwd(const double *diag, double *col)
{
  for (int k = 0; k < BS; k++)
    for (int i = k + 1; i < BS; i++)
      for (int j = 0; j < BS; j++)
        col[i * BS + j] -= diag[i * BS + k] * col[k * BS + j];
}

static void bdiv(const double *diag, double *row)
{
  for (int i = 0; i < BS; i++)
    for (int k = 0; k < BS; k++) {
      row[i * BS + k] /= diag[k * BS + k];
      for (int j = k + 1; j < BS; j++)
        row[i * BS + j] -= row[i * BS + k] * diag[k * BS + j];
    }
}

static void bmod(const double *row, const double *col, double *inner)
{
  for (int i = 0; i < BS; i++)
    for (int j = 0; j < BS; j++) {
      double t = 0;
      for (int k = 0; k < BS; k++) t += row[i * BS + k] * col[k * BS + j];
      inner[i * BS + j] -= t;
    }
}

static void sparselu_seq(Matrix M)
{
  for (int kk = 0; kk < NB; kk++) {
    lu0(M[kk][kk]);
    for (int jj = kk + 1; jj < NB; jj++)
      if (M[kk][jj]) fwd(M[kk][kk], M[kk][jj]);
    for (int ii = kk + 1; ii < NB; ii++)
      if (M[ii][kk]) bdiv(M[kk][kk], M[ii][kk]);
    for (int ii = kk + 1; ii < NB; ii++)
      if (M[ii][kk])
        for (int jj = kk + 1; jj < NB; jj++)
          if (M[kk][jj]) {
            if (!M[ii][jj]) M[ii][jj] = zero_block();
            bmod(M[ii][kk], M[kk][jj], M[ii][jj]);
          }
  }
}

static void sparselu_task(Matrix M)
{
  for (int kk = 0; kk < NB; kk++) {
#pragma omp task firstprivate(kk) shared(M) depend(inout: M[kk][kk])
    lu0(M[kk][kk]);
    for (int jj = kk + 1; jj < NB; jj++)
      if (M[kk][jj]) {
#pragma omp task firstprivate(kk, jj) shared(M) depend(in: M[kk][kk]) depend(inout: M[kk][jj])
        fwd(M[kk][kk], M[kk][jj]);
      }
    for (int ii = kk + 1; ii < NB; ii++)
      if (M[ii][kk]) {
#pragma omp task firstprivate(kk, ii) shared(M) depend(in: M[kk][kk]) depend(inout: M[ii][kk])
        bdiv(M[kk][kk], M[ii][kk]);
      }
    for (int ii = kk + 1; ii < NB; ii++)
      if (M[ii][kk])
        for (int jj = kk + 1; jj < NB; jj++)
          if (M[kk][jj]) {
            /* no task refers to a NULL cell yet: filling it here is safe */
            if (!M[ii][jj]) M[ii][jj] = zero_block();
#pragma omp task firstprivate(kk, ii, jj) shared(M) depend(in: M[ii][kk], M[kk][jj]) depend(inout: M[ii][jj])
            bmod(M[ii][kk], M[kk][jj], M[ii][jj]);
          }
  }
#pragma omp taskwait
}

int main(void)
{
  static Matrix A, R;
  genmat(A);
  genmat(R);
  int before = 0;
  for (int ii = 0; ii < NB; ii++)
    for (int jj = 0; jj < NB; jj++) before += A[ii][jj] != NULL;

#pragma omp parallel
  {
#pragma omp single
    sparselu_task(A);
  }
  sparselu_seq(R);

  int after = 0;
  long bad = 0;
  double sum = 0, asum = 0;
  for (int ii = 0; ii < NB; ii++)
    for (int jj = 0; jj < NB; jj++) {
      if ((A[ii][jj] == NULL) != (R[ii][jj] == NULL)) { bad++; continue; }
      if (!A[ii][jj]) continue;
      after++;
      for (int k = 0; k < BS * BS; k++) {
        double a = A[ii][jj][k], r = R[ii][jj][k];
        if (fabs(a - r) > 1e-9 * (fabs(r) + 1.0)) bad++;
        sum += r;
        asum += fabs(r);
      }
    }
  printf("%dx%d blocks of %dx%d: %d present, %d after fill-in\n", NB, NB, BS, BS, before, after);
  printf("checksum %.6e abs %.6e\n", sum, asum);
  printf("mismatches %ld\n", bad);
  printf("%s\n", bad == 0 ? "OK" : "FAIL");
  for (int ii = 0; ii < NB; ii++)
    for (int jj = 0; jj < NB; jj++) { free(A[ii][jj]); free(R[ii][jj]); }
  return bad == 0 ? 0 : 1;
}
