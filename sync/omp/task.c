/*
 * task.c — OpenMP tasks across the processes of a team.
 *
 * A task is created where it is met and queued in that process's deque of
 * ready tasks. The process runs its own tasks newest first (the depth-first
 * order that keeps a recursion's memory small); a process with nothing to
 * do asks every other member of the team for work (STEAL), and a victim
 * gives its oldest ready task (the biggest piece of a recursion) in a GIVE.
 * A victim with nothing to give answers NONE and remembers the thief as
 * hungry: the next task it creates goes to the thief unasked, so an idle
 * process waits without asking again and again (no spinning, no polling).
 *
 * Consistency (lazy release consistency, docs/protocol.md): a GIVE is a
 * release by the giver and an acquire by the executor (it carries the
 * interval records the thief lacks, as a lock grant does), so the task sees
 * everything its creator wrote before creating it. When a task that ran on
 * another process ends, the executor releases and sends DONE to the
 * creator, with the records the creator lacks; the creator applies them
 * before a taskwait returns or a dependent task starts. The addresses in a
 * task's argument block are valid everywhere: shared variables are in
 * shared memory, and in a program that uses tasks the region stacks are too
 * (forkjoin.c), so a task may write into its parent's frame.
 *
 * Requests are answered by the application thread, at task scheduling
 * points (creating a task, ending one, taskwait, barriers), never by the
 * service thread: a give needs a release, and only the application thread
 * can close its interval. A thief therefore waits at most one task body of
 * the victim for its answer.
 *
 * Barriers (and the end of a region) complete every task of the team. A
 * process at a barrier runs and steals until it has nothing, then reports
 * IDLE to the team's manager (rank 0) with its counts of tasks created and
 * finished. A process that receives a task after reporting IDLE reports
 * BUSY and waits for the manager's answer before running it, so a process
 * the manager counts idle holds no task. The manager ends the phase (END)
 * when every member is idle and the counts agree (no task in flight);
 * then the usual barrier follows. Programs without tasks never get here.
 *
 * The task records and queues are private memory, under dsm__mu. The
 * application thread runs task bodies on its own (region) stack and does
 * everything else on the library's private stack, as the rest of sync/ does.
 *
 * Several OpenMP threads per process (dsmrun --threads): the deque, the
 * tasks given away and the barrier phase are the process's; the current
 * task, its implicit task and its taskgroups are each thread's. A thread
 * with nothing to run takes the newest ready task of its process (a
 * sibling's too: they share the memory, so no message and no acquire), and
 * only when the process has none does the process ask the others. The
 * process is idle at a barrier when all its threads of the region wait
 * there with nothing ready, and only then reports IDLE.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "lrc.h"
#include "omp.h"
#include "ompdsm_rt.h"
#include "private_stack.h"
#include "sync.h"
#include "net/transport.h"

enum { TK_STEAL = 1, TK_GIVE, TK_NONE, TK_DONE, TK_IDLE, TK_BUSY, TK_END, TK_ON, TK_FED };

#define TASK_MAGIC 0x7461736bu
/* A process that has this many ready tasks runs a new one at once unless
 * someone is asking for work: deeper queues only cost memory, and the
 * thieves take the oldest tasks anyway (DSM_TASK_QUEUE). */
#define QUEUE_DEFAULT 32

typedef struct task task_t;

/* The tasks that depended on one address, among the children of a task. */
typedef struct dep {
  uintptr_t addr;
  task_t *writer;            /* last child with out/inout on it */
  task_t **readers;          /* children with in on it since that writer */
  unsigned nreaders, cap;
  struct dep *next;
} dep_t;

#define DEP_BUCKETS 64

struct task {
  uint32_t magic;
  void (*fn)(void *);
  void *data;
  size_t size;
  task_t *parent;            /* NULL: an implicit task or one received */
  task_t *prev, *next;       /* ready deque, or the list of given tasks */
  task_t **succ;             /* siblings that wait for this one (depend) */
  unsigned nsucc, succ_cap;
  dep_t **deps;              /* DEP_BUCKETS, for this task's children */
  unsigned children;         /* created and not finished */
  unsigned npred;            /* unfinished siblings this one depends on */
  int refs;
  uint8_t final, group, finished, foreign, given, queued, inline_wait;
  uint32_t creator;          /* received: the process to send DONE to */
  uint64_t cookie;           /* received: the creator's record */
  uint32_t *creator_vt;      /* received: what the creator knew then */
};

/* ---- state (under dsm__mu unless said) ---------------------------------------- */

static int tasks_used;                 /* set before main, never changes */
static _Thread_local task_t *cur;      /* the task this thread runs */
static _Thread_local task_t *region_task; /* this thread's implicit task in the region */
/* team > 1: tasks are deferred. The thread's own: a serialized nested
 * region in one thread must not end another's. */
static _Thread_local int region_active;
static _Thread_local unsigned group_depth; /* taskgroups open in the current task */
static _Thread_local unsigned my_local;    /* this thread's number in its process */
static long queue_max;

