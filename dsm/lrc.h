/*
 * lrc.h — home-based lazy release consistency: vector time, intervals, write
 * notices, homes, and the acquire/release operations synchronization is
 * built from (docs/protocol.md explains the protocol, docs/design.md why).
 *
 * Vocabulary (TreadMarks, and HLRC for the homes):
 *   interval  the stretch of a process's execution between two
 *             synchronization operations in which it wrote shared pages.
 *             (q, i) is process q's i-th interval, i >= 1.
 *   vt        vector time: vt[q] = newest interval of q this process has
 *             applied (turned into notices). known[q] >= vt[q] is the newest
 *             interval of q whose record this process holds.
 *   home      the process whose copy of a page is the master copy. Writers
 *             elsewhere send it their diffs at each release; a process whose
 *             copy is out of date fetches the whole page from it.
 *   notice    "page P was written in interval (q, i)": kept on the page as
 *             a need (q, i) until the copy is refreshed; the home answers a
 *             fetch only once its copy holds every interval the fetcher
 *             needs (its version vector pv covers the needs).
 *
 * All functions here run with dsm__mu held unless stated otherwise.
 */
#ifndef DSM_LRC_H
#define DSM_LRC_H

#include <stdint.h>
#include "buf.h"
#include "lrc_state.h"
#include "region.h"

typedef struct dsm__interval {
  uint32_t proc, idx, npages;
  uint32_t *vt;          /* nprocs entries, at the moment the interval closed */
  uint32_t *pages;
} dsm__interval_t;

/* ---- interval.c: vector time, records, release and acquire ---------------------- */

void dsm__lrc_init(void);

/* Close the open interval if this process wrote anything in it: record a
 * write notice for every dirty page, send the diffs of pages homed elsewhere
 * to their homes, push pages to their subscribers, write-protect. */
void dsm__release(void);
/* A release that also adds this interval's diffs to what a lock carries to
 * its next holder (carry.c). */
typedef struct dsm__carry dsm__carry_t;
void dsm__release_carrying(dsm__carry_t **carry);
/* Apply every interval record held but not yet applied: copies the records
 * name go out of date (a need per notice); pushed copies that satisfy every
 * need are installed instead. */
void dsm__acquire(void);
/* The same, for a synchronisation operation whose calling thread released
 * (dsm__release, dsm__coll_release) since it last ran program code: the
 * hot pages (hot.c) are not compared with their twins again, since nothing
 * but handlers could have written them meanwhile and handlers write a hot
 * page's twin with it. A barrier's or join's acquire used to compare every
 * hot page a second time, finding it unchanged: fft3d spent a third of its
 * comparisons there. */
void dsm__acquire_after_release(void);

/* Append the records of every interval held with idx > their[q] (all q). */
void dsm__intervals_encode(dsm__buf_t *b, const uint32_t *their);
/* Append only this process's own intervals with idx > after. */
void dsm__own_intervals_encode(dsm__buf_t *b, uint32_t after);
/* Append what a peer that holds their[] lacks of what this process has
 * applied (vt), and of its own intervals: records whose diffs are all on
 * their way (a record merely held may be a collective's arrival whose
 * diffs wait for the departure). */
void dsm__intervals_encode_applied(dsm__buf_t *b, const uint32_t *their);
/* Take interval records from a message into the store (duplicates are
 * ignored). Returns 0, or -1 when the encoding is malformed; then nothing
 * was stored (dsm__records_read, record_msg.c, decodes the list first). */
int  dsm__intervals_decode(dsm__rd_t *r);
dsm__interval_t *dsm__interval_get(uint32_t proc, uint32_t idx);
/* Drop the records up to upto[q] (garbage collection: every process of the
 * job must hold them, as after a barrier of the whole job). */
void dsm__intervals_discard(const uint32_t *upto);

/* Vector time on the wire, nprocs u32 (record_msg.c). */
void dsm__vt_encode(dsm__buf_t *b, const uint32_t *vt);
int  dsm__vt_decode(dsm__rd_t *r, uint32_t *vt);

/* ---- write_ahead.c: write faults that walk forward open the next pages ---------------- */

/* After a write fault opened page pg (homed elsewhere): if the fault
 * continues a stream, open the pages after it for writing too. */
void dsm__write_ahead(uint32_t pg);
/* At the start of a release: pages opened ahead that were not written
 * leave the written set and are write-protected again. */
