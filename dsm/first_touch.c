/*
 * first_touch.c — a page nobody has touched goes to the first process that
 * touches it.
 *
 * An OpenMP program's master allocates the shared arrays and the team fills
 * them: each process's first writes land on pages the master never
 * touched, whose home is the master (the allocator). Homes moved only at
 * collectives (collective.c), so until the next one every such page cost
 * its writer a fetch of zeros, a twin, a diff at the release and the
 * home's work of applying it, all for data the writer alone will use
 * (OpenMP Sweep3D's first octant: 1,913 faults and 320 ms against 60 for
 * the hand-written program, whose arrays are private).
 *
 * So a home that is asked for a page that no one holds a copy of
 * (exclusive) and that holds nothing gives the page away with the answer:
 * the asker becomes its home, exclusive, writable, with no twin and
 * nothing to send at its release. That is the first-touch placement of
 * NUMA kernels, at the grain of the fetch's run (a cold run of up to 64
 * pages goes over in one answer). "Holds nothing" is a page never touched
 * (a hole in the home's memory file), or, when the asker faulted on a
 * write, a page of zeros: the master cleared the array for the team to
 * fill. A page of zeros that someone reads first stays: it is data
 * initialised for reading, and its home the process that wrote it. The
 * master's stack is left out: its unused depth is the master's next
 * frames.
 *
 * Who knows what, when:
 *   - the old home sets the new one in its table at once, and answers a
 *     request that still names it MOVED, with the new home (home.c); the
 *     asker sets its table and asks there (fetch.c);
 *   - the new home lists the pages it was given in its next collective
 *     arrival, and the manager's departure names them to everyone, before
 *     the moves of the epoch's writers (collective.c), so tables agree
 *     again after every collective of the whole job;
 *   - a page its new home has not touched yet is given on like any other
 *     (a cold run overshoots the asker's part of an array into the next
 *     process's: that process then asks the old home, is answered MOVED,
 *     and is given the pages by the new one). Each gift of a page in an
 *     epoch has a generation one above the gift that brought the page to
 *     the giver, the arrivals name it, and the manager names the home of
 *     the newest: a process that gave a page on after it arrived still
 *     lists the page, but with an older generation.
 * In a run that gives pages, the home keeps its own exclusive pages of data
 * out of the answer (home.c: SKIPPED).
 *
 * With its data. A page of data that nobody but its home holds, and that
 * another process writes before it reads it, goes to that process too, its
 * bytes in the answer: the master initialised the array and the team
 * overwrites it, each its own part (a stencil's second grid in its first
 * sweep). Served as a copy, each such page cost the writer a twin, a diff
 * at the release, and the home's move at the next collective, which
 * dropped the diff. Given, it is the writer's at once, writable, with
 * nothing to twin or send. The faulting page decides: only when it is
 * such a page does the run give the others of its kind; a run that
 * starts on a page of zeros keeps the home's pages of data out (SKIPPED),
 * as above. A page moves with its data at most once an epoch
 * (gift_gen): two processes that write one page in turn share it as a
 * copy for the rest of the epoch instead of passing it back and forth
 * at every fault. Only pages whose writes were never recorded (no
 * version vector) go: nobody can hold a notice of them, so the new home
 * needs no history, and nobody holds a copy a DIFF could come from.
 *
 * A read that will be followed by a write counts as the write: a process
 * whose read faults lately made copies it then wrote (write_ahead.c, reads
 * then writes) asks its fetches as writes, and so takes the data it is
 * about to rewrite in place. A task's input is the case: sort_task's
 * thief sorts the quarter it took where it lies, and as a copy each page
 * cost a twin and a diff back to the master (94 MB of diffs in a run on
 * 2 processes, 2.5 MB now).
 *
 * No DIFF can reach the old home for a given page: a diff needs a copy, and
 * nobody held one. The check that decides is made after the page is
 * protected (below), so a write of the old home's own program cannot slip
 * between the check and the gift.
 *
 * dsm_calloc leaves the whole pages it gets fresh untouched for the same
 * reason (alloc.c): an OpenMP program's calloc'd arrays are holes, given to
 * whoever touches them first, reader or writer.
 *
 * DSM_FIRST_TOUCH=0 turns it off (measurements; tests of the zero-page
 * path that want the allocator to stay the home).
 */
#include <stdlib.h>
#include <string.h>

#include "coll_msg.h"
#include "dsm_internal.h"
#include "lrc.h"
#include "onesided.h"

static int on(void)
{
  static int v = -1;
  if (v < 0)
    v = (int)dsm__env_long("DSM_FIRST_TOUCH", 1, 0, 1);
  return v;
}

/* Nothing in it: untouched here, or (for a writer) all zeros. Before the
 * page is protected our program may be writing it as we look: only the
 * check after the protection decides (dsm__first_touch_give). */
static int empty(uint32_t pg, int write)
{
  return dsm__page_is_hole(pg) || (write && dsm__page_is_zero(dsm__page_current(pg)));
}

/* Pages given to this process since the last collective of the whole job,
 * with the gift's generation. */
static dsm__coll_page_t *got;     /* word: the generation */
static size_t ngot, got_cap;

