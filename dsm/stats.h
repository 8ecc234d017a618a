/*
 * stats.h — per-process counters (DESIGN-BRIEF section 7).
 *
 * Every counter is a stat_ field, bumped with a relaxed atomic add because the
 * application thread and the service thread both count. At dsm_exit the master
 * gathers every rank's block and, when DSM_STATS is set, prints one row per
 * rank and a total (DSM_STATS=1) or writes JSON (DSM_STATS=json:FILE).
 */
#ifndef DSM_STATS_H
#define DSM_STATS_H

#include <stdint.h>
#include "msg_types.h"

/* X(name, "meaning") — scalar counters, in table order. */
#define DSM__STAT_SCALARS(X)                                                  \
  X(datagrams_sent,     "datagrams written to the network")                  \
  X(datagrams_recv,     "datagrams read from the network")                   \
  X(retransmits,        "datagrams sent again after a timeout")              \
  X(reply_resends,      "deferred replies resent until acknowledged")        \
  X(dup_requests,       "duplicate requests answered from the reply cache")  \
  X(bad_datagrams,      "datagrams dropped: wrong key/MAC or malformed")     \
  X(read_faults,        "faults on reads of invalid pages")                  \
  X(write_faults,       "faults on writes")                                  \
  X(twins,              "twins created")                                     \
  X(diffs_created,      "diffs created")                                     \
  X(diff_bytes_created, "bytes of diff created (encoded)")                   \
  X(diffs_applied,      "diffs applied")                                     \
  X(diff_bytes_applied, "bytes of diff applied (encoded)")                   \
  X(pages_fetched,      "whole pages fetched (cold misses)")                 \
  X(invalidations,      "pages invalidated by write notices")                \
  X(intervals,          "intervals created by this process")                 \
  X(barriers,           "barriers passed")                                   \
  X(lock_acquires,      "lock acquires")                                     \
  X(lock_remote,        "lock acquires that needed messages")                \
  X(sema_waits,         "semaphore waits")                                   \
  X(cond_waits,         "condition variable waits")                          \
  X(forks,              "parallel regions run")                              \
  X(gc_runs,            "garbage collections")                               \
  X(consistency_bytes,  "bytes held now in twins, diffs, intervals, notices")\
  X(consistency_peak,   "peak of consistency_bytes")                         \
  X(blocked_ns,         "nanoseconds blocked waiting for messages")        \
  X(wakeups,            "times a thread was woken by another thread of this process")\
  /* verbs transport (docs/verbs.md) */                                     \
  X(verbs_sends,        "SENDs posted on RDMA queue pairs")                  \
  X(credit_stalls,      "times queued messages waited for credits")          \
  X(rdma_reads,         "RDMA READs completed (large messages, one-sided fetches)")\
  X(rdma_bytes_read,    "bytes fetched by RDMA READ")                        \
  /* one-sided page and diff fetches (onesided.c) */                        \
  X(os_pages,           "pages read one-sided from their home's memory")     \
  X(os_page_busy,       "one-sided page reads refused: changing at the home")\
  X(os_diffs,           "diffs read one-sided from their writer's log")      \
  X(os_diff_misses,     "diffs asked for by message: not in the writer's log")\
  X(os_diff_skips,      "diff lookups skipped: the writer's log kept missing")\
  X(os_diffs_published, "own diffs copied into the registered diff log")     \
  X(os_exposed_bytes,   "bytes registered for peers' one-sided reads")

struct dsm__stats {
#define DSM__STAT_FIELD(name, desc) uint64_t stat_##name;
  DSM__STAT_SCALARS(DSM__STAT_FIELD)
#undef DSM__STAT_FIELD
  uint64_t stat_msgs_sent[DSM__MSG_COUNT];   /* requests + replies, by type */
  uint64_t stat_bytes_sent[DSM__MSG_COUNT];  /* payload bytes, by type */
  uint64_t stat_msgs_recv[DSM__MSG_COUNT];
  uint64_t stat_bytes_recv[DSM__MSG_COUNT];
};

extern struct dsm__stats dsm__stats;

#define DSM__STAT_ADD(field, n) \
  __atomic_fetch_add(&dsm__stats.stat_##field, (uint64_t)(n), __ATOMIC_RELAXED)
#define DSM__STAT_INC(field) DSM__STAT_ADD(field, 1)
#define DSM__STAT_MSG(dir, type, bytes) do {                                   \
    unsigned t_ = (type) < DSM__MSG_COUNT ? (type) : 0;                         \
    __atomic_fetch_add(&dsm__stats.stat_msgs_##dir[t_], 1, __ATOMIC_RELAXED);   \
    __atomic_fetch_add(&dsm__stats.stat_bytes_##dir[t_], (uint64_t)(bytes),     \
                       __ATOMIC_RELAXED);                                       \
  } while (0)

/* Consistency memory accounting (GC bound is checked against it). */
void dsm__stats_consistency(int64_t delta);

/* Called by dsm_exit on every rank: ships this rank's block to the master,
 * which prints/writes the table per DSM_STATS. */
void dsm__stats_report(void);

#endif
