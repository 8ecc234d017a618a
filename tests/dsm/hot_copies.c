/*
 * Hot copies (dsm/hot.c, interval.c): a copy of a page homed elsewhere that
 * its process writes in interval after interval stays writable, its twin
 * refreshed at each release, like a hot home page. Each state change, with
 * every value checked by a reader:
 *   1. W (not the home) takes a lock and writes P in each of 100 turns: after
 *      the first turns W takes no more write faults on P; the home writes
 *      another word of P in the same epoch, so P's home stays put;
 *   2. a process R holding a stale copy of P (read before phase 1) takes the
 *      lock and reads W's last writes;
 *   3. the home and W write P under the lock in turn (semaphores order the
 *      turns): each turn brings W the home's notice, which ends the hot
 *      state, and W's copy comes back with the lock (a carried diff) or a
 *      fetch; the home pushes nothing at a lock's release;
 *   4. W writes P after its release, outside any lock, while P is hot: a
 *      semaphore's release carries the write to the home's next acquire;
 *      another such write is carried by a barrier (a collective: the copy
 *      leaves the hot state there);
 *   5. W writes only Q under the lock for a while: P cools, and W's next
 *      write of P faults;
 *   6. W alone writes P, hot, through a barrier: P's home moves to W, and the
 *      old home reads W's writes and then writes P under the lock for W.
 */
#include "check.h"

static unsigned bid;
static void sync_all(void) { dsm_barrier(bid++); }

