/* A 2-D thermal simulation in the style of Rodinia's hotspot (written
   here): the master writes the chip's initial temperatures and power to two
   input files and reads them back into shared grids; one parallel region
   runs every time step as a worksharing loop over rows, each thread
   swapping its own pair of grid pointers after the loop's barrier; the
   master then writes the final temperatures to an output file, as hotspot
   does, and reads the file back for the summary. Each cell's update is the
   same sequence of floating-point operations as under gcc, so the output
   must match to the last digit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROWS 96
#define COLS 80
#define STEPS 30

/* chip and material constants, as hotspot derives them */
#define CHIP_H 0.016
#define CHIP_W 0.016
#define T_CHIP 0.0005
#define K_SI 100.0
#define SPEC_HEAT 1.75e6
#define AMB 80.0
#define PRECISION 0.001
#define MAX_PD 3.0e6

static double temp_a[ROWS][COLS], temp_b[ROWS][COLS], power[ROWS][COLS];

static void write_inputs(const char *tpath, const char *ppath)
{
  FILE *t = fopen(tpath, "w"), *p = fopen(ppath, "w");
  if (!t || !p) { perror("inputs"); exit(1); }
  unsigned s = 12345;
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < COLS; c++) {
      s = s * 1103515245u + 12345u;
      fprintf(t, "%.6f\n", 320.0 + (s >> 16) % 1000 / 100.0);
      /* two hot blocks, as a floorplan might have */
      int hot = (r > 20 && r < 40 && c > 10 && c < 30) || (r > 60 && c > 50);
      fprintf(p, "%.9f\n", hot ? 0.004 + (s >> 8) % 100 * 1e-5 : 0.0002);
    }
  fclose(t);
  fclose(p);
}

static void read_grid(const char *path, double g[ROWS][COLS])
{
  FILE *f = fopen(path, "r");
  if (!f) { perror(path); exit(1); }
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < COLS; c++)
      if (fscanf(f, "%lf", &g[r][c]) != 1) { printf("%s: short at %d,%d\n", path, r, c); exit(1); }
  fclose(f);
}

int main(void)
{
  char tpath[64], ppath[64], opath[64];
  int pid = (int)getpid();
  snprintf(tpath, sizeof tpath, "/tmp/ompdsm-hotspot-%d.temp", pid);
  snprintf(ppath, sizeof ppath, "/tmp/ompdsm-hotspot-%d.power", pid);
  snprintf(opath, sizeof opath, "/tmp/ompdsm-hotspot-%d.out", pid);
  write_inputs(tpath, ppath);
  read_grid(tpath, temp_a);
  read_grid(ppath, power);

  double grid_h = CHIP_H / ROWS, grid_w = CHIP_W / COLS;
  double cap = 0.5 * SPEC_HEAT * T_CHIP * grid_w * grid_h;
  double rx = grid_w / (2.0 * K_SI * T_CHIP * grid_h);
  double ry = grid_h / (2.0 * K_SI * T_CHIP * grid_w);
  double rz = T_CHIP / (K_SI * grid_h * grid_w);
  double max_slope = MAX_PD / (0.5 * T_CHIP * SPEC_HEAT);
  double step = PRECISION / max_slope;
  double (*final)[COLS] = STEPS % 2 ? temp_b : temp_a;

#pragma omp parallel
  {
    double (*src)[COLS] = temp_a, (*dst)[COLS] = temp_b;
    for (int s = 0; s < STEPS; s++) {
#pragma omp for schedule(static)
      for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) {
          double t = src[r][c];
          double n = r > 0 ? src[r - 1][c] : t, so = r < ROWS - 1 ? src[r + 1][c] : t;
          double w = c > 0 ? src[r][c - 1] : t, e = c < COLS - 1 ? src[r][c + 1] : t;
          double delta = (step / cap) * (power[r][c] + (so + n - 2.0 * t) / ry +
                                         (e + w - 2.0 * t) / rx + (AMB - t) / rz);
          dst[r][c] = t + delta;
        }
      double (*x)[COLS] = src;
      src = dst;
      dst = x;
    }
  }

  FILE *out = fopen(opath, "w");
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < COLS; c++)
      fprintf(out, "%d\t%.6f\n", r * COLS + c, final[r][c]);
  fclose(out);

  /* the summary comes from the file, so what was written is what is checked */
  FILE *in = fopen(opath, "r");
  int idx, lines = 0;
  double v, lo = 1e9, hi = -1e9, sum = 0;
  unsigned long long h = 1469598103934665603ULL;
  char line[64];
  while (fgets(line, sizeof line, in)) {
    for (char *p = line; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    if (sscanf(line, "%d %lf", &idx, &v) != 2 || idx != lines) { printf("bad line %d\n", lines); return 1; }
    lines++;
    sum += v;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  fclose(in);
  remove(tpath);
  remove(ppath);
  remove(opath);
  printf("%d cells after %d steps: min %.4f max %.4f mean %.6f\n", lines, STEPS, lo, hi, sum / lines);
  printf("hottest row 30: %.6f %.6f %.6f\n", final[30][15], final[30][20], final[30][25]);
  printf("output file hash %016llx\n", h);
  return 0;
}