/* The region's team as this process sees it. */
static uint64_t region_seq_begun = UINT64_MAX;
static unsigned tprocs = 1;            /* processes in the team */
static unsigned tlocal = 1;            /* threads of this process in it */
static unsigned at_end;                /* of those: waiting at the barrier, idle */
static unsigned end_left;              /* of those: gone past the phase's END */
static unsigned idle_waiters;          /* threads blocked with nothing to run */
static int busy_pending;               /* a BUSY report is on its way to the manager */

static task_t *rq_old, *rq_new;        /* ready deque: thieves take the oldest */
static unsigned nready;
static task_t *given;                  /* our tasks running elsewhere */
static int need_acquire;               /* records came with a GIVE or DONE */
/* One event per thread of the process: an event has one waiter at a time. */
static dsm__tp_event_t *task_evs;
static unsigned nevs;

static void task_fire(void)
{
  for (unsigned i = 0; i < nevs; i++)
    dsm__tp_event_fire(&task_evs[i]);
}

/* A phase is the stretch between two barriers of a region; messages name it
 * so that a late one from an earlier phase is recognised and dropped. */
static uint64_t epoch;
static uint64_t spawned, finished;     /* in this region */

/* Thieves that asked us (want) or that we answered NONE (hungry: the
 * round we answered, 0 for none). */
static uint64_t *want_epoch;
static uint32_t *want_round;
static uint32_t *want_vt;              /* nprocs x nprocs */
static uint32_t *hungry;
/* Victims that answered our round NONE and so hold us hungry (the round). */
static uint32_t *hungry_at;

/* Whether this phase has tasks at all: we created one (and told the team
 * with ON), or someone told us, or gave us one. A barrier of a phase
 * without tasks only reports IDLE and waits for END: no STEAL round. */
static int phase_created;
static uint64_t on_epoch = UINT64_MAX;

static int phase_has_tasks(void) { return phase_created || on_epoch == epoch; }

/* Our own requests for work. */
static uint32_t my_round;
static unsigned round_out;             /* answers still to come */
static int round_sent, work_since_round;
static uint64_t round_t0;              /* when the round went out; 0 once answered */

/* Barrier phase of this process. */
static int reported_idle, end_seen;
static uint32_t report_no;

/* Manager (rank 0) of the barrier phase. */
static uint64_t mg_epoch, mg_ended = UINT64_MAX;
static uint8_t *mg_idle;
static uint32_t *mg_report;
static uint64_t *mg_spawned, *mg_finished;

/* ---- records --------------------------------------------------------------------- */

static task_t *task_new(void)
{
  task_t *t = dsm__xcalloc(1, sizeof *t);
  t->magic = TASK_MAGIC;
  t->refs = 1;               /* dropped when it finishes */
  return t;
}

static void unref(task_t *t);

static void deps_free(task_t *t)
{
  if (!t->deps)
    return;
  for (unsigned b = 0; b < DEP_BUCKETS; b++) {
    dep_t *d = t->deps[b];
    while (d) {
      dep_t *nx = d->next;
      if (d->writer) unref(d->writer);
      for (unsigned i = 0; i < d->nreaders; i++)
        unref(d->readers[i]);
      free(d->readers);
      free(d);
      d = nx;
    }
  }
  free(t->deps);
  t->deps = NULL;
}

static void unref(task_t *t)
{
  DSM__ASSERT(t->magic == TASK_MAGIC && t->refs > 0);
  if (--t->refs > 0)
    return;
  deps_free(t);
  free(t->succ);
  free(t->data);
  free(t->creator_vt);
  t->magic = 0;
  free(t);
}

/* ---- the ready deque ------------------------------------------------------------- */

static void rq_push_new(task_t *t)
{
  t->queued = 1;
  t->next = NULL;
  t->prev = rq_new;
  if (rq_new) rq_new->next = t; else rq_old = t;
  rq_new = t;
  nready++;
}

static void rq_remove(task_t *t)
{
  if (t->prev) t->prev->next = t->next; else rq_old = t->next;
  if (t->next) t->next->prev = t->prev; else rq_new = t->prev;
  t->prev = t->next = NULL;
  t->queued = 0;
  nready--;
}

/* ---- dependences (between siblings, at their creator) ------------------------------- */

/* Append t to a growing list of tasks, taking a reference. */
static void list_add(task_t ***v, unsigned *n, unsigned *cap, task_t *t)
{
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 4;
    task_t **nv = realloc(*v, *cap * sizeof *nv);
    if (!nv) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    *v = nv;
  }
  (*v)[(*n)++] = t;
  t->refs++;
}

static void add_edge(task_t *pred, task_t *succ)
{
  if (pred->finished || pred == succ)
    return;
  if (pred->nsucc && pred->succ[pred->nsucc - 1] == succ)
    return;
  list_add(&pred->succ, &pred->nsucc, &pred->succ_cap, succ);
  succ->npred++;
}