void dsm__write_ahead_settle(void);
/* A read fault is about to make copy pg valid and readable: returns 1 if
 * it opened the page for writing instead (twinned, in the written set,
 * protection queued), because most copies that reads made valid lately
 * were then written in the same interval. */
int dsm__write_ahead_on_read(uint32_t pg);
/* Will a read fault on copy pg most likely be followed by a write of it
 * (the copies reads made valid lately were mostly written: the rule
 * above is on)? A fetch then says so to the home, which may give the page
 * with its data instead of a copy (first_touch.c). */
int dsm__write_ahead_read_will_write(uint32_t pg);
/* A carried diff or a pushed copy just made copy pg valid at an acquire
 * (carry.c, fetch.c): returns 1 if it opened the page for writing instead
 * of leaving it readable (twinned, in the written set, protection queued),
 * because this process wrote it lately: it migrates between writers. */
int dsm__write_ahead_on_update(uint32_t pg);

/* ---- hot.c: home pages written in every interval -------------------------------------- */

/* At the start of a release (collective: a collective's, which may move
 * homes): hot pages that changed since the last one go into the open
 * interval's list; long-unchanged ones are protected again. */
void dsm__hot_scan(int collective);
/* At a release, for a home page written in it: 1 if it stays writable
 * (already hot, or written `since` intervals before this one, and that is
 * recent), with its twin refreshed to the page as released; the caller then
 * leaves it so. since 0: never written before. pushed: the release copies
 * the page into a PUSH, which then refreshes the twin in the same pass
 * (p->twin_lag until it has). */
int dsm__hot_keep(uint32_t pg, dsm__page_t *p, uint32_t since, int pushed);
/* The page leaves the hot state (twin freed, no longer marked written);
 * its protection is the caller's business. No-op for a page that is not hot. */
void dsm__hot_drop(uint32_t pg, dsm__page_t *p);
/* A copy (not homed here) leaves the hot state keeping its twin, which a
 * collective's held diff still needs (diff_send.c). */
void dsm__hot_unlist(uint32_t pg, dsm__page_t *p);

/* ---- fault.c: access detection ------------------------------------------------------- */

void dsm__fault_init(void);
void dsm__fault_thread_init(void);   /* a worker thread's own signal stack */

/* ---- fetch.c: copies homed elsewhere ---------------------------------------------------- */

/* Make page pg readable here: a pushed copy if one satisfies it, else the
 * whole page (and a run of pages after it) from its home. Without dsm__mu;
 * takes it. */
void dsm__fetch_page(uint32_t pg, int write);
/* ---- pushed.c: copies a home pushed to us --------------------------------------------- */

void dsm__pushed_init(void);
/* At a fault: is there a pushed copy that satisfies p? Install it (bytes,
 * version) and return 1. Under dsm__mu. */
int  dsm__pushed_take(uint32_t pg, dsm__page_t *p);
/* A pushed copy installed inaccessible (p->pushed) was used: trust the
 * page's next pushes more. Under dsm__mu. */
void dsm__pushed_probe_used(dsm__page_t *p);
/* Page pg got a copy from elsewhere: drop any pushed copy of it. */
void dsm__pushed_drop(uint32_t pg);
/* At an acquire: install pushed copies that satisfy the needs of pages that
 * just went out of date. */
void dsm__pushed_install(void);
/* A synchronisation told us that src has sent us seq PUSH messages by now:
 * an acquire that follows waits for them (dsm__pushed_wait), rather than
 * fetching pages those pushes bring. Pushes and the departure that names
 * them travel apart (src -> us, src -> manager -> us), so the departure
 * often wins. With dsm__mu held. */
void dsm__pushed_expect(unsigned src, uint32_t seq);
/* Wait until every PUSH named by dsm__pushed_expect has arrived. Without
 * dsm__mu; serves the network meanwhile (dsm__tp_event_wait). */
void dsm__pushed_wait(void);

/* ---- home.c: the master copies --------------------------------------------------------- */

void dsm__home_init(void);
/* At a release, for each dirty page of ours: it now holds interval idx.
 * Returns how many readers it is queued to be pushed to (none when its
 * diff is carried with a lock: carried). */
int dsm__home_released(uint32_t pg, dsm__page_t *p, uint32_t idx, int carried);
/* Send what the release queued: diffs to other homes, pushes to readers. */
void dsm__home_flush_release(void);
/* A collective's release (of ranks 0..team-1): its pushes to the manager
 * (from a member) or to the members (from the manager) wait to ride in the collective's
 * messages. dsm__home_ride_put appends what rides to r ([len][PUSH
 * payload], len 0: none) and hands it over; dsm__home_ride_end (after the
 * departure) sends anything left alone. */
