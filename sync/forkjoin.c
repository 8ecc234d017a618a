/*
 * forkjoin.c — the fork/join model ompdsmcc targets.
 *
 * dsm_fork is a release by the master: one FORK message to each slave of the
 * team carries the function, the argument block and the interval records the
 * slave lacks, and the slave's receipt of it is an acquire. dsm_join is a
 * collective in which only the master acquires: each slave's JOIN carries its
 * new records, and the slaves learn the others' writes with the next fork.
 * The master answers every JOIN once all are in, with what the protocol
 * concluded from the region (dsm/collective.c: pages whose home moves).
 * A JOIN also carries the slave's partials of the region's reductions, which
 * the master folds into the shared variables when the join is complete.
 * A FORK with no function tells the slaves the master is exiting.
 *
 * The team waits between regions in the join. The master holds the JOINs'
 * answers (the departure, and the pushes that ride to each slave) and
 * sends each with the next FORK appended, so a region costs two messages
 * per slave, the JOIN and its answer, like a barrier, instead of four (a
 * one-way FORK is acknowledged), and the slave needs no event wait (two
 * wake-ups of its service thread). The master applies the departure itself
 * at the join, as before, so until the answers go out the slaves lag one
 * epoch behind it, which the protocol allows any process (collective.c);
 * what it does not allow is the master waiting for a lagging slave, whose
 * requests would wait at that slave for the departure the master holds.
 * So before the master's thread waits for a peer for any reason, or
 * read-faults, it answers the JOINs it holds with the departure alone
 * (dsm__tp_first_use), and the slaves then wait for a one-way FORK as
 * after the first region. A loop of regions whose sequential code between
 * them touches no invalid page runs on two messages per region.
 * DSM_JOIN_HOLD=0 answers every JOIN at once (the comparison).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "coll_msg.h"
#include "dsm_internal.h"
#include "profile.h"
#include "lrc.h"
#include "private_stack.h"
#include "sync.h"
#include "net/transport.h"


unsigned dsm__team = 1;
int dsm__forkjoin_mode;

/* A slave waits for a FORK on an event, serving the network meanwhile, so
 * the FORK is received and handled by the thread that runs the region. */
static dsm__tp_event_t fork_ev = DSM__TP_EVENT_INIT;
/* The master waits for the JOINs the same way. */
static dsm__tp_event_t join_ev = DSM__TP_EVENT_INIT;
static uint8_t *fork_msg;          /* slave: the FORK waiting to be run */
static size_t fork_len;
static unsigned joins;             /* master: JOINs of the current region */
static dsm__reqh_t *join_h;        /* master: their handles, answered at the join */
static uint32_t **peer_known;      /* master: what each slave is known to hold */
/* master: each JOIN's records, reduction and the protocol's part, kept as
 * they came until the master joins too (take_joins) */
static uint8_t **join_tail;
static size_t *join_tail_len;
static int in_region;

/* Master: the JOINs whose answers wait for the next fork, per slave. The
 * answer is tag (u32: 0 the departure alone, 1 a FORK follows), then what
 * rides to the slave and the departure (dep), then the FORK. `holding` is
 * set on the master's thread while any are held. */
enum { ANSWER_DEPART = 0, ANSWER_FORK = 1 };
struct held { dsm__reqh_t h; dsm__buf_t dep; int on; };
static struct held *held;
static __thread int holding;
static int hold_joins;

/* Reductions that ride in the join. Every member of the team records its
 * partials in the same order (the compiler emits the calls); a slave sends
 * them in its JOIN, the master keeps its own and the shared variables. */
static dsm__buf_t red_mine;        /* per reduction: type, op, count (u64), bytes */
static uint32_t red_n;
static void **red_shared;          /* master: where each result goes */
static uint8_t **red_in;           /* master: each slave's block, from its JOIN */
static size_t *red_in_len;