static void add_deps(task_t *parent, task_t *t, unsigned ndeps, const ompdsm_dep_t *deps)
{
  if (!parent->deps)
    parent->deps = dsm__xcalloc(DEP_BUCKETS, sizeof *parent->deps);
  for (unsigned k = 0; k < ndeps; k++) {
    uintptr_t a = (uintptr_t)deps[k].addr;
    unsigned b = (unsigned)((a >> 3) ^ (a >> 11)) % DEP_BUCKETS;
    dep_t *d = parent->deps[b];
    while (d && d->addr != a)
      d = d->next;
    if (!d) {
      d = dsm__xcalloc(1, sizeof *d);
      d->addr = a;
      d->next = parent->deps[b];
      parent->deps[b] = d;
    }
    if (d->writer)
      add_edge(d->writer, t);
    if (deps[k].kind == OMPDSM_DEP_IN) {
      list_add(&d->readers, &d->nreaders, &d->cap, t);
    } else {
      for (unsigned i = 0; i < d->nreaders; i++) {
        add_edge(d->readers[i], t);
        unref(d->readers[i]);
      }
      d->nreaders = 0;
      if (d->writer) unref(d->writer);
      d->writer = t;
      t->refs++;
    }
  }
}

/* A task of ours is finished (here, or DONE came): wake what waited for it. */
static void finish_locked(task_t *t)
{
  t->finished = 1;
  for (unsigned i = 0; i < t->nsucc; i++) {
    task_t *s = t->succ[i];
    if (--s->npred == 0 && !s->inline_wait)
      rq_push_new(s);
    unref(s);
  }
  t->nsucc = 0;
  if (t->parent) {
    t->parent->children--;
    unref(t->parent);
  }
  unref(t);
  task_fire();
}

/* ---- giving and asking ------------------------------------------------------------- */

static void send_buf(unsigned to, dsm__buf_t *b)
{
  dsm__tp_send(to, DSM__MSG_TASK, b->p, b->len);
  dsm__buf_free(b);
}

static void hdr(dsm__buf_t *b, unsigned op)
{
  dsm__buf_u32(b, op);
  dsm__buf_u64(b, epoch);
}

/* Hand t to process r. A task we received goes on under its creator's name:
 * its DONE goes there directly. */
static void give_locked(task_t *t, unsigned r, uint32_t round, int *released)
{
  if (!*released) {
    dsm__release();          /* what the task may read goes with it */
    *released = 1;
  }
  rq_remove(t);
  dsm__buf_t b = { 0 };
  hdr(&b, TK_GIVE);
  dsm__buf_u32(&b, round);
  dsm__buf_u32(&b, t->foreign ? t->creator : dsm__rank);
  dsm__buf_u64(&b, t->foreign ? t->cookie : (uint64_t)(uintptr_t)t);
  dsm__buf_u64(&b, (uint64_t)(uintptr_t)t->fn);
  dsm__buf_u32(&b, (uint32_t)(t->final | t->group << 1));
  dsm__buf_u64(&b, t->size);
  dsm__buf_put(&b, t->data, t->size);
  dsm__vt_encode(&b, t->foreign ? t->creator_vt : dsm__known);
  dsm__diff_unhold();
  dsm__intervals_encode(&b, want_vt + (size_t)r * dsm__nprocs);
  send_buf(r, &b);
  DSM__STAT_INC(tasks_given);
  DSM__DEBUG("task: gave a task to rank %u (round %u)", r, round);
  if (t->foreign) {
    unref(t);
  } else {
    t->given = 1;
    t->next = given;
    t->prev = NULL;
    if (given) given->prev = t;
    given = t;
  }
}

/* Answer the processes that asked for work, and feed the hungry ones.
 * keep: ready tasks to keep for ourselves (1 when we are about to wait). */
static void serve_locked(unsigned keep)
{
  int released = 0;
  for (unsigned r = 0; r < tprocs; r++) {
    if (r == dsm__rank)
      continue;
    int asked = want_round[r] && want_epoch[r] == epoch;
    if (!asked && !hungry[r])
      continue;
    if (nready > keep) {
      give_locked(rq_old, r, asked ? want_round[r] : 0, &released);
      want_round[r] = 0;
      hungry[r] = 0;
    } else if (asked) {
      dsm__buf_t b = { 0 };
      hdr(&b, TK_NONE);
      dsm__buf_u32(&b, want_round[r]);
      send_buf(r, &b);
      hungry[r] = want_round[r];
      want_round[r] = 0;
    }
  }
}

/* We have work of our own again (we create tasks): victims that hold us
 * hungry would send us their next task unasked, to a process that no
 * longer needs it. In sort_task on 2 processes, each process was still
 * hungry at the other from the end of the sort when the merges began,
 * and each merge's first split went to the process that was about to
 * merge the other half: half the inputs of each merge then had to be
 * fetched. The next time we run dry we ask again (work_since_round). */