/* May page pg leave this process with its first toucher at all? */
static int movable(uint32_t pg, const dsm__page_t *p)
{
  /* Exclusive: no copy anywhere, no fault or notice pending. The checks
   * after it are for states an exclusive page cannot have today; they keep
   * a future change from giving away a page with history. */
  if (!dsm__protect || !on() || p->home != dsm__rank || !p->excl || p->pv ||
      p->dirty || p->hot || p->need || p->hi || p->twin || p->gift_gen == UINT16_MAX)
    return 0;
  /* A page readable one-sided has readers the home never hears of. */
  if (dsm__os_home_registered(pg))
    return 0;
  uintptr_t at = dsm__page_addr(pg);
  return !(at >= dsm__stack_base && at - dsm__stack_base < dsm__stack_size);
}

int dsm__first_touch_candidate(uint32_t pg, const dsm__page_t *p, int write)
{
  return movable(pg, p) && empty(pg, write);
}

static int data_on(void)
{
  static int v = -1;
  if (v < 0)
    v = (int)dsm__env_long("DSM_FIRST_TOUCH_DATA", 1, 0, 1);
  return v;
}

int dsm__first_touch_data_candidate(uint32_t pg, const dsm__page_t *p)
{
  /* Not brought here by a gift in this epoch (see the top). */
  return data_on() && p->gift_gen == 0 && movable(pg, p);
}

int dsm__first_touch_give(uint32_t pg, dsm__page_t *p, unsigned to, int write, int with_data,
                          uint32_t *gen)
{
  /* The page is inaccessible to our own program now (the caller flushed
   * that protection): a write that came before it is in the page, one
   * after it faults and waits for dsm__mu. Still empty: nothing of it needs
   * to travel. With its data, what it holds now goes in the answer. */
  if (!with_data && !empty(pg, write))
    return 0;
  *gen = (uint32_t)p->gift_gen + 1;
  DSM__DEBUG("page %u: %s, given to rank %u (generation %u, epoch %u)", pg,
             with_data ? "with its data" : "never touched", to, *gen, dsm__epoch);
  dsm__os_home_begin(pg);
  p->home = (uint16_t)to;
  p->excl = 0;
  p->valid = 0;
  p->tainted = 0;
  p->gift_gen = 0;
  p->held = with_data;
  DSM__STAT_INC(homes_given);
  if (with_data)
    DSM__STAT_INC(homes_given_data);
  return 1;
}

void dsm__first_touch_take(uint32_t pg, dsm__page_t *p, uint32_t gen, int with_data)
{
  /* Only an acquire could have given the page needs meanwhile, and only a
   * write of it could make one: nobody held a copy to write. */
  if (p->need || p->dirty || p->twin)
    dsm__fatal(DSM__EXIT_FATAL, "internal error: page %u was given to us, but we hold "
               "writes of it", pg);
  DSM__DEBUG("page %u: given to us by rank %u (generation %u, epoch %u)", pg, p->home, gen,
             dsm__epoch);
  /* Our memory for it reads as zeros unless an older copy (of memory freed
   * and allocated again) is still there. Given with its data, the caller
   * has written the bytes. */
  if (!with_data && !dsm__page_is_hole(pg))
    memset(dsm__page_sys(pg), 0, DSM__PAGE);
  if (p->pv)
    memset(p->pv, 0, dsm__nprocs * sizeof *p->pv);
  p->home = (uint16_t)dsm__rank;
  p->valid = 1;
  p->excl = 1;
  p->gift_gen = (uint16_t)gen;
  p->pushed = 0;
  p->push_idle = 0;
  p->tainted = 0;
  p->carry_off = 0;
  dsm__os_home_begin(pg);        /* exclusive: written without faults */
  dsm__prot_queue(pg, DSM__PROT_WRITE);
  if (ngot == got_cap) {
    got_cap = got_cap ? 2 * got_cap : 256;
    got = realloc(got, got_cap * sizeof *got);
    if (!got) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  }
  got[ngot++] = (dsm__coll_page_t){ pg, gen };
  DSM__STAT_INC(homes_received);
}

static int by_page_gen(const void *a, const void *b)
{
  const dsm__coll_page_t *x = a, *y = b;
  if (x->pg != y->pg)
    return x->pg < y->pg ? -1 : 1;
  return x->word < y->word ? -1 : x->word > y->word;
}

size_t dsm__first_touch_gifts(const dsm__coll_page_t **gifts)
{
  /* Sorted (a cold run comes in address order, but a run fetched backward
   * or by several threads need not), one entry per page (its newest
   * gift); the arrival sends them as runs (coll_msg.c). */
  if (ngot > 1) {
    qsort(got, ngot, sizeof *got, by_page_gen);
    size_t m = 0;
    for (size_t i = 0; i < ngot; i++) {
      if (m && got[m - 1].pg == got[i].pg)
        m--;
      got[m++] = got[i];
    }
    ngot = m;
  }
  *gifts = got;
  return ngot;
}

void dsm__first_touch_epoch_end(void)
{
  /* Everyone has the moves now (the departure named them): generations
   * count from zero again. */
  for (size_t i = 0; i < ngot; i++)
    dsm__page(got[i].pg)->gift_gen = 0;
  ngot = 0;
}
