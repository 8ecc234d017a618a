/*
 * CPU binding (dsm/bind.c): with as many ranks as this machine has CPUs
 * (or fewer, at least two), each rank runs on a CPU of its own, and every
 * thread of the rank (the service thread too) on that same CPU; with more
 * ranks than CPUs, or DSM_CPU_BIND=none, nothing is bound.
 */
#include <dirent.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

/* Cpus_allowed_list of one thread of ours, from /proc. */
static void allowed_list(const char *tid, char *out, size_t len)
{
  char path[128], line[256];
  snprintf(path, sizeof path, "/proc/self/task/%s/status", tid);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  out[0] = '\0';
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "Cpus_allowed_list:", 18) == 0)
      snprintf(out, len, "%s", line + 18);
  fclose(f);
  CHECK(out[0] != '\0');
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  static int *cpus;
  if (me == 0) {
    cpus = dsm_malloc(n * sizeof *cpus);
    dsm_distribute(&cpus, sizeof cpus);
  }
  dsm_barrier(0);

  cpu_set_t s;
  CHECK(sched_getaffinity(0, sizeof s, &s) == 0);
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  const char *mode = getenv("DSM_CPU_BIND");
  /* With T threads per process (dsm_threads) a rank gets T CPUs; the
   * launcher suite checks which (tests/launcher/test_threads.sh). */
  unsigned t = dsm_threads();
  int expect = !(mode && strcmp(mode, "none") == 0) && n * t >= 2 && n * t <= online;
  if (expect) {
    CHECK_EQ(CPU_COUNT(&s), (int)t);
    int c = 0;
    while (!CPU_ISSET(c, &s))
      c++;
    cpus[me] = c;
  } else {
    CHECK(CPU_COUNT(&s) > 1 || online < 2);
  }

  /* Every thread of the rank has the main thread's mask. */
  char mine[256], other[256];
  snprintf(other, sizeof other, "%d", (int)getpid());
  allowed_list(other, mine, sizeof mine);
  DIR *d = opendir("/proc/self/task");
  CHECK(d != NULL);
  int threads = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.')
      continue;
    allowed_list(e->d_name, other, sizeof other);
    CHECK(strcmp(mine, other) == 0);
    threads++;
  }
  closedir(d);
  CHECK(threads >= 2);     /* the service thread exists in a job of two or more */

  dsm_barrier(1);
  if (me == 0 && expect && t == 1)
    for (unsigned a = 0; a < n; a++)
      for (unsigned b = a + 1; b < n; b++)
        CHECK(cpus[a] != cpus[b]);
  dsm_barrier(2);
  if (me == 0)
    printf("cpu_bind: %u ranks, %s\n", n, expect ? "one CPU each" : "not bound");
  dsm_exit(0);
}