static void fed_locked(void)
{
  for (unsigned r = 0; r < tprocs; r++) {
    if (!hungry_at[r] || r == dsm__rank)
      continue;
    dsm__buf_t b = { 0 };
    hdr(&b, TK_FED);
    dsm__buf_u32(&b, hungry_at[r]);
    send_buf(r, &b);
    hungry_at[r] = 0;
    work_since_round = 1;
    DSM__STAT_INC(steal_fed);
  }
}

static int anyone_asking(void)
{
  for (unsigned r = 0; r < tprocs; r++)
    if ((want_round[r] && want_epoch[r] == epoch) || (hungry[r] && r != dsm__rank))
      return 1;
  return 0;
}

static void ask_locked(void)
{
  my_round++;
  round_out = tprocs - 1;
  round_sent = 1;
  work_since_round = 0;
  round_t0 = dsm__now_ns();
  for (unsigned r = 0; r < tprocs; r++) {
    if (r == dsm__rank)
      continue;
    dsm__buf_t b = { 0 };
    hdr(&b, TK_STEAL);
    dsm__buf_u32(&b, my_round);
    dsm__vt_encode(&b, dsm__known);
    send_buf(r, &b);
  }
  DSM__STAT_INC(steal_asks);
  DSM__DEBUG("task: round %u asks the team for work (phase %llx)", my_round, (unsigned long long)epoch);
}

/* ---- the manager of a barrier phase ------------------------------------------------- */

static void send_end(unsigned r, uint64_t e)
{
  if (r == dsm__rank) {
    if (e == epoch) end_seen = 1;
    task_fire();
    return;
  }
  dsm__buf_t b = { 0 };
  dsm__buf_u32(&b, TK_END);
  dsm__buf_u64(&b, e);
  send_buf(r, &b);
}

/* team: the reporter's team size (the manager's own tprocs belongs to
 * its application thread, and a report may come before it has forked). */
static void mg_update(unsigned r, unsigned team, uint64_t e, uint32_t rep, int idle,
                      uint64_t sp, uint64_t fin)
{
  if (e < mg_epoch || e == mg_ended || r >= team || team > dsm__nprocs)
    return;
  if (e > mg_epoch) {
    mg_epoch = e;
    memset(mg_idle, 0, dsm__nprocs);
    memset(mg_report, 0, dsm__nprocs * sizeof *mg_report);
  }
  if (rep <= mg_report[r])
    return;                  /* an older report overtaken by a newer one */
  mg_report[r] = rep;
  mg_idle[r] = (uint8_t)idle;
  if (idle) {
    mg_spawned[r] = sp;
    mg_finished[r] = fin;
  }
  uint64_t s = 0, f = 0;
  for (unsigned q = 0; q < team; q++) {
    if (!mg_idle[q])
      return;
    s += mg_spawned[q];
    f += mg_finished[q];
  }
  if (s != f)
    return;                  /* a task is on its way somewhere */
  mg_ended = e;
  for (unsigned q = 0; q < team; q++)
    send_end(q, e);
}

/* ---- messages ---------------------------------------------------------------------- */

static void malformed(const dsm__msg_t *m)
{
  dsm__fatal(DSM__EXIT_FATAL, "malformed TASK message from rank %u", m->origin);
}

/* The handlers of on_task's operations, under dsm__mu: r is past the op
 * and the phase e, and from is the sender. */

/* STEAL: process `from` asks us for work. */
static void on_steal(const dsm__msg_t *m, dsm__rd_t *r, uint64_t e, unsigned from)
{
  uint32_t round = dsm__rd_u32(r);
  if (dsm__vt_decode(r, want_vt + (size_t)from * dsm__nprocs) < 0 || r->bad || !round)
    malformed(m);
  if (e >= epoch) {        /* a later phase's request waits for that phase */
    want_epoch[from] = e;
    want_round[from] = round;
    task_fire();
  }
}

/* GIVE: process `from` gives us a task, in answer to our round or unasked. */
static void on_give(const dsm__msg_t *m, dsm__rd_t *r, uint64_t e, unsigned from)
{
  uint32_t round = dsm__rd_u32(r), creator = dsm__rd_u32(r);
  uint64_t cookie = dsm__rd_u64(r), fn = dsm__rd_u64(r);
  uint32_t flags = dsm__rd_u32(r);
  uint64_t size = dsm__rd_u64(r);
  const void *data = dsm__rd_take(r, size);
  if (r->bad || creator >= dsm__nprocs)
    malformed(m);
  task_t *t = task_new();
  t->foreign = 1;
  t->fn = (void (*)(void *))(uintptr_t)fn;
  t->final = flags & 1;
  t->group = (flags >> 1) & 1;
  t->size = size;
  t->data = malloc(size ? size : 1);
  if (!t->data) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  memcpy(t->data, data, size);
  t->creator = creator;
  t->cookie = cookie;
  t->creator_vt = malloc(dsm__nprocs * sizeof(uint32_t));
  if (!t->creator_vt) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  if (dsm__vt_decode(r, t->creator_vt) < 0 || dsm__intervals_decode(r) < 0)
    malformed(m);
  need_acquire = 1;
  rq_push_new(t);
  work_since_round = 1;
  hungry_at[from] = 0;       /* the giver fed us (it forgot our hunger) */
  if (e == epoch)
    on_epoch = e;
  if (round && round == my_round && e == epoch && round_out) {
    round_out--;
    if (round_t0) {
      DSM__STAT_ADD(steal_wait_ns, dsm__now_ns() - round_t0);
      DSM__STAT_INC(steals_answered);
      round_t0 = 0;
    }
  }
  DSM__STAT_INC(tasks_stolen);
  task_fire();
}

