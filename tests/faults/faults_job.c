/*
 * faults_job MODE SECONDS — a libdsm job that keeps running for about
 * SECONDS and checks its own answer, for the fault-injection tests.
 *   barriers  every rank writes its slot of a shared row, then a barrier;
 *             every rank checks all slots of the row. The job lives in
 *             barriers and small diffs.
 *   lock      every rank increments a shared counter under lock 1 and keeps
 *             the lock for about 1 ms, so the job lives holding the lock.
 *   diffs     rank 1 rewrites 64 pages each round; every other rank reads
 *             them all after the barrier, so the job lives serving diffs.
 * Time is decided by rank 0 alone: it publishes "stop" in a shared flag
 * before a barrier, so every rank leaves after the same round. The flag is
 * double-buffered by round parity: rank 0 rewrites flag[r % 2] only before
 * barrier r + 2, when everybody has read it after barrier r.
 * With FAULTS_PIDDIR set every rank writes its pid to FAULTS_PIDDIR/rank.R
 * once it is started (the tests kill or stop a chosen rank with it).
 * Rank 0 prints "faults_job MODE: OK ..." after the final check.
 */

#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

#define MAXP 64
#define DPAGES 64
#define PAGE 4096

struct shared {
  int stop[2];
  long counter;
  long done[MAXP];
  long row[2][MAXP];
  char pad[PAGE];
  long big[DPAGES * PAGE / sizeof(long)];
};

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void write_pid(unsigned me)
{
  const char *dir = getenv("FAULTS_PIDDIR");
  if (!dir || !*dir)
    return;
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/rank.%u", dir, me);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  CHECK(f != NULL);
  fprintf(f, "%ld\n", (long)getpid());
  CHECK(fclose(f) == 0);
  CHECK(rename(tmp, path) == 0);   /* the reader never sees half a pid */
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  if (argc != 3 || (strcmp(argv[1], "barriers") && strcmp(argv[1], "lock") && strcmp(argv[1], "diffs"))) {
    fprintf(stderr, "usage: %s barriers|lock|diffs SECONDS\n", argv[0]);
    return 2;
  }
  const char *mode = argv[1];
  double secs = atof(argv[2]);
  CHECK(n <= MAXP);
  static struct shared *s;
  if (me == 0) {
    s = dsm_calloc(1, sizeof *s);
    dsm_distribute(&s, sizeof s);
  }
  dsm_barrier(0);
  write_pid(me);
  double t0 = now();
  long rounds = 0, mine = 0;

  if (!strcmp(mode, "lock")) {
    /* Each rank stops on its own clock; the total is checked at the end. */
    while (now() - t0 < secs) {
      dsm_lock_acquire(1);
      long c = s->counter;
      usleep(1000);
      s->counter = c + 1;
      dsm_lock_release(1);
      mine++;
    }
    s->done[me] = mine;
    dsm_barrier(1);
    long sum = 0;
    for (unsigned r = 0; r < n; r++)
      sum += s->done[r];
    CHECK_EQ(s->counter, sum);
    rounds = sum;
  } else {
    int diffs = !strcmp(mode, "diffs");
    const size_t nbig = sizeof s->big / sizeof s->big[0];
    for (long it = 1;; it++) {
      if (me == 0)
        s->stop[it % 2] = now() - t0 >= secs;
      if (diffs) {
        if (me == 1 % n)
          for (size_t i = 0; i < nbig; i += 8)
            s->big[i] = it * 1000003L + (long)i;
      } else {
        s->row[it % 2][me] = it * MAXP + me;
      }
      dsm_barrier(1);
      if (diffs) {
        for (size_t i = 0; i < nbig; i += 8)
          CHECK_EQ(s->big[i], it * 1000003L + (long)i);
      } else {
        for (unsigned r = 0; r < n; r++)
          CHECK_EQ(s->row[it % 2][r], it * MAXP + r);
      }
      rounds = it;
      if (s->stop[it % 2])
        break;
      if (diffs)
        dsm_barrier(2);   /* readers are done before rank 1 writes again */
    }
  }
  dsm_barrier(3);
  if (me == 0)
    printf("faults_job %s: OK, %ld %s on %u processes\n", mode, rounds,
           strcmp(mode, "lock") ? "rounds" : "increments", n);
  dsm_exit(0);
}
