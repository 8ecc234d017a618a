/*
 * push_epochs.h — what the subscription tests (push_unsub.c, push_trust.c)
 * share: rank 0, the home of an area, rewrites all of it every epoch while
 * the other ranks read it or not; then, with nobody reading, every reader
 * must unsubscribe from each page and rank 0 push nothing more.
 */
#ifndef PUSH_EPOCHS_H
#define PUSH_EPOCHS_H
#include "check.h"

/* One epoch: rank 0 writes e * 100000 + i into area[0, words); if read,
 * the other ranks check every stride-th word. */
static void push_epoch(long *area, long words, long e, int read, long stride)
{
  if (dsm_proc_id() == 0)
    for (long i = 0; i < words; i++)
      area[i] = e * 100000 + i;
  dsm_barrier(1);
  if (read && dsm_proc_id() != 0)
    for (long i = 0; i < words; i += stride)
      CHECK_EQ(area[i], e * 100000 + i);
  dsm_barrier(2);     /* the next epoch's writes come after the reads */
}

/* Epochs *e onwards with nobody reading: after `quiet` of them each reader
 * has unsubscribed from all `pages`, and in the `after` that follow rank 0
 * pushes nothing. Advances *e. */
static void push_stop_reading(const char *test, long *area, long words, long pages, long *e,
                              long quiet, long after)
{
  long long before = 0;
  for (long q = 1; q <= quiet + after; q++, (*e)++) {
    if (q == quiet + 1 && dsm_proc_id() == 0)
      before = dsm_stat("pushes_sent");
    push_epoch(area, words, *e, 0, 1);
  }
  if (dsm_proc_id() != 0) {
    printf("%s: rank %u stopped reading: %lld pages unsubscribed\n", test, dsm_proc_id(),
           (long long)dsm_stat("push_unsubs"));
    CHECK_EQ(dsm_stat("push_unsubs"), pages);
  }
  dsm_barrier(3);
  if (dsm_proc_id() == 0) {
    long long late = dsm_stat("pushes_sent") - before;
    printf("%s: pages pushed in the last %ld epochs: %lld\n", test, after, late);
    CHECK_EQ(late, 0);
  }
}
#endif