/* DONE: a task of ours that ran elsewhere has ended. */
static void on_done(const dsm__msg_t *m, dsm__rd_t *r)
{
  uint64_t cookie = dsm__rd_u64(r);
  task_t *t = given;
  while (t && (uint64_t)(uintptr_t)t != cookie)
    t = t->next;
  if (!t || r->bad || dsm__intervals_decode(r) < 0)
    malformed(m);
  if (t->prev) t->prev->next = t->next; else given = t->next;
  if (t->next) t->next->prev = t->prev;
  t->prev = t->next = NULL;
  need_acquire = 1;
  finish_locked(t);
}

static void on_task(const dsm__msg_t *m)
{
  dsm__rd_t r = dsm__rd(m->data, m->len);
  uint32_t op = dsm__rd_u32(&r);
  uint64_t e = dsm__rd_u64(&r);
  unsigned from = m->origin;
  if (r.bad || from >= dsm__nprocs)
    malformed(m);
  pthread_mutex_lock(&dsm__mu);
  DSM__DEBUG("task: op %u from rank %u, phase %llx (ours %llx)", op, from,
             (unsigned long long)e, (unsigned long long)epoch);
  switch (op) {
  case TK_STEAL:
    on_steal(m, &r, e, from);
    break;
  case TK_GIVE:
    on_give(m, &r, e, from);
    break;
  case TK_NONE: {
    uint32_t round = dsm__rd_u32(&r);
    if (r.bad)
      malformed(m);
    if (round == my_round && e == epoch && round_out) {
      round_out--;
      hungry_at[from] = round;
    }
    task_fire();
    break;
  }
  case TK_DONE:
    on_done(m, &r);
    break;
  case TK_IDLE: {
    uint32_t team = dsm__rd_u32(&r), rep = dsm__rd_u32(&r);
    uint64_t sp = dsm__rd_u64(&r), fin = dsm__rd_u64(&r);
    if (r.bad || dsm__rank != 0)
      malformed(m);
    mg_update(from, team, e, rep, 1, sp, fin);
    break;
  }
  case TK_BUSY: {
    uint32_t team = dsm__rd_u32(&r), rep = dsm__rd_u32(&r);
    if (r.bad || dsm__rank != 0)
      malformed(m);
    mg_update(from, team, e, rep, 0, 0, 0);
    pthread_mutex_unlock(&dsm__mu);
    dsm__tp_reply(dsm__reqh(m), NULL, 0);
    return;
  }
  case TK_ON:
    if (on_epoch == UINT64_MAX || e > on_epoch)
      on_epoch = e;
    task_fire();
    break;
  case TK_FED: {
    uint32_t round = dsm__rd_u32(&r);
    if (r.bad)
      malformed(m);
    /* A later round's hunger is not the one the thief has forgotten. */
    if (e == epoch && hungry[from] && hungry[from] <= round)
      hungry[from] = 0;
    break;
  }
  case TK_END:
    if (e == epoch) end_seen = 1;
    task_fire();
    break;
  default:
    malformed(m);
  }
  pthread_mutex_unlock(&dsm__mu);
}

/* ---- scheduling -------------------------------------------------------------------- */

enum { WAIT_CHILDREN, WAIT_PREDS, WAIT_END };

struct step {
  int what;
  task_t *t;                 /* WAIT_CHILDREN, WAIT_PREDS: the task waited on */
  task_t *run;               /* out: a task to run now */
  int done;                  /* out: the condition holds */
};

static int cond_holds(const struct step *s)
{
  switch (s->what) {
  case WAIT_CHILDREN: return s->t->children == 0;
  case WAIT_PREDS:    return s->t->npred == 0;
  default:            return end_seen;
  }
}

static void acquire_locked(void)
{
  if (need_acquire) {
    need_acquire = 0;
    dsm__acquire();
  }
}

/* Tell the manager that this process, which reported IDLE, has a task to
 * run: it must know before the task runs, or it could count us idle while
 * we create tasks. Meanwhile no thread of ours takes a task (busy_pending). */
