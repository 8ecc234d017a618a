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
#include "net/transport.h"

/* X(name, "meaning") — scalar counters, in table order. */
#define DSM__STAT_SCALARS(X)                                                  \
  X(datagrams_sent,     "datagrams written to the network")                  \
  X(datagrams_recv,     "datagrams read from the network")                   \
  X(retransmits,        "datagrams sent again after a timeout")              \
  X(spurious_retransmits, "of those, found not needed: the originals were answered (F_ORIG)")\
  X(resends_heard,      "datagrams received that their sender had sent again (F_RESENT)")\
  X(acks_ridden,        "ACKs of one-way messages sent inside another datagram")\
  X(lazy_sent,          "lazy one-ways (barrier arrivals) sent to the receiver's reply socket")\
  X(lazy_handed,        "lazy one-ways a caller read and handed to the service socket's server")\
  X(lazy_dropped,       "of those, dropped with 256 already held (the sender resends them)")\
  X(reply_resends,      "deferred replies resent until acknowledged")        \
  X(dup_requests,       "duplicate requests answered from the reply cache")  \
  X(bad_datagrams,      "datagrams dropped: wrong key/MAC or malformed")     \
  X(fault_signals,      "page faults taken by the handler (a write to an invalid page is one)")\
  X(read_faults,        "faults on reads of invalid pages")                  \
  X(write_faults,       "faults on writes")                                  \
  X(twins,              "twins created (writes to pages homed elsewhere)")   \
  X(diffs_created,      "diffs created (and sent to the page's home)")       \
  X(diff_bytes_created, "bytes of diff created (encoded)")                   \
  X(diffs_applied,      "diffs applied to this home's pages")                \
  X(diff_bytes_applied, "bytes of diff applied (encoded)")                   \
  X(diff_slices,        "slices of large DIFF messages applied by the applier thread")\
  X(pages_fetched,      "whole pages fetched from their home")               \
  X(fetches_overtaken,  "fetched copies not installed: made valid or out of date meanwhile")\
  X(fetch_held,         "pages of a cold run installed inaccessible until first touched")\
  X(fetch_held_used,    "of those, pages touched (a fault served here)")     \
  X(fetch_ahead,        "pages never held here whose memory was made while their fetch was out") \
  X(fetch_ahead_unused, "of those, pages that got no bytes (a hole again)")   \
  X(fetch_below,        "pages a cold run took below its fault (blocks walked downward)")\
  X(run_cut,            "pages a home left out of a run: past the end of the faulting page's array")\
  X(pages_served,       "pages sent to others by this home (fetch replies)") \
  X(zero_pages_served,  "of those, pages of zeros (sent as their kind alone)") \
  X(requests_held,      "fetches answered late: diffs or a collective to come")\
  X(invalidations,      "pages invalidated by write notices")                \
  X(mprotects,          "mprotect calls for runs of pages (batched)")        \
  X(prot_spans,         "close runs protected as one span: one TLB flush")   \
  X(local_faults,       "faults served without a message (pushed copies, home)")\
  X(pushes_sent,        "pages pushed by this home to readers at a release") \
  X(pushes_installed,   "pushed copies put to use (readable at once, or touched)")\
  X(push_rides,         "PUSH messages that rode in a barrier's or join's own messages")\
  X(push_waits,         "acquires that waited for pushes a synchronisation named")\
  X(push_unsubs,        "pushed pages never read: the reader unsubscribed")  \
  X(migrations,         "pages whose home moved to this process")            \
  X(homes_given,        "pages nobody had touched, given to the first process that did")\
  X(homes_received,     "pages given to this process at its first touch (first_touch.c)")\
  X(homes_received_reading, "... of them with their data, at a read fault expected to write")\
  X(homes_given_data,   "of homes_given: pages of data given to a process about to write them")\
  X(diffs_carried,      "diffs a lock carried, applied at its acquire")       \
  X(diffs_carried_kept, "carried diffs a grant left out: its receiver kept them") \
  X(exclusive,          "home pages that became exclusive again at a collective")\
  X(diffs_dropped,      "diffs a collective held and dropped: the page moved here")\
  X(hot_pages,          "home pages left writable because every interval writes them")\
  X(write_ahead,        "pages opened for writing ahead of a stream of write faults")\
  X(write_ahead_unused, "pages opened ahead and found unwritten at the release")\
  X(write_on_read,      "copies opened for writing when a read made them valid (write_ahead.c)")\
  X(write_on_update,    "copies opened for writing when a carried diff or a push made them valid (write_ahead.c)")\
  X(hot_writes,         "writes of hot pages found at a release, without a fault")\
  X(intervals,          "intervals created by this process")                 \
  X(flushes_waited,     "flush directives that did not release: nobody waited (sync/flush.c)")\
  X(regions_narrow,     "parallel regions run by the master's process alone: measured faster (OMP_DYNAMIC)")\
  X(regions_width_tried, "parallel region runs that tried the other width (sync/omp/omp_width.c)")\
  X(barriers,           "barriers passed")                                   \
  X(pair_barriers,      "barriers of two: each process sent its arrival and departed by itself")\
  X(pair_found,         "barriers of two whose other arrival had been taken in before this one's")\
  X(lock_acquires,      "lock acquires")                                     \
  X(lock_remote,        "lock acquires that needed messages")                \
  X(lock_yields,        "acquires that asked the manager after holding long (fairness)")\
  X(sema_waits,         "semaphore waits")                                   \
  X(sema_early,         "signals that overtook an earlier one of their signaller's")\
  X(cond_waits,         "condition variable waits")                          \
  X(cond_signals_local, "signals the lock's holder knew reached no waiter (no message)") \
  X(forks,              "parallel regions run")                              \
  X(forks_in_answers,   "FORKs sent in the answer to the slave's JOIN")      \
  X(join_answers_early, "held JOIN answers sent before the next fork")       \
  X(tasks,              "OpenMP tasks created in a team of more than one")   \
  X(tasks_given,        "tasks handed to another process")                   \
  X(tasks_stolen,       "tasks received from another process")               \
  X(steal_asks,         "rounds of asking the team for work")                \
  X(steals_answered,    "rounds answered with a task")                       \
  X(steal_wait_ns,      "ns from asking to the first task, over those rounds")\
  X(steal_fed,          "victims told we found work ourselves (no unasked task)")\
  X(task_phases,        "barriers that first completed the team's tasks")    \
  X(gc_runs,            "garbage collections")                               \
  X(consistency_bytes,  "bytes held now in twins, diffs, intervals, notices")\
  X(consistency_peak,   "peak of consistency_bytes")                         \
  X(blocked_ns,         "nanoseconds blocked waiting for messages")        \
  X(wakeups,            "times a thread was woken by another thread of this process")\
  X(svc_net_wakes,      "times the sleeping service thread was woken by a datagram or its timer")\
  X(svc_idle_timer_wakes, "of those, by its timer with nothing due (a deadline gone meanwhile)")\
  /* verbs transport (docs/verbs.md) */                                     \
  X(verbs_sends,        "SENDs posted on RDMA queue pairs")                  \
  X(credit_stalls,      "times queued messages waited for credits")          \
  X(rdma_reads,         "RDMA READs completed (large messages, one-sided fetches)")\
  X(rdma_bytes_read,    "bytes fetched by RDMA READ")                        \
  /* one-sided page and diff fetches (onesided.c) */                        \
  X(os_pages,           "pages read one-sided from their home's memory")     \
  X(os_page_busy,       "one-sided page reads refused: changing at the home")\
  X(os_exposed_bytes,   "bytes registered for peers' one-sided reads")