static void on_fork(const dsm__msg_t *m)
{
  uint8_t *copy = malloc(m->len ? m->len : 1);
  if (!copy) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  memcpy(copy, m->data, m->len);
  pthread_mutex_lock(&dsm__mu);
  if (fork_msg) {
    /* Only an exit notice may overtake an unfinished region; keep the first. */
    free(copy);
  } else {
    fork_msg = copy;
    fork_len = m->len;
    dsm__tp_event_fire(&fork_ev);
  }
  pthread_mutex_unlock(&dsm__mu);
  dsm__tp_reply(dsm__reqh(m), NULL, 0);
}

/* JOIN: known vt, own records, the protocol's arrival part. Answered by the
 * master's join_impl once every member of the team has joined. */
static void on_join(const dsm__msg_t *m)
{
  dsm__rd_t r = dsm__rd(m->data, m->len);
  pthread_mutex_lock(&dsm__mu);
  if (m->origin == 0 || m->origin >= dsm__nprocs || dsm__vt_decode(&r, peer_known[m->origin]) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "malformed JOIN from rank %u", m->origin);
  /* The rest waits for the master's own join (take_joins): stored now, the
   * records would be applied by any acquire the master makes before it
   * joins (a lock in the region), and a home page of the master would then
   * wait for a diff that its writer holds until the join is answered
   * (diff_send.c), which the master, waiting on that page, never does. */
  free(join_tail[m->origin]);
  join_tail_len[m->origin] = r.len - r.off;
  join_tail[m->origin] = malloc(join_tail_len[m->origin] ? join_tail_len[m->origin] : 1);
  if (!join_tail[m->origin]) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  memcpy(join_tail[m->origin], r.p + r.off, join_tail_len[m->origin]);
  join_h[joins++] = dsm__reqh(m);
  dsm__tp_event_fire(&join_ev);
  pthread_mutex_unlock(&dsm__mu);
}

/* Master, every member joined: the JOINs' records into the store, their
 * reductions, and the protocol's parts. With dsm__mu held. */
static void take_joins(void)
{
  for (unsigned i = 0; i < joins; i++) {
    unsigned s = join_h[i].origin;
    dsm__rd_t r = dsm__rd(join_tail[s], join_tail_len[s]);
    if (dsm__intervals_decode(&r) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "malformed JOIN from rank %u", s);
    uint32_t rlen = dsm__rd_u32(&r);
    const void *red = dsm__rd_take(&r, rlen);
    if (r.bad)
      dsm__fatal(DSM__EXIT_FATAL, "malformed JOIN from rank %u", s);
    free(red_in[s]);
    red_in[s] = rlen ? malloc(rlen) : NULL;
    if (rlen && !red_in[s]) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    if (rlen) memcpy(red_in[s], red, rlen);
    red_in_len[s] = rlen;
    dsm__coll_note(s, r.p + r.off, r.len - r.off);
    free(join_tail[s]);
    join_tail[s] = NULL;
  }
}

/* Answer slave s's held JOIN: its departure, then the FORK if there is one. */
static void answer(unsigned s, const void *fork, size_t fork_len)
{
  uint32_t tag = fork ? ANSWER_FORK : ANSWER_DEPART;
  const void *parts[3] = { &tag, held[s].dep.p, fork };
  size_t lens[3] = { sizeof tag, held[s].dep.len, fork_len };
  dsm__tp_replyv(held[s].h, parts, lens, fork ? 3 : 2);
  dsm__buf_free(&held[s].dep);
  held[s].on = 0;
}

/* Answer the held JOINs of slaves from..nprocs-1 with their departures. */
static void answer_held(unsigned from)
{
  for (unsigned s = from; s < dsm__nprocs; s++)
    if (held[s].on)
      answer(s, NULL, 0);
}

/* dsm__tp_first_use: this thread is about to wait for a peer. */
static void answer_before_waiting(void)
{
  if (holding) {
    holding = 0;
    DSM__STAT_INC(join_answers_early);
    answer_held(1);
  }
}