void dsm__home_ride_begin(unsigned team);
void dsm__home_ride_put(dsm__buf_t *b, unsigned r);
void dsm__home_ride_end(void);
/* The receiving side (pushed.c), with dsm__mu held: take a decoded ride
 * (dsm__coll_ride_read, coll_msg.c), a PUSH from rank `from`. -1: the
 * PUSH is malformed (nothing was taken). */
typedef struct dsm__coll_ride dsm__coll_ride_t;
int dsm__pushed_ride_take(unsigned from, const dsm__coll_ride_t *ride);
/* PUSH messages sent to r so far. */
uint32_t dsm__home_pushes_sent_to(unsigned r);
/* For a collective arrival: (us, reader, dsm__home_pushes_sent_to(reader)) in
 * told[] for each reader whose count changed since the last call (at most
 * nprocs); returns their number. */
typedef struct dsm__coll_told dsm__coll_told_t;
size_t dsm__home_pushes_told(dsm__coll_told_t *told);
/* The home's own copy fell behind a notice (acquire): wait for the diff.
 * Without dsm__mu; takes it. */
void dsm__home_wait(uint32_t pg);
/* Under dsm__mu: diffs were applied to home pages (diff_recv.c); answer
 * the requests that waited for them, and wake dsm__home_wait. */
void dsm__home_diffs_in(void);
/* A home page whose diff just came in may be usable again; queued: its
 * protection changes at the caller's dsm__prot_flush. With dsm__mu held. */
void dsm__home_catch_up(uint32_t pg, dsm__page_t *p, int queued);

/* ---- diff_recv.c: diffs arriving at a home ---------------------------------------------- */

void dsm__diff_recv_init(void);
/* A collective moved pages (collective.c): apply the diffs that waited for
 * it and re-examine deferred requests. With dsm__mu held. */
void dsm__diff_recv_retry(void);
/* A home page stops being ours (dsm__home_give) or becomes ours (take). */
void dsm__home_give(uint32_t pg, dsm__page_t *p, unsigned to);
void dsm__home_take(uint32_t pg, dsm__page_t *p, int clean);
/* At a collective of the whole job, for a page only we wrote in the epoch:
 * exclusive again, unless someone took a copy since our last write. */
void dsm__home_exclusive(uint32_t pg, dsm__page_t *p);

/* ---- first_touch.c: a page nobody touched goes to the first process that does --------- */

/* Home side, serving a PAGE request: may page pg (ours) be given to the
 * asker (write: it faulted on a write)? If so the caller queues it
 * PROT_NONE, flushes, and then calls dsm__first_touch_give, which gives it
 * (1: the asker is its home now, *gen the gift's generation, for the
 * answer) if it is still empty. */
int  dsm__first_touch_candidate(uint32_t pg, const dsm__page_t *p, int write);
/* ... or, in a run whose faulting page is one, given with its data to an
 * asker that faulted on a write (first_touch.c, "with its data"). */
int  dsm__first_touch_data_candidate(uint32_t pg, const dsm__page_t *p);
/* with_data: give whatever the page holds; else only if it is still empty. */
int  dsm__first_touch_give(uint32_t pg, dsm__page_t *p, unsigned to, int write, int with_data,
                           uint32_t *gen);
/* Asker side: page pg was given to us (queues its protection); with_data:
 * the caller wrote its bytes, else it is zeros. */
void dsm__first_touch_take(uint32_t pg, dsm__page_t *p, uint32_t gen, int with_data);
/* Collective arrival: the pages given to us since the last collective of
 * the whole job, sorted, each once, with the gift's generation as word
 * (the list stays ours) ... */
typedef struct dsm__coll_page dsm__coll_page_t;
size_t dsm__first_touch_gifts(const dsm__coll_page_t **gifts);
/* ... which ended once its departure was applied. */
void dsm__first_touch_epoch_end(void);

/* ---- diff_send.c: a writer's diffs to the homes of pages it wrote ------------------------ */

void dsm__diff_send_init(void);
/* At a release, a written page homed elsewhere, still with its twin:
 * queue its diff (made from diff[len]; base is the version the twin was
 * taken from, NULL: zeros) ... */
void dsm__diff_queue(uint32_t pg, unsigned home, uint32_t idx, const uint32_t *base,
                     const uint8_t *diff, size_t len);
