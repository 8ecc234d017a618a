/*
 * alloc.c — dsm_malloc and friends.
 *
 * Each process carves from its own slice of the shared heap, so allocation
 * never needs a message. All bookkeeping is private (the page table and
 * per-process free lists), never inside shared pages: reading a block header
 * from a shared page could fault, and a fault inside the allocator would
 * deadlock against the service thread.
 *
 * Small blocks (<= 2 KiB) come from one-page slabs of a size class: every
 * 16 bytes up to 128, then four classes per doubling. Classes of powers of
 * two only put the rows of a program that allocates each row (NAS MG:
 * rows of 66 doubles, 528 bytes) 1 KiB apart, all on a few cache sets, and
 * MG's stencils ran 2.5 times slower than with malloc (2026-12-07); rows
 * 640 bytes apart spread over all of them. Large blocks are runs of whole
 * pages (page-aligned, which also keeps
 * unrelated large arrays off each other's pages). Freed runs go to a
 * first-fit list; this is O(n) in the number of free runs, which is fine for
 * the allocation patterns of parallel programs (few, large arrays).
 *
 * The allocator belongs to the application thread. A process that frees a
 * block another process carved sends FREE to the owner; the owner's service
 * thread only queues it (under dsm__mu) and the owner's application thread
 * takes the queue on its next allocation.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "profile.h"
#include "region.h"
#include "private_stack.h"
#include "net/transport.h"

#define CLASS_RUN 0xffff      /* alloc_class of the first page of a large run */

static const uint16_t class_size[] = { 16, 32, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256,
                                       320, 384, 448, 512, 640, 768, 896, 1024, 1280, 1536,
                                       1792, 2048 };
#define NCLASSES (sizeof class_size / sizeof *class_size)
#define SMALL_MAX 2048

typedef struct freerun { uintptr_t addr; size_t pages; } freerun_t;

static uintptr_t slice_lo, slice_hi, bump;
static int heap_full_said;                 /* the slice ran out once: said so */
static void **free_small[NCLASSES];        /* private stacks of free small blocks */
static size_t free_small_n[NCLASSES], free_small_cap[NCLASSES];
static freerun_t *runs;
static size_t nruns, runs_cap;
static uintptr_t *remote_frees;            /* FREEs from other processes, under dsm__mu */
static size_t nremote, remote_cap;

static void *xrealloc(void *p, size_t n)
{
  void *q = realloc(p, n);
  if (!q) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  return q;
}

static unsigned class_of(size_t size)
{
  unsigned c = 0;
  while (class_size[c] < size) c++;
  return c;
}

/* The allocator's marks live in the page table, whose entries the service
 * thread reads and fills in too (a peer's prefetch run can ask for a page
 * of a block while it is being carved), so they are read and written under
 * dsm__mu like every other entry. */
static void mark_set(uintptr_t a, uint16_t cls, uint32_t run)
{
  pthread_mutex_lock(&dsm__mu);
  dsm__page_t *p = dsm__page((uint32_t)dsm__page_of((void *)a));
  p->alloc_class = cls;
  p->alloc_run = run;
  pthread_mutex_unlock(&dsm__mu);
}

/* The marks of a's page; 0 when a is not shared. */
static int mark_get(uintptr_t a, uint16_t *cls, uint32_t *run)
{
  long pg = dsm__page_of((void *)a);
  if (pg < 0)
    return 0;
  pthread_mutex_lock(&dsm__mu);
  dsm__page_t *p = dsm__page((uint32_t)pg);
  *cls = p->alloc_class;
  *run = p->alloc_run;
  pthread_mutex_unlock(&dsm__mu);
  return 1;
}

static void on_free_msg(const dsm__msg_t *m)
{
  if (m->len == sizeof(uint64_t)) {
    uint64_t a;
    memcpy(&a, m->data, sizeof a);
    pthread_mutex_lock(&dsm__mu);
    if (nremote == remote_cap) {
      remote_cap = remote_cap ? remote_cap * 2 : 64;
      remote_frees = xrealloc(remote_frees, remote_cap * sizeof *remote_frees);
    }
    remote_frees[nremote] = (uintptr_t)a;
    /* drain_remote peeks at nremote without the lock (TSan: a plain store
     * here raced with that atomic load in malloc_all, 1 run in 5). */
    __atomic_store_n(&nremote, nremote + 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&dsm__mu);
  }
  dsm__tp_reply(dsm__reqh(m), NULL, 0);
}