struct dsm__stats {
#define DSM__STAT_FIELD(name, desc) uint64_t stat_##name;
  DSM__STAT_SCALARS(DSM__STAT_FIELD)
#undef DSM__STAT_FIELD
  uint64_t stat_msgs_sent[DSM__MSG_COUNT];   /* requests + replies, by type */
  uint64_t stat_reqs_sent[DSM__MSG_COUNT];   /* requests and one-ways this process originated */
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

/* A request or one-way this process originates (not a reply, not a forward). */
#define DSM__STAT_REQ(type) do {                                                 \
    unsigned t_ = (type) < DSM__MSG_COUNT ? (type) : 0;                         \
    __atomic_fetch_add(&dsm__stats.stat_reqs_sent[t_], 1, __ATOMIC_RELAXED);    \
  } while (0)

/* Consistency memory accounting (GC bound is checked against it). */
/* A wait that began at t0 (dsm__now_ns) is over: blocked_ns, and this
 * thread's own count (the OpenMP runtime's judge of a region's width,
 * sync/omp/omp_width.c, tells waiting from computing by it). */
void dsm__blocked_since(uint64_t t0);
extern __thread uint64_t dsm__my_blocked_ns;
void dsm__stats_consistency(int64_t delta);

/* Called by dsm_exit on every rank: ships this rank's block to the master,
 * which prints/writes the table per DSM_STATS. */
void dsm__stats_report(void);

#endif