/* The master's threads are about to run a region among themselves (a team
 * of this process alone, sync/omp/omp_width.c). Any of them may wait for
 * a peer, a page whose diff that peer holds until its JOIN is answered,
 * and only this thread's waits answer first (`holding` is its own): a
 * worker's fetch waited for rank 1, and rank 1 for the answer, for good
 * (the corpus's mg_like on 2 processes of 2 threads, 2026-12-07). */
void dsm__join_answer_held(void)
{
  answer_before_waiting();
}

void dsm__forkjoin_init(void)
{
  dsm__team = dsm__nprocs;
  peer_known = calloc(dsm__nprocs, sizeof *peer_known);
  join_h = calloc(dsm__nprocs, sizeof *join_h);
  red_in = calloc(dsm__nprocs, sizeof *red_in);
  red_in_len = calloc(dsm__nprocs, sizeof *red_in_len);
  join_tail = calloc(dsm__nprocs, sizeof *join_tail);
  join_tail_len = calloc(dsm__nprocs, sizeof *join_tail_len);
  if (!peer_known || !join_h || !red_in || !red_in_len || !join_tail || !join_tail_len)
    dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  for (unsigned s = 0; s < dsm__nprocs; s++)
    peer_known[s] = calloc(dsm__nprocs, sizeof(uint32_t));
  held = dsm__xcalloc(dsm__nprocs, sizeof *held);
  hold_joins = (int)dsm__env_long("DSM_JOIN_HOLD", 1, 0, 1);
  if (hold_joins && dsm__rank == 0)
    dsm__tp_first_use = answer_before_waiting;
  dsm__tp_handle(DSM__MSG_FORK, on_fork);
  dsm__tp_handle(DSM__MSG_JOIN, on_join);
}

/* FORK: fn (u64), team, exit flag, status, arg size (u64), arg, records. */
struct fork_call { void (*fn)(void *); const void *arg; size_t size; unsigned team; int exit_status; int exiting; };

static void fork_impl(void *p)
{
  /* The call and the region's arguments are read before dsm__mu is taken:
   * they may lie on a shared stack (lock.c, acquire_impl, says why). */
  struct fork_call a = *(struct fork_call *)p, *c = &a;
  void *arg = malloc(c->size ? c->size : 1);
  if (!arg) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  if (c->size) memcpy(arg, c->arg, c->size);
  c->arg = arg;
  unsigned upto = c->exiting ? dsm__nprocs : c->team;
  dsm__buf_t *bufs = calloc(upto, sizeof *bufs);
  pthread_mutex_lock(&dsm__mu);
  dsm__release();
  for (unsigned s = 1; s < upto; s++) {
    dsm__buf_u64(&bufs[s], (uint64_t)(uintptr_t)c->fn);
    dsm__buf_u32(&bufs[s], c->team);
    dsm__buf_u32(&bufs[s], (uint32_t)c->exiting);
    dsm__buf_u32(&bufs[s], (uint32_t)c->exit_status);
    dsm__buf_u64(&bufs[s], c->size);
    dsm__buf_put(&bufs[s], c->arg, c->size);
    if (!c->exiting) {
      dsm__buf_u32(&bufs[s], dsm__home_pushes_sent_to(s));
      dsm__intervals_encode(&bufs[s], peer_known[s]);
      memcpy(peer_known[s], dsm__known, dsm__nprocs * sizeof(uint32_t));
    }
  }
  pthread_mutex_unlock(&dsm__mu);
  /* A slave whose JOIN is held gets the FORK in its answer (the release
   * above sent nothing that waits, or the answers went out already). */
  holding = 0;
  for (unsigned s = 1; s < upto; s++) {
    if (held[s].on) {
      answer(s, bufs[s].p, bufs[s].len);
      DSM__STAT_INC(forks_in_answers);
    } else {
      dsm__tp_send(s, DSM__MSG_FORK, bufs[s].p, bufs[s].len);
    }
    dsm__buf_free(&bufs[s]);
  }
  answer_held(upto);    /* outside a smaller team: they wait for a FORK */
  free(bufs);
  free(arg);
}