/* ... or, inside a collective's release, keep the twin and make the diff
 * later. Returns 0 when not deferred (the caller queues it); 1: the page
 * keeps p->twin until the diff is made or dropped. */
int dsm__diff_defer(uint32_t pg, dsm__page_t *p, uint32_t idx);
/* The end of every release: make and send what is queued, except a
 * collective's lists of more than 16 pages to one home, held until its
 * departure is applied: the departure may move those pages here, and then
 * no diff is needed. dsm__diff_send_held, after the departure, drops those
 * and sends the rest. */
void dsm__diff_send_release(void);
void dsm__diff_send_hold(void);
void dsm__diff_send_held(void);
/* Inside a collective's release, until its departure is applied. */
int dsm__diff_holding(void);
/* Send the held diffs now. Every message that carries interval records
 * outside the collective (a lock grant or TOKEN, a semaphore's answer, a
 * task, a flush) calls it first: it may carry the interval whose diffs are
 * held, and its receiver would wait at the home for them while the
 * collective that releases them may wait for that receiver (a master that
 * takes a lock, whose manager is a joined slave, and then reads a page the
 * slave wrote). A diff that reaches a page's old home after the departure
 * moved the page is ignored there (home.c). */
void dsm__diff_unhold(void);

/* ---- collective.c: what barriers and joins carry for the protocol -------------------- */

/* Arrival side, first: the release that a collective's arrival is. Its
 * large DIFFs wait for the departure (dsm__diff_send_hold), which
 * dsm__coll_depart_apply sends them after. */
void dsm__coll_release(unsigned team);
/* Then this process's contribution, appended to the arrival. Pushes to
 * rank ride_to made by the release ride in it (none when ride_to is the
 * process itself): the process that will take this arrival. */
void dsm__coll_arrive_encode(dsm__buf_t *b, unsigned ride_to);
/* Manager side (the process that collects all arrivals): account one
 * arrival part (its records are already in the store), decoded whole
 * first (dsm__coll_arrival_read, coll_msg.c): a malformed one is fatal
 * before anything is noted ... */
void dsm__coll_note(unsigned rank, const uint8_t *data, size_t len);
/* ... and, once every member has arrived, the part of every departure that
 * the protocol adds (call once per collective and append the same bytes to
 * every departure). `full`: the whole job took part; `all_records`: the
 * departures also deliver every record (a barrier; a join does not). */
void dsm__coll_depart_encode(dsm__buf_t *b, int full, int all_records);
/* Departure side: decode the departure part whole first
 * (dsm__coll_depart_read, coll_msg.c: a malformed one is refused before
 * anything is applied); then note the pushes it names (dsm__pushed_expect);
 * the caller then waits for them (dsm__pushed_wait, without dsm__mu) before
 * the acquire ... */
typedef struct dsm__coll_depart dsm__coll_depart_t;
void dsm__coll_depart_pushes(const dsm__coll_depart_t *d);
/* ... then the rest, after the departure's records were acquired; ends
 * with the held DIFFs of pages that did not move here. */
void dsm__coll_depart_apply(const dsm__coll_depart_t *d);
/* Test knob DSM_TEST_LAG: called without dsm__mu just before a departure is
 * applied; sleeps on the rank it names. */
void dsm__coll_lag(void);

/* ---- carry.c: diffs that travel with a lock ------------------------------------------ */

void dsm__carry_add(dsm__carry_t **c, uint32_t pg, uint32_t idx, const uint32_t *base,
                    const uint8_t *diff, size_t len);
/* Append to a grant for rank `to` what *c carries that `to` did not keep
 * from its last hold of the lock; *c is kept for when the lock comes back. */
void dsm__carry_encode(dsm__buf_t *b, dsm__carry_t **c, unsigned to);
/* Take what a grant carries, with what *c kept (carry.c). -1 when malformed. */
int  dsm__carry_decode(dsm__rd_t *r, dsm__carry_t **c);
/* After the acquire of the lock it came with: bring out-of-date copies up to
 * date from the carried diffs where they apply. */
void dsm__carry_apply(dsm__carry_t *c);
void dsm__carry_free(dsm__carry_t **c);

/* ---- gc.c ------------------------------------------------------------------------------- */

/* Would this process like to discard its interval records? */
int  dsm__gc_wanted(void);
/* Discard those up to upto: only after a barrier of the whole job, which
 * delivered every record up to there to everyone. */
void dsm__gc_run(const uint32_t *upto);

#endif