static void report_busy_locked(void)
{
  uint32_t rep = ++report_no;
  reported_idle = 0;
  if (dsm__rank == 0) {
    mg_update(0, tprocs, epoch, rep, 0, 0, 0);
    return;
  }
  dsm__buf_t b = { 0 };
  hdr(&b, TK_BUSY);
  dsm__buf_u32(&b, tprocs);
  dsm__buf_u32(&b, rep);
  busy_pending = 1;
  pthread_mutex_unlock(&dsm__mu);
  void *reply = NULL;
  size_t len = 0;
  unsigned g = dsm__gate_drop();
  dsm__tp_call(0, DSM__MSG_TASK, b.p, b.len, &reply, &len);
  dsm__gate_take(g);
  free(reply);
  dsm__buf_free(&b);
  pthread_mutex_lock(&dsm__mu);
  busy_pending = 0;
  task_fire();
}

static void report_idle_locked(void)
{
  uint32_t rep = ++report_no;
  reported_idle = 1;
  if (dsm__rank == 0) {
    mg_update(0, tprocs, epoch, rep, 1, spawned, finished);
    return;
  }
  dsm__buf_t b = { 0 };
  hdr(&b, TK_IDLE);
  dsm__buf_u32(&b, tprocs);
  dsm__buf_u32(&b, rep);
  dsm__buf_u64(&b, spawned);
  dsm__buf_u64(&b, finished);
  send_buf(0, &b);
}

/* One scheduling decision, on the private stack: run a task, or return
 * because the condition holds; wait (blocked) while neither. */
static void step_impl(void *p)
{
  /* p is on the caller's stack, which is shared memory that an acquire
   * below may invalidate: touch it only without dsm__mu (a fault under it
   * would deadlock against the fault handler). */
  struct step st = *(struct step *)p, *s = &st;
  int end = s->what == WAIT_END;
  pthread_mutex_lock(&dsm__mu);
  at_end += end;
  for (;;) {
    serve_locked(1);
    if (cond_holds(s)) {
      acquire_locked();
      s->done = 1;
      break;
    }
    if (nready && !busy_pending) {
      if (reported_idle) {
        report_busy_locked();
        continue;
      }
      s->run = rq_new;
      rq_remove(s->run);
      acquire_locked();
      break;
    }
    if (!nready && tprocs > 1 && !round_out && (!round_sent || work_since_round) && phase_has_tasks())
      ask_locked();
    /* The process is idle when every thread of it in the region waits
     * here with nothing to run (with one thread: this one). */
    if (end && !reported_idle && !nready && !busy_pending && at_end == tlocal) {
      report_idle_locked();
      continue;
    }
    /* A sibling may hold what wakes us (a task it creates, the gate for a
     * message it handles): the gate is let go while we wait. */
    idle_waiters++;
    pthread_mutex_unlock(&dsm__mu);
    uint64_t t0 = dsm__now_ns();
    unsigned g = dsm__gate_drop();
    dsm__tp_event_wait(&task_evs[my_local]);
    dsm__gate_take(g);
    dsm__blocked_since(t0);
    pthread_mutex_lock(&dsm__mu);
    idle_waiters--;
  }
  at_end -= end;
  pthread_mutex_unlock(&dsm__mu);
  *(struct step *)p = st;
}

static void run_task(task_t *t);

/* Run tasks (ours, or taken from others) until the condition holds. */
static void schedule_until(int what, task_t *t)
{
  dsm__flush_settle();   /* a flush that waited happens before we wait (flush.c) */
  for (;;) {
    struct step s = { what, t, NULL, 0 };
    dsm__on_private_stack(step_impl, &s);
    if (s.done)
      return;
    run_task(s.run);
  }
}

static void finish_impl(void *p)
{
  task_t *t = p;
  pthread_mutex_lock(&dsm__mu);
  if (t->foreign) {
    /* Its writes go back to the creator with the news. */
    dsm__release();
    dsm__buf_t b = { 0 };
    hdr(&b, TK_DONE);
    dsm__buf_u64(&b, t->cookie);
    dsm__diff_unhold();
    dsm__intervals_encode(&b, t->creator_vt);
    send_buf(t->creator, &b);
    unref(t);
  } else {
    finish_locked(t);
  }
  finished++;
  serve_locked(0);
  pthread_mutex_unlock(&dsm__mu);
}

/* How many children of t are not finished: the count drops on the service
 * thread as DONEs come in, so it is read under dsm__mu (off the region
 * stack, which may be shared memory and fault; the argument is read before
 * the lock is taken and written after it is let go). */
struct children { task_t *t; unsigned n; };

static void children_impl(void *p)
{
  struct children *c = p;
  task_t *t = c->t;
  pthread_mutex_lock(&dsm__mu);
  unsigned n = t->children;
  pthread_mutex_unlock(&dsm__mu);
  c->n = n;
}

static void run_task(task_t *t)
{
  task_t *saved = cur;
  unsigned saved_groups = group_depth;
  cur = t;
  group_depth = 0;
  t->fn(t->data);
  /* In a taskgroup a task ends only with its descendants (each waits for
   * its children), so the group's end need only wait for its children. */
  if (t->group) {
    struct children c = { t, 0 };
    dsm__on_private_stack(children_impl, &c);
    if (c.n)
      schedule_until(WAIT_CHILDREN, t);
  }
  cur = saved;
  group_depth = saved_groups;
  dsm__on_private_stack(finish_impl, t);
}