/* The master runs region bodies on a private stack, as the slaves do. The
 * locals of a region body are private to each thread by OpenMP's rules, so
 * they need not be shared; running them on the shared stack would make every
 * call inside the region write a shared page, and every barrier cost the
 * master a write fault and the others an invalidation. The frames of the
 * sequential code that forked stay on the shared stack, so their locals
 * remain shared. */
static void *region_stack_top;

/* In a program that uses tasks, a task may run on another process and
 * still name its parent's locals (shared(x) on a local, a pointer to an
 * alloca'd board): there every process runs region bodies on a stack in
 * shared memory, carved from its own slice of the heap, so that it is the
 * page's home and the stack costs nothing until another process reads it. */
static void *task_stack_top;

static size_t region_stack_size(void)
{
  /* OMP_STACKSIZE when it asks for more than 64 MiB (issue 56) */
  return dsm__omp_stack_size("DSM_REGION_STACK_MB", 64, 1);
}

void *dsm__shared_stack_new(void)
{
  size_t sz = region_stack_size();
  char *st = dsm_malloc(sz);
  if (!st)
    dsm__fatal(DSM__EXIT_FATAL, "cannot allocate a %zu MiB region stack in shared "
               "memory (DSM_REGION_STACK_MB or OMP_STACKSIZE)", sz >> 20);
#if defined(__SANITIZE_THREAD__)
  /* Under ThreadSanitizer the runtime's own frames go on this stack too,
   * and a first touch of one of its pages from inside the runtime, while it
   * holds its trace lock, entered the fault handler, whose instrumented
   * code wanted that lock again: a hang in tasks_rt (DSM_THREADS=2, n=4,
   * once in 120 runs, the stacks in the trace). The top MiB is touched here,
   * from our own code, before anything runs on it. */
  size_t pre = sz < ((size_t)1 << 20) ? sz : (size_t)1 << 20;
  for (size_t off = sz - pre; off < sz; off += DSM__PAGE)
    ((volatile char *)st)[off] = 0;
#endif
  return st + sz;
}

static int shared_stacks;

void dsm__fork_shared_stacks(int on)
{
  shared_stacks = on;
}

/* Did the user size the stacks of region bodies (OMP_STACKSIZE, or
 * DSM_REGION_STACK_MB)? A slave then runs them on a region stack of that
 * size, as libgomp runs its workers on stacks of OMP_STACKSIZE, and not on
 * its process's own stack, whose size is the shell's ulimit (issue 56). */
static int sized_stack(void)
{
  static int asked = -1;
  if (asked < 0)
    asked = (getenv("OMP_STACKSIZE") && *getenv("OMP_STACKSIZE")) ||
            (getenv("DSM_REGION_STACK_MB") && *getenv("DSM_REGION_STACK_MB"));
  return asked;
}

