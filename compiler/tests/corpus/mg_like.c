/* A multigrid V-cycle in the style of the NAS MG kernel (issue 14, class 6):
   3-D grids allocated as double *** and handed through static helpers
   whose stencil coefficients arrive as "double c[4]" parameters. Before
   parameters were adjusted, the outlined regions read c as a double[4]
   stored where the pointer was, and one process gave a wrong norm. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define LEVELS 3

static double ***alloc3(int n)
{
  double ***g = malloc(n * sizeof *g);
  double *block = calloc((size_t)n * n * n, sizeof *block);
  for (int i = 0; i < n; i++) {
    g[i] = malloc(n * sizeof **g);
    for (int j = 0; j < n; j++) g[i][j] = block + ((size_t)i * n + j) * n;
  }
  return g;
}

static void zero3(double ***z, int n)
{
  int i, j, k;
#pragma omp parallel for private(j, k)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++) z[i][j][k] = 0.0;
}

/* r = v - A u, A the 27-point operator with coefficients a[0..3] */
static void resid(double ***u, double ***v, double ***r, int n, double a[4])
{
  int i3, i2, i1;
#pragma omp parallel for private(i2, i1)
  for (i3 = 1; i3 < n - 1; i3++)
    for (i2 = 1; i2 < n - 1; i2++)
      for (i1 = 1; i1 < n - 1; i1++) {
        double faces = u[i3][i2][i1 - 1] + u[i3][i2][i1 + 1] + u[i3][i2 - 1][i1] +
                       u[i3][i2 + 1][i1] + u[i3 - 1][i2][i1] + u[i3 + 1][i2][i1];
        double edges = u[i3][i2 - 1][i1 - 1] + u[i3][i2 + 1][i1 + 1] + u[i3 - 1][i2][i1 - 1] + u[i3 + 1][i2][i1 + 1];
        double corners = u[i3 - 1][i2 - 1][i1 - 1] + u[i3 + 1][i2 + 1][i1 + 1];
        r[i3][i2][i1] = v[i3][i2][i1] - a[0] * u[i3][i2][i1] - a[1] * faces - a[2] * edges - a[3] * corners;
      }
}

/* u = u + S r, the smoother with coefficients c[0..3] */
static void psinv(double ***r, double ***u, int n, double c[4])
{
  int i3;
#pragma omp parallel for
  for (i3 = 1; i3 < n - 1; i3++) {
    int i2, i1;
    for (i2 = 1; i2 < n - 1; i2++)
      for (i1 = 1; i1 < n - 1; i1++)
        u[i3][i2][i1] += c[0] * r[i3][i2][i1] +
                         c[1] * (r[i3][i2][i1 - 1] + r[i3][i2][i1 + 1] + r[i3][i2 - 1][i1] + r[i3][i2 + 1][i1]) +
                         c[2] * (r[i3 - 1][i2][i1] + r[i3 + 1][i2][i1]) + c[3] * r[i3 - 1][i2 - 1][i1 - 1];
  }
}

/* restriction: coarse = average of the fine 2x2x2 block */
static void rprj3(double ***fine, int nf, double ***coarse, int nc)
{
#pragma omp parallel for
  for (int i3 = 1; i3 < nc - 1; i3++)
    for (int i2 = 1; i2 < nc - 1; i2++)
      for (int i1 = 1; i1 < nc - 1; i1++) {
        int f3 = 2 * i3 - 1, f2 = 2 * i2 - 1, f1 = 2 * i1 - 1;
        double s = 0;
        for (int d = 0; d < 8; d++) s += fine[f3 + (d >> 2)][f2 + ((d >> 1) & 1)][f1 + (d & 1)];
        coarse[i3][i2][i1] = s / 8;
      }
  (void)nf;
}

/* prolongation: fine += coarse value of the enclosing block */
static void interp(double ***coarse, int nc, double ***fine, int nf)
{
  int i3;
#pragma omp parallel for
  for (i3 = 1; i3 < nf - 1; i3++)
    for (int i2 = 1; i2 < nf - 1; i2++)
      for (int i1 = 1; i1 < nf - 1; i1++)
        fine[i3][i2][i1] += coarse[(i3 + 1) / 2][(i2 + 1) / 2][(i1 + 1) / 2];
  (void)nc;
}

static double norm2(double ***r, int n)
{
  double s = 0;
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      for (int k = 1; k < n - 1; k++) s += r[i][j][k] * r[i][j][k];
  return sqrt(s / ((double)(n - 2) * (n - 2) * (n - 2)));
}

static void vcycle(double ***u[], double ***r[], int size[], double a[4], double c[4])
{
  for (int l = 0; l + 1 < LEVELS; l++) rprj3(r[l], size[l], r[l + 1], size[l + 1]);
  zero3(u[LEVELS - 1], size[LEVELS - 1]);
  psinv(r[LEVELS - 1], u[LEVELS - 1], size[LEVELS - 1], c);
  for (int l = LEVELS - 2; l >= 0; l--) {
    if (l > 0) zero3(u[l], size[l]);
    interp(u[l + 1], size[l + 1], u[l], size[l]);
    psinv(r[l], u[l], size[l], c);
  }
}

int main(void)
{
  double a[4] = { -8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0 };
  double c[4] = { -3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0 };
  int size[LEVELS] = { 34, 18, 10 };
  double ***u[LEVELS], ***r[LEVELS];
  for (int l = 0; l < LEVELS; l++) { u[l] = alloc3(size[l]); r[l] = alloc3(size[l]); }
  double ***v = alloc3(size[0]);
  for (int k = 0; k < 20; k++) {     /* a few point charges, as MG's zran3 places them */
    int i = 1 + (k * 7) % 32, j = 1 + (k * 13) % 32, m = 1 + (k * 29) % 32;
    v[i][j][m] = k % 2 ? 1.0 : -1.0;
  }
  resid(u[0], v, r[0], size[0], a);
  printf("initial %.10e\n", norm2(r[0], size[0]));
  for (int it = 0; it < 4; it++) {
    vcycle(u, r, size, a, c);
    resid(u[0], v, r[0], size[0], a);
    printf("iter %d %.10e\n", it + 1, norm2(r[0], size[0]));
  }
  return 0;
}