/* ---- creating tasks ---------------------------------------------------------------- */

struct create {
  void (*fn)(void *);
  const void *data;
  size_t size;
  int final;
  unsigned ndeps;
  const ompdsm_dep_t *deps;
  int now;                   /* in: undeferred; out: run it here, now */
  task_t *t;                 /* out */
};

/* The record is made here, on the private stack, not in __ompdsm_task: the
 * caller's stack is shared memory, and libc's malloc run there faults on
 * its own frames while it holds its arena's lock (see dsm__grow_mapped). */
static void create_impl(void *p)
{
  struct create cc = *(struct create *)p, *c = &cc;   /* see step_impl */
  task_t *t = task_new();
  t->fn = c->fn;
  t->size = c->size;
  t->data = malloc(c->size ? c->size : 1);
  if (!t->data) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  if (c->size) memcpy(t->data, c->data, c->size);
  t->final = (uint8_t)c->final;
  t->group = group_depth > 0 || cur->group;
  /* The data and the dependences may sit on the caller's stack (see
   * step_impl): copied before dsm__mu is taken. */
  static _Thread_local ompdsm_dep_t dep_buf[8];   /* create_impl runs no task */
  ompdsm_dep_t *dcopy = dep_buf;
  if (c->ndeps > 8) {
    dcopy = malloc(c->ndeps * sizeof *dcopy);
    if (!dcopy) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  }
  if (c->ndeps) memcpy(dcopy, c->deps, c->ndeps * sizeof *dcopy);
  c->deps = dcopy;
  pthread_mutex_lock(&dsm__mu);
  t->parent = cur;
  cur->children++;
  cur->refs++;
  if (c->ndeps)
    add_deps(cur, t, c->ndeps, c->deps);
  spawned++;
  DSM__STAT_INC(tasks);
  if (!c->now && nready >= (unsigned)queue_max && !anyone_asking() && !idle_waiters)
    c->now = 1;              /* cut-off: everyone is busy */
  if (c->now) {
    t->inline_wait = 1;
    t->refs++;               /* the caller's, until it has run it */
  } else {
    if (!t->npred) {
      rq_push_new(t);
      if (idle_waiters)
        task_fire();         /* a sibling thread waits for work */
    }
    fed_locked();
    if (!phase_created) {
      /* The first task of the phase here: the others learn that there is
       * work to ask for (ask_locked), once per phase. */
      phase_created = 1;
      for (unsigned r = 0; r < tprocs; r++) {
        if (r == dsm__rank)
          continue;
        dsm__buf_t b = { 0 };
        hdr(&b, TK_ON);
        send_buf(r, &b);
      }
    }
  }
  serve_locked(0);
  pthread_mutex_unlock(&dsm__mu);
  if (dcopy != dep_buf)
    free(dcopy);
  ((struct create *)p)->now = c->now;
  ((struct create *)p)->t = t;
}

static void unref_impl(void *p)
{
  pthread_mutex_lock(&dsm__mu);
  unref(p);
  pthread_mutex_unlock(&dsm__mu);
}

void __ompdsm_task(void (*fn)(void *), void *data, size_t size, int flags,
                   unsigned ndeps, const ompdsm_dep_t *deps, int priority)
{
  (void)priority;            /* a hint; the queues are first come, first served */
  int fin = (flags & OMPDSM_TASK_FINAL) || (cur && cur->final);
  if (!region_active) {
    /* A team of one: the task is included, its children are complete
     * when it returns, and so are its predecessors. */
    task_t tk = { .magic = TASK_MAGIC, .final = (uint8_t)fin };
    task_t *saved = cur;
    cur = &tk;
    fn(data);
    cur = saved;
    return;
  }
  struct create c = { fn, data, size, fin, ndeps, deps,
                      (flags & OMPDSM_TASK_UNDEFERRED) || fin, NULL };
  dsm__on_private_stack(create_impl, &c);
  task_t *t = c.t;
  if (c.now) {
    if (t->npred)
      schedule_until(WAIT_PREDS, t);
    run_task(t);
    dsm__on_private_stack(unref_impl, t);
  }
}

/* ---- waiting for tasks -------------------------------------------------------------- */

void __ompdsm_taskwait(void)
{
  if (region_active)
    schedule_until(WAIT_CHILDREN, cur);
}

static void serve_impl(void *unused)
{
  (void)unused;
  pthread_mutex_lock(&dsm__mu);
  serve_locked(0);
  pthread_mutex_unlock(&dsm__mu);
}

void __ompdsm_taskyield(void)
{
  /* A waiting loop with taskyield in it must not keep thieves waiting. */
  if (region_active)
    dsm__on_private_stack(serve_impl, NULL);
}