static void run_region_body(void (*fn)(void *), void *arg)
{
  if (shared_stacks) {
    if (!task_stack_top)
      task_stack_top = dsm__shared_stack_new();
    dsm__call_on_stack(fn, arg, task_stack_top);
  } else if (dsm__nprocs > 1 && (dsm__is_shared(__builtin_frame_address(0)) || sized_stack())) {
    if (!region_stack_top) {
      size_t sz = region_stack_size();
      void *st = mmap(NULL, sz, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
      if (st == MAP_FAILED)
        dsm__fatal(DSM__EXIT_FATAL, "cannot allocate the region stack: %s", strerror(errno));
      region_stack_top = (char *)st + sz;
    }
    dsm__call_on_stack(fn, arg, region_stack_top);
  } else {
    fn(arg);
  }
}

void dsm__fork_team(void (*fn)(void *), void *arg, size_t size, unsigned team)
{
  if (dsm__rank != 0)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_fork called by rank %u; only the master forks", dsm__rank);
  if (in_region)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_fork inside a parallel region (nested regions run "
               "serialized: call the function directly)");
  if (team < 1 || team > dsm__nprocs)
    team = dsm__nprocs;
  /* Copy the argument block while no lock is held: it may sit on the shared
   * stack and fault. */
  void *copy = malloc(size ? size : 1);
  if (!copy) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  if (size) memcpy(copy, arg, size);
  dsm__forkjoin_mode = 1;
  in_region = 1;
  DSM__STAT_INC(forks);
  if (dsm__nprocs > 1) {
    struct fork_call c = { fn, copy, size, team, 0, 0 };
    dsm__on_private_stack(fork_impl, &c);
  }
  dsm__team = team;
  run_region_body(fn, copy);
  free(copy);
}

void dsm_fork(void (*fn)(void *), void *arg, size_t arg_size)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_fork called before dsm_startup");
  dsm__fork_team(fn, arg, arg_size, dsm__nprocs);
}

/* Master, after the join's acquire (the shared variables may fault, so no
 * lock is held): each reduction's partials in rank order, folded into its
 * shared variable. */
static void fold_reductions(void)
{
  dsm__rd_t mine = dsm__rd(red_mine.p, red_mine.len), in[DSM__MAX_PROCS];
  for (unsigned s = 1; s < dsm__team; s++)
    in[s] = dsm__rd(red_in[s], red_in_len[s]);
  for (uint32_t k = 0; k < red_n; k++) {
    uint32_t type = dsm__rd_u32(&mine), op = dsm__rd_u32(&mine);
    uint64_t count = dsm__rd_u64(&mine);
    size_t bytes = dsm__red_size((int)type) * count;
    const void *own = dsm__rd_take(&mine, bytes);
    /* Partials sit unaligned in the messages: combined from aligned copies. */
    uint8_t *acc = malloc(bytes ? 2 * bytes : 1), *x = acc + bytes;
    if (!acc) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    memcpy(acc, own, bytes);
    for (unsigned s = 1; s < dsm__team; s++) {
      uint32_t t = dsm__rd_u32(&in[s]), o = dsm__rd_u32(&in[s]);
      uint64_t c = dsm__rd_u64(&in[s]);
      const void *theirs = dsm__rd_take(&in[s], bytes);
      if (in[s].bad || t != type || o != op || c != count)
        dsm__fatal(DSM__EXIT_FATAL, "rank %u joined with reduction %u unlike the master's "
                   "(type %u/%u, operator %u/%u, %llu/%llu values)", s, k, t, type, o, op,
                   (unsigned long long)c, (unsigned long long)count);
      memcpy(x, theirs, bytes);
      if (dsm__red_combine((int)type, (int)op, acc, x, count) < 0)
        dsm__fatal(DSM__EXIT_FATAL, "reduction operator %u does not apply to type %u", op, type);
    }
    if (dsm__red_combine((int)type, (int)op, red_shared[k], acc, count) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "reduction operator %u does not apply to type %u", op, type);
    free(acc);
  }
  for (unsigned s = 1; s < dsm__team; s++)
    if (in[s].off != in[s].len)
      dsm__fatal(DSM__EXIT_FATAL, "rank %u joined with more reductions than the master's %u",
                 s, red_n);
  red_mine.len = 0;
  red_n = 0;
}