void dsm__alloc_init(void)
{
  const dsm__segment_t *heap = NULL;
  for (unsigned i = 0; i < dsm__nsegs; i++)
    if (dsm__segs[i].home < 0) heap = &dsm__segs[i];
  DSM__ASSERT(heap);
  slice_lo = heap->base + dsm__slice_size * dsm__rank;
  slice_hi = slice_lo + dsm__slice_size;
  bump = slice_lo;
  dsm__tp_handle(DSM__MSG_FREE, on_free_msg);
}

static void local_free(uintptr_t a);

static void drain_remote(void)
{
  if (!__atomic_load_n(&nremote, __ATOMIC_RELAXED))
    return;
  pthread_mutex_lock(&dsm__mu);
  size_t n = nremote;
  uintptr_t *list = remote_frees;
  remote_frees = NULL;
  nremote = remote_cap = 0;
  pthread_mutex_unlock(&dsm__mu);
  for (size_t i = 0; i < n; i++)
    local_free(list[i]);
  free(list);
}

static uintptr_t take_pages(size_t np)
{
  for (size_t i = 0; i < nruns; i++) {
    if (runs[i].pages >= np) {
      uintptr_t a = runs[i].addr;
      runs[i].addr += np * DSM__PAGE;
      runs[i].pages -= np;
      if (!runs[i].pages)
        runs[i] = runs[--nruns];
      return a;
    }
  }
  if (np > (slice_hi - bump) / DSM__PAGE)
    return 0;
  uintptr_t a = bump;
  bump += np * DSM__PAGE;
  return a;
}

/* Does page pg begin a large block (at least a fetch run long) that
 * follows another such block? A stream of faults reads one array; the
 * next large array is most likely another of the program's partitioned
 * arrays, whose first part is another process's (the stencil's second
 * grid after the end of the first: a cold run from rank 1's last rows of
 * one took 62 of rank 0's rows of the other, pushed to it at four of the
 * next eight barriers). The home cuts a run there (home.c). Rows allocated one by one
 * (small blocks) are walked as one stream and are never cut. Only this
 * process's own allocations are marked; the caller holds dsm__mu. */
int dsm__alloc_splits_run(uint32_t pg)
{
  const dsm__page_t *p = dsm__page(pg);
  if (p->alloc_class != CLASS_RUN || p->alloc_run < DSM__RUN_MAX)
    return 0;
  uint32_t end = dsm__page_seg_end(pg);
  for (uint32_t d = 1; d <= DSM__RUN_MAX; d++) {
    if (pg < d || dsm__page_seg_end(pg - d) != end)
      return 0;                 /* the segment begins: nothing before to tell apart */
    const dsm__page_t *q = dsm__page(pg - d);
    if (q->alloc_class != 0)    /* a small block's page or a short block's start */
      return 0;
  }
  return 1;
}

