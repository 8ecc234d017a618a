/* Input read straight into shared arrays (issue 14, class 10), as real
   programs load their data: read, fread, fgets, recv and scanf/fscanf with
   the destination in shared memory whose pages another process wrote
   last (so they are invalid or write-protected here), in sequential code
   and inside a region. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <fcntl.h>
#include <omp.h>

#define N 6000   /* ints: several pages */

static int grid[N];
static char line[8192];
static double vals[64];

static void scribble(void)
{
  /* every thread writes every page, so the master's copies go stale */
#pragma omp parallel
  {
#pragma omp for schedule(static, 1)
    for (int i = 0; i < N; i++) grid[i] = -1;
#pragma omp for schedule(static, 1)
    for (int i = 0; i < (int)sizeof line; i++) line[i] = '.';
#pragma omp for
    for (int i = 0; i < 64; i++) vals[i] = -1;
  }
}

static long check(void)
{
  long s = 0;
  for (int i = 0; i < N; i++) s = (s * 31 + grid[i]) % 1000000007;
  return s;
}

int main(void)
{
  char path[] = "/tmp/read_shared_XXXXXX";
  int fd = mkstemp(path);
  int *src = malloc(N * sizeof *src);
  for (int i = 0; i < N; i++) src[i] = i * 7 + 1;
  if (write(fd, src, N * sizeof *src) != (ssize_t)(N * sizeof *src)) return 1;
  close(fd);

  scribble();
  fd = open(path, O_RDONLY);
  ssize_t got = read(fd, grid, sizeof grid);
  close(fd);
  printf("read %zd %ld\n", got, check());

  scribble();
  FILE *f = fopen(path, "rb");
  size_t items = fread(grid, sizeof grid[0], N, f);
  fclose(f);
  printf("fread %zu %ld\n", items, check());

  /* each thread reads its own slice inside a region */
  scribble();
#pragma omp parallel
  {
    int me = omp_get_thread_num(), nt = omp_get_num_threads();
    int lo = (int)((long)N * me / nt), hi = (int)((long)N * (me + 1) / nt);
    int pfd = open(path, O_RDONLY);
    if (pread(pfd, grid + lo, (hi - lo) * sizeof grid[0], lo * sizeof grid[0]) < 0) grid[lo] = -2;
    close(pfd);
  }
  printf("pread in region %ld\n", check());

  f = fopen(path, "w");
  for (int i = 0; i < 64; i++) fprintf(f, "%d %.2f\n", i, i * 1.5);
  fprintf(f, "%s\n", "a line of text that lands in a shared buffer");
  fclose(f);

  scribble();
  f = fopen(path, "r");
  int k;
  for (int i = 0; i < 64; i++)
    if (fscanf(f, "%d %lf", &k, &vals[i]) != 2) vals[i] = -9;
  fgets(line, sizeof line, f);   /* the rest of the last number's line */
  fgets(line, sizeof line, f);
  fclose(f);
  double vs = 0;
  for (int i = 0; i < 64; i++) vs += vals[i];
  printf("fscanf %.2f fgets %s", vs, line);

  scribble();
  if (!freopen(path, "r", stdin)) return 1;
  for (int i = 0; i < 64; i++)
    if (scanf("%d %lf", &k, &vals[i]) != 2) vals[i] = -9;
  vs = 0;
  for (int i = 0; i < 64; i++) vs += vals[i];
  printf("scanf %.2f\n", vs);

  int sv[2];
  socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
  if (write(sv[0], src, 4096) != 4096) return 1;
  scribble();
  ssize_t r = 0;
  while (r < 4096) {
    ssize_t m = recv(sv[1], (char *)grid + r, 4096 - r, 0);
    if (m <= 0) break;
    r += m;
  }
  printf("recv %zd %d %d\n", r, grid[0], grid[1023]);
  unlink(path);
  return 0;
}