void dsm__join_reduce(void *shared, const void *partial, size_t count, int type, int op)
{
  size_t bytes = dsm__red_size(type) * count;
  if (!bytes)
    dsm__fatal(DSM__EXIT_FATAL, "reduction of unknown type %d", type);
  if (!in_region || dsm__team <= 1 || dsm__nprocs == 1) {
    if (dsm__red_combine(type, op, shared, partial, count) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "reduction operator %d does not apply to type %d", op, type);
    return;
  }
  dsm__buf_u32(&red_mine, (uint32_t)type);
  dsm__buf_u32(&red_mine, (uint32_t)op);
  dsm__buf_u64(&red_mine, count);
  dsm__buf_put(&red_mine, partial, bytes);
  if (dsm__rank == 0) {
    void **ns = realloc(red_shared, (red_n + 1) * sizeof *red_shared);
    if (!ns) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    red_shared = ns;
    red_shared[red_n] = shared;
  }
  red_n++;
}

static void join_impl(void *unused)
{
  pthread_mutex_lock(&dsm__mu);
  dsm__coll_release(dsm__team);
  dsm__buf_t mine = { 0 };
  dsm__coll_arrive_encode(&mine, 0);
  dsm__coll_note(0, mine.p, mine.len);
  dsm__buf_free(&mine);
  uint64_t t0 = dsm__now_ns();
  while (joins < dsm__team - 1) {
    pthread_mutex_unlock(&dsm__mu);
    dsm__tp_event_wait(&join_ev);
    pthread_mutex_lock(&dsm__mu);
  }
  dsm__blocked_since(t0);
  dsm__prof_span("join", t0, dsm__now_ns(), 0);
  take_joins();
  dsm__buf_t coll = { 0 };
  dsm__coll_depart_encode(&coll, dsm__team == dsm__nprocs, 0);
  for (unsigned i = 0; i < joins; i++) {
    /* What rides to this member first (dsm__home_ride_put), then what
     * every member gets; held for the next FORK (see the top). */
    unsigned s = join_h[i].origin;
    held[s].h = join_h[i];
    held[s].dep.len = 0;
    dsm__home_ride_put(&held[s].dep, s);
    dsm__buf_put(&held[s].dep, coll.p, coll.len);
    held[s].on = 1;
  }
  holding = joins > 0;
  if (!hold_joins)
    answer_before_waiting();
  joins = 0;
  dsm__rd_t r = dsm__rd(coll.p, coll.len);
  dsm__coll_depart_t dep;
  if (!dsm__coll_depart_read(&dep, &r, dsm__nprocs, dsm__npages))
    dsm__fatal(DSM__EXIT_FATAL, "internal error: malformed join departure");
  dsm__coll_depart_pushes(&dep);
  pthread_mutex_unlock(&dsm__mu);
  dsm__pushed_wait();
  pthread_mutex_lock(&dsm__mu);
  dsm__acquire_after_release();
  dsm__coll_depart_apply(&dep);
  pthread_mutex_unlock(&dsm__mu);
  dsm__buf_free(&coll);
  fold_reductions();
}

void dsm_join(void)
{
  if (dsm__rank != 0)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_join called by rank %u; only the master joins", dsm__rank);
  if (!in_region)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_join without a matching dsm_fork");
  if (dsm__nprocs > 1 && dsm__team > 1)
    dsm__on_private_stack(join_impl, NULL);
  in_region = 0;
  dsm__team = dsm__nprocs;
}

int dsm__forkjoin_in_region(void)
{
  return in_region;
}

void dsm__forkjoin_release_slaves(int status)
{
  if (dsm__nprocs == 1)
    return;
  struct fork_call c = { NULL, NULL, 0, dsm__nprocs, status, 1 };
  fork_impl(&c);
}

/* A slave at the end of a region: JOIN (its records, its reduction
 * partials, the arrival part), then the answer: the departure, and the
 * next FORK if it came with it. */