static void *malloc_impl(size_t size)
{
  if (!dsm__started)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_malloc called before dsm_startup");
  drain_remote();
  if (size == 0)
    size = 1;
  if (size <= SMALL_MAX) {
    unsigned c = class_of(size);
    if (!free_small_n[c]) {
      uintptr_t pgaddr = take_pages(1);
      if (!pgaddr) goto full;
      mark_set(pgaddr, (uint16_t)(c + 1), 0);
      size_t bsz = class_size[c], n = DSM__PAGE / bsz;
      if (free_small_cap[c] < free_small_n[c] + n) {
        free_small_cap[c] = free_small_n[c] + n;
        free_small[c] = xrealloc(free_small[c], free_small_cap[c] * sizeof(void *));
      }
      for (size_t i = n; i-- > 0;)   /* lowest address handed out first */
        free_small[c][free_small_n[c]++] = (void *)(pgaddr + i * bsz);
    }
    return free_small[c][--free_small_n[c]];
  }
  size_t np = (size + DSM__PAGE - 1) / DSM__PAGE;
  uintptr_t a = take_pages(np);
  if (!a) goto full;
  mark_set(a, CLASS_RUN, (uint32_t)np);
  return (void *)a;
full:
  /* As malloc does when memory runs out: NULL and ENOMEM, which a program
   * checks for, rather than the end of the job (issue 56). The slice is a
   * limit a program written for one machine does not expect, so the first
   * time it says which one, and how to raise it. */
  if (!heap_full_said) {
    heap_full_said = 1;
    char line[300];
    int n = snprintf(line, sizeof line,
                     "dsm[%u]: warning: dsm_malloc(%zu): this process's slice of the shared "
                     "heap (%zu MiB of %zu MiB over %u processes) is exhausted; malloc returns "
                     "NULL; set DSM_HEAP_MB to reserve more\n",
                     dsm__rank, size, dsm__slice_size >> 20, dsm__heap_size >> 20, dsm__nprocs);
    ssize_t w = write(2, line, n > 0 && (size_t)n < sizeof line ? (size_t)n : 0);
    (void)w;
  }
  errno = ENOMEM;
  return NULL;
}

static void local_free(uintptr_t a)
{
  uint16_t cls;
  uint32_t run;
  if (!mark_get(a, &cls, &run) || a < slice_lo || a >= slice_hi)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_free(%p): not a block of the shared heap", (void *)a);
  if (cls == CLASS_RUN) {
    if (a & (DSM__PAGE - 1))
      dsm__fatal(DSM__EXIT_FATAL, "dsm_free(%p): not the start of a block", (void *)a);
    if (nruns == runs_cap) {
      runs_cap = runs_cap ? runs_cap * 2 : 16;
      runs = xrealloc(runs, runs_cap * sizeof *runs);
    }
    runs[nruns].addr = a;
    runs[nruns].pages = run;
    nruns++;
    mark_set(a, 0, 0);
  } else if (cls > 0 && cls <= NCLASSES) {
    unsigned c = cls - 1u;
    if (free_small_n[c] == free_small_cap[c]) {
      free_small_cap[c] = free_small_cap[c] ? free_small_cap[c] * 2 : 64;
      free_small[c] = xrealloc(free_small[c], free_small_cap[c] * sizeof(void *));
    }
    free_small[c][free_small_n[c]++] = (void *)a;
  } else {
    dsm__fatal(DSM__EXIT_FATAL, "dsm_free(%p): not an allocated block", (void *)a);
  }
}

static size_t block_size(uintptr_t a)
{
  uint16_t cls;
  uint32_t run;
  if (!mark_get(a, &cls, &run)) return 0;
  if (cls == CLASS_RUN) return (size_t)run * DSM__PAGE;
  if (cls > 0 && cls <= NCLASSES)
    return class_size[cls - 1];
  return 0;
}

static void free_impl(void *ptr)
{
  if (!ptr)
    return;
  uintptr_t a = (uintptr_t)ptr;
  long pg = dsm__page_of(ptr);
  int owner = pg >= 0 ? dsm__page_owner((uint32_t)pg) : -1;
  if (pg < 0 || a < DSM__HEAP_BASE || a >= DSM__HEAP_BASE + dsm__heap_size)
    dsm__fatal(DSM__EXIT_FATAL, "dsm_free(%p): not a pointer into the shared heap", ptr);
  if (owner == (int)dsm__rank) {
    drain_remote();
    local_free(a);
  } else {
    uint64_t v = a;
    dsm__tp_send((unsigned)owner, DSM__MSG_FREE, &v, sizeof v);
  }
}

/* The allocator takes dsm__mu (the remote-free queue, the page table's
 * marks) and the transport's locks: when called from the master's shared
 * stack it must move to the private one (private_stack.c explains why). */
struct alloc_call { size_t size; void *ptr; };
static void malloc_thunk(void *p) { struct alloc_call *c = p; c->ptr = malloc_impl(c->size); }
static void free_thunk(void *p) { struct alloc_call *c = p; free_impl(c->ptr); }
static void size_thunk(void *p) { struct alloc_call *c = p; c->size = block_size((uintptr_t)c->ptr); }

