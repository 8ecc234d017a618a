/*
 * The master applies no JOIN's records before it joins itself
 * (sync/forkjoin.c). In each region the slaves write one word in each of
 * 32 pages homed at the master (more than a collective's release sends at
 * once: their diffs wait for the join's answer, dsm/diff_send.c) and join
 * at once; the master first sleeps, then takes and gives back a lock (an
 * acquire), then reads other words of those pages. Had its acquire applied
 * the slaves' join records, its home pages would wait for the held diffs,
 * and the held diffs for the answer to the joins, which the master sends
 * only when it joins: the job hung. alarm() ends a hang at once. After the
 * join the master sees every write.
 */
#include <unistd.h>
#include "check.h"

#define NPG 32
#define PW (4096 / 8)
#define REGIONS 3

static long value(long i) { return i * 5 + 2; }

struct args { long *a; int round; };

static void body(void *p)
{
  struct args *x = p;
  long me = dsm_proc_id();
  if (me != 0) {
    for (long pg = 0; pg < NPG; pg++)
      x->a[pg * PW + me] = -(x->round * 100 + me);
    return;
  }
  usleep(300 * 1000);          /* the slaves have joined meanwhile */
  dsm_lock_acquire(7);
  dsm_lock_release(7);
  long sum = 0, want = 0;
  for (long pg = 0; pg < NPG; pg++) {
    sum += x->a[pg * PW + PW / 2];     /* nobody writes these */
    want += value(pg * PW + PW / 2);
  }
  CHECK_EQ(sum, want);
}

static int main_fn(int argc, char **argv)
{
  (void)argc; (void)argv;
  alarm(60);
  CHECK(dsm_nprocs() <= 9);
  long *a = dsm_malloc(NPG * 4096);
  CHECK(a != NULL);
  for (long i = 0; i < NPG * PW; i++)
    a[i] = value(i);
  for (int round = 1; round <= REGIONS; round++) {
    struct args x = { a, round };
    dsm_fork(body, &x, sizeof x);
    dsm_join();
    for (long pg = 0; pg < NPG; pg++)
      for (long r = 1; r < (long)dsm_nprocs(); r++)
        CHECK_EQ(a[pg * PW + r], -(round * 100 + r));
  }
  printf("join_early: %u processes, %d regions: OK\n", dsm_nprocs(), REGIONS);
  return 0;
}

int main(int argc, char **argv)
{
  dsm_main(main_fn, argc, argv);
}
