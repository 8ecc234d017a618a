/*
 * spmd.c — a libdsm SPMD job started by mpirun, not dsmrun.
 *
 *   pmix_spmd N         check that the job is N processes and that this
 *                       process's rank is the one the launcher gave it
 *                       (PMIX_RANK, OMPI_COMM_WORLD_RANK); each rank writes
 *                       its part of a shared array, and after a barrier
 *                       rank 0 checks all of it and prints "OK"
 *   pmix_spmd N single  every process must be a job of one (DSM_PMIX=0)
 *   pmix_spmd N hang R  rank R prints "victim PID" and blocks forever; the
 *                       others print "waiting" and wait at a barrier that R
 *                       never reaches (the test kills R with SIGKILL)
 *   pmix_spmd N fatal R rank R goes to another barrier than the others:
 *                       the barrier manager stops the job with a fatal
 *                       error, which must end every rank through PMIx_Abort
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsm.h"

#define PER_RANK 5000   /* ints: several pages, and pages shared by two ranks */

#define FAIL(...) do { fprintf(stderr, "pmix_spmd[%u]: ", dsm_proc_id()); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)

static long env_num(const char *name)
{
  const char *s = getenv(name);
  return s && *s ? atol(s) : -1;
}

static int value(unsigned r, int i)
{
  return (int)(r * 1000003u + (unsigned)i * 7u + 1u);
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  unsigned want = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  const char *mode = argc > 2 ? argv[2] : "check";
  unsigned arg = argc > 3 ? (unsigned)atoi(argv[3]) : 0;

  if (!strcmp(mode, "single")) {
    if (me != 0 || n != 1)
      FAIL("rank %u of %u, wanted a job of one", me, n);
    printf("single OK\n");
    dsm_exit(0);
  }
  if (n != want)
    FAIL("dsm_nprocs() is %u, wanted %u", n, want);
  long pr = env_num("PMIX_RANK"), orank = env_num("OMPI_COMM_WORLD_RANK");
  long osize = env_num("OMPI_COMM_WORLD_SIZE");
  if ((pr >= 0 && pr != me) || (orank >= 0 && orank != me))
    FAIL("dsm_proc_id() is %u but PMIX_RANK=%ld, OMPI_COMM_WORLD_RANK=%ld", me, pr, orank);
  if (osize >= 0 && osize != n)
    FAIL("dsm_nprocs() is %u but OMPI_COMM_WORLD_SIZE=%ld", n, osize);

  static int *a;
  if (me == 0) {
    a = dsm_malloc(sizeof *a * PER_RANK * n);
    dsm_distribute(&a, sizeof a);
  }
  dsm_barrier(0);
  for (int i = 0; i < PER_RANK; i++)
    a[me * PER_RANK + i] = value(me, i);
  if (!strcmp(mode, "hang") || !strcmp(mode, "fatal")) {
    /* One line per rank, then block: the test acts once it has them all. */
    if (me == arg)
      printf(!strcmp(mode, "hang") ? "victim %d\n" : "wrong barrier %d\n", (int)getpid());
    else
      printf("waiting %u\n", me);
    fflush(stdout);
    if (me == arg && !strcmp(mode, "hang"))
      for (;;) pause();
    dsm_barrier(me == arg ? 2 : 1);
    FAIL("got past a barrier that rank %u never reached", arg);
  }
  dsm_barrier(1);
  if (me == 0) {
    for (unsigned r = 0; r < n; r++)
      for (int i = 0; i < PER_RANK; i++)
        if (a[r * PER_RANK + i] != value(r, i))
          FAIL("a[%u] is %d, rank %u wrote %d", r * PER_RANK + i, a[r * PER_RANK + i], r,
               value(r, i));
    printf("pmix_spmd: %u processes: OK\n", n);
  }
  dsm_exit(0);
}