/* Each allocation names its site for the profiler (profile.h): the
 * program's call, passed down so that calloc, realloc, strdup and the
 * OpenMP wrappers name their caller rather than each other. */
void *dsm__malloc_from(size_t size, const char *site, const void *caller)
{
  struct alloc_call c = { size, NULL };
  dsm__on_private_stack(malloc_thunk, &c);
  if (c.ptr)
    dsm__prof_alloc(c.ptr, size, site, caller);
  return c.ptr;
}

void *dsm_malloc(size_t size)
{
  return dsm__malloc_from(size, NULL, __builtin_return_address(0));
}

void dsm_free(void *ptr)
{
  struct alloc_call c = { 0, ptr };
  dsm__on_private_stack(free_thunk, &c);
}

/* Is the page at addr zero without a write: ours, exclusive, and never
 * touched here (a hole in the memory file)? */
static int zero_untouched(uintptr_t addr)
{
  long pg = dsm__page_of((void *)addr);
  if (pg < 0)
    return 0;
  pthread_mutex_lock(&dsm__mu);
  dsm__page_t *p = dsm__page((uint32_t)pg);
  int z = p->home == dsm__rank && p->excl && dsm__page_is_hole((uint32_t)pg);
  pthread_mutex_unlock(&dsm__mu);
  return z;
}

void *dsm__calloc_from(size_t n, size_t size, const char *site, const void *caller)
{
  if (size && n > SIZE_MAX / size) {
    errno = ENOMEM;   /* as calloc does */
    return NULL;
  }
  size_t len = n * size;
  uint8_t *p = dsm__malloc_from(len, site, caller);
  if (!p)
    return NULL;
  /* Whole pages that were never touched are zero already and are left so:
   * written with zeros here they would stay homed here, and a process that
   * read one first would take a copy of it; untouched, the first process
   * to touch one becomes its home (first_touch.c): an OpenMP master's
   * calloc of the arrays its team fills. Recycled pages are written. */
  uintptr_t a = (uintptr_t)p, end = a + len;
  uintptr_t lo = (a + DSM__PAGE - 1) & ~(uintptr_t)(DSM__PAGE - 1);
  uintptr_t hi = end & ~(uintptr_t)(DSM__PAGE - 1);
  if (!dsm__protect || lo >= hi) {
    memset(p, 0, len);
    return p;
  }
  memset(p, 0, lo - a);
  for (uintptr_t at = lo; at < hi; at += DSM__PAGE)
    if (!zero_untouched(at))
      memset((void *)at, 0, DSM__PAGE);
  memset((void *)hi, 0, end - hi);
  return p;
}

void *dsm_calloc(size_t n, size_t size)
{
  return dsm__calloc_from(n, size, NULL, __builtin_return_address(0));
}

void *dsm__realloc_from(void *ptr, size_t size, const char *site, const void *caller)
{
  if (!ptr)
    return dsm__malloc_from(size, site, caller);
  if (size == 0) {
    dsm_free(ptr);
    return NULL;
  }
  size_t old = 0;
  if (dsm__page_owner((uint32_t)dsm__page_of(ptr)) == (int)dsm__rank) {
    struct alloc_call c = { 0, ptr };
    dsm__on_private_stack(size_thunk, &c);
    old = c.size;
  } else
    old = size;   /* another process's block: its size is private to its owner, so
                     copy what the caller asks for (the heap is mapped past it) */
  if (old >= size && old <= 2 * size)
    return ptr;
  void *np = dsm__malloc_from(size, site, caller);
  if (!np)
    return NULL;   /* the old block stays, as with realloc */
  memcpy(np, ptr, old < size ? old : size);
  dsm_free(ptr);
  return np;
}

void *dsm_realloc(void *ptr, size_t size)
{
  return dsm__realloc_from(ptr, size, NULL, __builtin_return_address(0));
}

char *dsm__strdup_from(const char *s, const char *site, const void *caller)
{
  size_t n = strlen(s) + 1;
  char *d = dsm__malloc_from(n, site, caller);
  if (d)
    memcpy(d, s, n);
  return d;
}

char *dsm_strdup(const char *s)
{
  return dsm__strdup_from(s, NULL, __builtin_return_address(0));
}