static void slave_join(void)
{
  dsm__buf_t b = { 0 };
  pthread_mutex_lock(&dsm__mu);
  dsm__coll_release(dsm__team);
  dsm__vt_encode(&b, dsm__known);
  dsm__own_intervals_encode(&b, dsm__barrier_own_sent());
  dsm__barrier_set_own_sent(dsm__known[dsm__rank]);
  dsm__buf_u32(&b, (uint32_t)red_mine.len);
  dsm__buf_put(&b, red_mine.p, red_mine.len);
  red_mine.len = 0;
  red_n = 0;
  dsm__coll_arrive_encode(&b, 0);
  pthread_mutex_unlock(&dsm__mu);
  void *dep = NULL;
  size_t dep_len = 0;
  dsm__tp_call(0, DSM__MSG_JOIN, b.p, b.len, &dep, &dep_len);
  dsm__buf_free(&b);
  dsm__coll_lag();
  pthread_mutex_lock(&dsm__mu);
  dsm__rd_t dr = dsm__rd(dep, dep_len);
  uint32_t tag = dsm__rd_u32(&dr);
  dsm__coll_ride_t ride;
  dsm__coll_depart_t depart;
  /* Decoded whole, the FORK that may follow aside, before any of it is
   * applied. */
  if ((tag != ANSWER_DEPART && tag != ANSWER_FORK) || !dsm__coll_ride_read(&ride, &dr) ||
      !dsm__coll_depart_read(&depart, &dr, dsm__nprocs, dsm__npages) ||
      (tag == ANSWER_DEPART && dr.off != dr.len) || (tag == ANSWER_FORK && dr.off >= dr.len) ||
      dsm__pushed_ride_take(0, &ride) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "malformed JOIN answer from the master");
  dsm__coll_depart_pushes(&depart);
  dsm__coll_depart_apply(&depart);
  if (tag == ANSWER_FORK && !fork_msg) {
    /* The next region's FORK: run it without waiting. (Only an exit
     * notice can be here already, and it wins, as in on_fork.) */
    fork_len = dr.len - dr.off;
    fork_msg = dsm__xcalloc(1, fork_len);
    memcpy(fork_msg, dr.p + dr.off, fork_len);
  }
  pthread_mutex_unlock(&dsm__mu);
  free(dep);
  dsm__team = dsm__nprocs;
}

int dsm_serve_forks(void)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_serve_forks called before dsm_startup");
  if (dsm__rank == 0)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_serve_forks called by the master");
  for (;;) {
    pthread_mutex_lock(&dsm__mu);
    uint64_t t0 = dsm__now_ns();
    while (!fork_msg) {
      pthread_mutex_unlock(&dsm__mu);
      dsm__tp_event_wait(&fork_ev);
      pthread_mutex_lock(&dsm__mu);
    }
    dsm__blocked_since(t0);
    dsm__prof_span("fork wait", t0, dsm__now_ns(), 0);
    uint8_t *msg = fork_msg;
    size_t len = fork_len;
    fork_msg = NULL;
    dsm__rd_t r = dsm__rd(msg, len);
    void (*fn)(void *) = (void (*)(void *))(uintptr_t)dsm__rd_u64(&r);
    uint32_t team = dsm__rd_u32(&r), exiting = dsm__rd_u32(&r), status = dsm__rd_u32(&r);
    uint64_t size = dsm__rd_u64(&r);
    const void *arg = dsm__rd_take(&r, size);
    if (r.bad)
      dsm__fatal(DSM__EXIT_FATAL, "malformed FORK from the master");
    if (exiting) {
      pthread_mutex_unlock(&dsm__mu);
      free(msg);
      return (int)status;
    }
    uint32_t pushed = dsm__rd_u32(&r);
    if (team > dsm__nprocs || dsm__intervals_decode(&r) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "malformed FORK from the master");
    /* The master's pushes of this release, and the pushes the last join
     * named, come before the acquire. */
    dsm__pushed_expect(0, pushed);
    pthread_mutex_unlock(&dsm__mu);
    dsm__pushed_wait();
    pthread_mutex_lock(&dsm__mu);
    dsm__acquire();
    pthread_mutex_unlock(&dsm__mu);
    dsm__distribute_apply();
    DSM__STAT_INC(forks);

    void *copy = malloc(size ? size : 1);
    if (!copy) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    if (size) memcpy(copy, arg, size);
    free(msg);
    dsm__team = team;
    in_region = 1;
    run_region_body(fn, copy);
    in_region = 0;
    free(copy);

    slave_join();
  }
}