void __ompdsm_taskgroup_start(void)
{
  group_depth++;
}

void __ompdsm_taskgroup_end(void)
{
  /* The group's tasks wait for their own descendants before they finish
   * (run_task), so its end waits for the children of the current task. */
  if (region_active)
    schedule_until(WAIT_CHILDREN, cur);
  if (group_depth)
    group_depth--;
}

int omp_in_final(void) { return cur && cur->final; }
int omp_get_max_task_priority(void) { return 0; }

/* ---- regions and barriers ----------------------------------------------------------- */

void __ompdsm_tasks_used(void) { tasks_used = 1; }
int dsm__tasks_on(void) { return tasks_used && dsm__nprocs > 1; }
int dsm__tasks_declared(void) { return tasks_used; }

/* A new phase (the first of a region, or the one after a barrier): what
 * this process asked, reported and promised belongs to the old one. */
static void phase_start_locked(uint64_t e)
{
  epoch = e;
  phase_created = 0;
  round_out = 0;
  round_sent = 0;
  reported_idle = 0;
  end_seen = 0;
  memset(hungry, 0, dsm__nprocs * sizeof *hungry);
  memset(hungry_at, 0, dsm__nprocs * sizeof *hungry_at);
}

struct begin { uint64_t seq; unsigned procs, nlocal; task_t *implicit; };

static void begin_impl(void *p)
{
  /* p is on the caller's stack, shared memory: read and written only
   * without dsm__mu (see step_impl) */
  struct begin bg = *(struct begin *)p;
  task_t *implicit = task_new();
  pthread_mutex_lock(&dsm__mu);
  if (region_seq_begun != bg.seq) {
    /* the first thread of this process in the region */
    region_seq_begun = bg.seq;
    tprocs = bg.procs;
    tlocal = bg.nlocal;
    at_end = end_left = 0;
    phase_start_locked(bg.seq << 24);
    spawned = finished = 0;
  }
  pthread_mutex_unlock(&dsm__mu);
  ((struct begin *)p)->implicit = implicit;
}

void dsm__task_region_begin(uint64_t seq, unsigned procs, unsigned nlocal, unsigned local)
{
  if (!tasks_used || procs * nlocal <= 1)
    return;
  struct begin bg = { seq, procs, nlocal, NULL };
  dsm__on_private_stack(begin_impl, &bg);
  my_local = local;
  region_task = bg.implicit;
  cur = region_task;
  group_depth = 0;
  region_active = 1;
}

static void next_phase_impl(void *unused)
{
  (void)unused;
  pthread_mutex_lock(&dsm__mu);
  /* The last thread of the process past END starts the next phase; the
   * others wait in the OpenMP barrier that follows, creating nothing. */
  if (++end_left == tlocal) {
    end_left = 0;
    phase_start_locked(epoch + 1);
  }
  pthread_mutex_unlock(&dsm__mu);
}

void dsm__task_barrier(void)
{
  if (!region_active)
    return;
  if (my_local == 0)
    DSM__STAT_INC(task_phases);
  schedule_until(WAIT_END, NULL);
  dsm__on_private_stack(next_phase_impl, NULL);
}

static void end_impl(void *p)
{
  pthread_mutex_lock(&dsm__mu);
  unref(p);                  /* late DONEs of its children may still come */
  pthread_mutex_unlock(&dsm__mu);
}

void dsm__task_region_end(void)
{
  if (!region_active)
    return;
  dsm__task_barrier();
  region_active = 0;
  cur = NULL;
  dsm__on_private_stack(end_impl, region_task);
  region_task = NULL;
}

/* A region nested in one runs serialized with a team of one: its tasks are
 * included, as in any team of one, and the enclosing team's go on after. */
int dsm__task_suspend(void)
{
  int was = region_active;
  region_active = 0;
  return was;
}

void dsm__task_resume(int was) { region_active = was; }

void dsm__task_init(void)
{
  queue_max = dsm__env_long("DSM_TASK_QUEUE", QUEUE_DEFAULT, 1, 1 << 20);
  nevs = dsm__threads;
  task_evs = dsm__xcalloc(nevs, sizeof *task_evs);
  unsigned n = dsm__nprocs;
  want_epoch = dsm__xcalloc(n, sizeof *want_epoch);
  want_round = dsm__xcalloc(n, sizeof *want_round);
  want_vt = dsm__xcalloc((size_t)n * n, sizeof *want_vt);
  hungry = dsm__xcalloc(n, sizeof *hungry);
  hungry_at = dsm__xcalloc(n, sizeof *hungry_at);
  mg_idle = dsm__xcalloc(n, 1);
  mg_report = dsm__xcalloc(n, sizeof *mg_report);
  mg_spawned = dsm__xcalloc(n, sizeof *mg_spawned);
  mg_finished = dsm__xcalloc(n, sizeof *mg_finished);
  dsm__tp_handle(DSM__MSG_TASK, on_task);
  dsm__fork_shared_stacks(dsm__tasks_on());
}