#define TURNS 100
#define LOCK 3
#define SEM_HOME 1
#define SEM_W 2

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  if (dsm_threads() > 1) {
    if (dsm_proc_id() == 0)
      printf("skipped: hot copies (dsm/hot.c) are off with %u threads per process\n", dsm_threads());
    dsm_exit(77);
  }
  unsigned me = dsm_proc_id(), np = dsm_nprocs(), w = np - 1, r = np >= 3 ? 1 : w;
  CHECK(np >= 2);
  static long *p;     /* page P: p[0..511]; page Q: p[512..1023] */
  if (me == 0) {
    p = dsm_malloc(2 * 4096);
    for (int i = 0; i < 1024; i++)
      p[i] = 0;
    dsm_distribute(&p, sizeof p);
    dsm_sema_init(SEM_HOME, 0);
    dsm_sema_init(SEM_W, 0);
  }
  sync_all();
  CHECK_EQ(p[0], 0);        /* everyone holds a copy of P */
  sync_all();

  /* 1. W writes P under the lock, turn after turn. */
  if (me == 0)
    p[0] = 1;               /* a second writer in the epoch: P stays homed here */
  if (me == w) {
    int64_t wf = dsm_stat("write_faults"), hot = dsm_stat("hot_pages");
    for (long t = 1; t <= TURNS; t++) {
      dsm_lock_acquire(LOCK);
      p[1] = t;
      p[2] += t;
      dsm_lock_release(LOCK);
    }
    /* The first turn faults; its release cannot know P is written every
     * interval yet, the second's can. */
    CHECK(dsm_stat("write_faults") - wf <= 3);
    CHECK(dsm_stat("hot_pages") - hot >= 1);
  }
  /* 2. R's copy is stale: the lock brings it W's writes. */
  if (me == r && r != w) {
    dsm_sema_wait(SEM_HOME);
    dsm_lock_acquire(LOCK);
    CHECK_EQ(p[1], TURNS);
    CHECK_EQ(p[2], TURNS * (TURNS + 1) / 2);
    dsm_lock_release(LOCK);
  } else if (me == w && r != w) {
    dsm_sema_signal(SEM_HOME);
  }
  sync_all();
  CHECK_EQ(p[0], 1);
  CHECK_EQ(p[1], TURNS);
  CHECK_EQ(p[2], TURNS * (TURNS + 1) / 2);
  sync_all();

  /* 3. The home and W in turn: home, W, home, W, ... */
  if (me == 0 || me == w) {
    int home = me == 0;
    int64_t pushes = dsm_stat("pushes_sent");
    for (long t = 0; t < TURNS; t++) {
      if (!home || t > 0)
        dsm_sema_wait(home ? SEM_HOME : SEM_W);
      dsm_lock_acquire(LOCK);
      CHECK_EQ(p[3], 2 * t + !home);
      p[3]++;
      p[home ? 4 : 5] += 2;
      dsm_lock_release(LOCK);
      if (home || t + 1 < TURNS)
        dsm_sema_signal(home ? SEM_W : SEM_HOME);
    }
    /* The home's writes went with the lock, not in pushes (home.c). */
    if (home)
      CHECK_EQ(dsm_stat("pushes_sent") - pushes, 0);
  }
  sync_all();
  CHECK_EQ(p[3], 2 * TURNS);
  CHECK_EQ(p[4], 2 * TURNS);
  CHECK_EQ(p[5], 2 * TURNS);
  sync_all();

  /* 4. Writes of a hot copy outside the lock. */
  if (me == 0)
    p[0] = 2;
  if (me == w) {
    for (long t = 1; t <= 3; t++) {   /* hot again */
      dsm_lock_acquire(LOCK);
      p[6] = t;
      dsm_lock_release(LOCK);
    }
    int64_t wf = dsm_stat("write_faults");
    p[7] = 777;             /* after the release: no fault, a later release has it */
    CHECK_EQ(dsm_stat("write_faults") - wf, 0);
    dsm_sema_signal(SEM_HOME);
  } else if (me == 0) {
    dsm_sema_wait(SEM_HOME);
    CHECK_EQ(p[7], 777);
    CHECK_EQ(p[6], 3);
  }
  if (me == w)
    p[8] = 888;             /* the barrier's release finds it */
  sync_all();
  CHECK_EQ(p[0], 2);
  CHECK_EQ(p[7], 777);
  CHECK_EQ(p[8], 888);
  sync_all();

  /* 5. W writes only Q: P cools. */
  if (me == 0)
    p[0] = 3;
  if (me == w) {
    for (long t = 1; t <= 3; t++) {
      dsm_lock_acquire(LOCK);
      p[9] = t;
      dsm_lock_release(LOCK);
    }
    for (long t = 1; t <= 24; t++) {
      dsm_lock_acquire(LOCK);
      p[512] = t;
      dsm_lock_release(LOCK);
    }
    int64_t wf = dsm_stat("write_faults");
    p[10] = 1010;
    CHECK_EQ(dsm_stat("write_faults") - wf, 1);
  }
  sync_all();
  CHECK_EQ(p[0], 3);
  CHECK_EQ(p[9], 3);
  CHECK_EQ(p[10], 1010);
  CHECK_EQ(p[512], 24);
  sync_all();

  /* 6. W alone writes P, hot, through a barrier: the home moves to W. */
  if (me == w) {
    for (long t = 1; t <= TURNS; t++) {
      dsm_lock_acquire(LOCK);
      p[11] = t;
      dsm_lock_release(LOCK);
    }
    p[12] = 1212;           /* hot, outside the lock, just before the barrier */
  }
  sync_all();
  CHECK_EQ(p[11], TURNS);
  CHECK_EQ(p[12], 1212);
  sync_all();
  if (me == w)
    CHECK(dsm_stat("migrations") >= 1);
  if (me == 0) {
    dsm_lock_acquire(LOCK);
    p[13] = 1313;
    dsm_lock_release(LOCK);
    dsm_sema_signal(SEM_W);
  } else if (me == w) {
    dsm_sema_wait(SEM_W);
    dsm_lock_acquire(LOCK);
    CHECK_EQ(p[13], 1313);
    CHECK_EQ(p[11], TURNS);
    dsm_lock_release(LOCK);
  }
  sync_all();
  static const long want[14] = { 3, TURNS, TURNS * (TURNS + 1) / 2, 2 * TURNS, 2 * TURNS,
                                 2 * TURNS, 3, 777, 888, 3, 1010, TURNS, 1212, 1313 };
  for (int i = 0; i < 14; i++)
    CHECK_EQ(p[i], want[i]);
  CHECK_EQ(p[512], 24);
  sync_all();
  if (me == 0)
    printf("hot_copies: OK\n");
  dsm_exit(0);
}
