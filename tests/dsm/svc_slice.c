/*
 * The service thread asks for a short scheduler slice (dsm/net/transport_core.c:
 * DSM_SVC_SLICE_US), so that a request reaching a rank whose application
 * thread computes on the same CPU is served at once. Every rank reads its
 * threads' slices from /proc (se.slice, Linux 6.12+): exactly one thread
 * (the service thread) has SLICE_US microseconds and the application
 * thread keeps the default. On a kernel without se.slice there is nothing
 * to see; the test says so and passes.
 */
#include <dirent.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

static long slice_of(const char *tid)
{
  char path[128], line[256];
  snprintf(path, sizeof path, "/proc/self/task/%s/sched", tid);
  FILE *f = fopen(path, "r");
  long v = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "se.slice", 8)) {
      char *colon = strchr(line, ':');
      if (colon) v = strtol(colon + 1, NULL, 10);
    }
  fclose(f);
  return v;
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  long want = atol(getenv("SLICE_US") ? getenv("SLICE_US") : "100") * 1000;
  char self[32];
  snprintf(self, sizeof self, "%d", gettid());
  if (slice_of(self) < 0) {
    printf("svc_slice: no se.slice in /proc on this kernel; nothing to check\n");
  } else {
    DIR *d = opendir("/proc/self/task");
    CHECK(d);
    int with = 0, threads = 0;
    struct dirent *e;
    while ((e = readdir(d)))
      if (e->d_name[0] != '.') {
        threads++;
        long s = slice_of(e->d_name);
        if (s == want) with++;
        if (!strcmp(e->d_name, self)) CHECK(s != want);
      }
    closedir(d);
    printf("svc_slice: rank %u: %d threads, %d with a %ld us slice\n", dsm_proc_id(), threads,
           with, want / 1000);
    CHECK_EQ(with, 1);
  }
  dsm_barrier(0);
  dsm_exit(0);
}