/* ---- dsm_distribute ------------------------------------------------------------- */

/* Bytes the master pushed into this process's private memory, written by the
 * application thread at its next acquire (as TreadMarks does). */
struct dist { uint64_t addr; uint64_t len; struct dist *next; uint8_t data[]; };
static struct dist *dist_head, **dist_tail = &dist_head;

static void on_distribute(const dsm__msg_t *m)
{
  dsm__rd_t r = dsm__rd(m->data, m->len);
  uint64_t addr = dsm__rd_u64(&r), len = dsm__rd_u64(&r);
  const void *data = dsm__rd_take(&r, len);
  if (r.bad)
    dsm__fatal(DSM__EXIT_FATAL, "malformed DISTRIBUTE from rank %u", m->origin);
  struct dist *d = malloc(sizeof *d + len);
  if (!d) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  d->addr = addr;
  d->len = len;
  d->next = NULL;
  memcpy(d->data, data, len);
  pthread_mutex_lock(&dsm__mu);
  *dist_tail = d;
  dist_tail = &d->next;
  pthread_mutex_unlock(&dsm__mu);
  dsm__tp_reply(dsm__reqh(m), NULL, 0);
}

void dsm__distribute_apply(void)
{
  pthread_mutex_lock(&dsm__mu);
  struct dist *d = dist_head;
  dist_head = NULL;
  dist_tail = &dist_head;
  pthread_mutex_unlock(&dsm__mu);
  while (d) {
    struct dist *next = d->next;
    memcpy((void *)(uintptr_t)d->addr, d->data, d->len);
    free(d);
    d = next;
  }
}

struct dist_call { void *addr; size_t size; };

/* A DISTRIBUTE carries at most this much of the bytes: the rest go in
 * more of them (a message's size must not follow the program's data). */
#define DIST_CHUNK (16u << 20)

static void distribute_impl(void *p)
{
  struct dist_call *c = p;
  dsm__call_t *calls = calloc(dsm__nprocs, sizeof *calls);
  if (!calls) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  size_t done = 0;
  do {
    uint8_t *addr = (uint8_t *)c->addr + done;
    size_t size = c->size - done < DIST_CHUNK ? c->size - done : DIST_CHUNK;
    dsm__buf_t b = { 0 };
    dsm__buf_u64(&b, (uint64_t)(uintptr_t)addr);
    dsm__buf_u64(&b, size);
    dsm__buf_put(&b, addr, size);
    for (unsigned s = 1; s < dsm__nprocs; s++) {
      calls[s - 1] = (dsm__call_t){ 0 };
      calls[s - 1].dst = s;
      calls[s - 1].type = DSM__MSG_DISTRIBUTE;
      calls[s - 1].req = b.p;
      calls[s - 1].req_len = b.len;
    }
    dsm__tp_call_many(calls, dsm__nprocs - 1);
    for (unsigned s = 0; s + 1 < dsm__nprocs; s++)
      free(calls[s].reply);
    dsm__buf_free(&b);
    done += size;
  } while (done < c->size);
  free(calls);
}

void dsm_distribute(void *addr, size_t size)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_distribute called before dsm_startup");
  if (dsm__rank != 0)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_distribute called by rank %u; only the master distributes",
               dsm__rank);
  /* Shared bytes reach the others through the protocol already. */
  if (dsm__nprocs == 1 || dsm__is_shared(addr))
    return;
  struct dist_call c = { addr, size };
  dsm__on_private_stack(distribute_impl, &c);
}
void dsm__distribute_init(void)
{
  dsm__tp_handle(DSM__MSG_DISTRIBUTE, on_distribute);
}
