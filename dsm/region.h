/*
 * region.h — the shared address space and its page table.
 *
 * Shared memory is one memfd per process, mapped twice:
 *   - the application view, at the same virtual address in every process,
 *     whose page protections drive access detection;
 *   - the system view, always read-write, through which the protocol (the
 *     fault handler and the service thread) reads and writes page contents
 *     without touching protections the application thread depends on.
 * Segments of the memfd: the DSM_SHARED globals (two linker sections), the
 * heap (one slice per process, so any process allocates without messages),
 * and the master's stack (so the master's locals are shared, see dsm_main).
 */
#ifndef DSM_REGION_H
#define DSM_REGION_H

#include <stdint.h>
#include <stddef.h>
#include <pthread.h>

#define DSM__PAGE        4096u
#define DSM__PAGE_SHIFT  12
#if defined(__SANITIZE_THREAD__)
/* ThreadSanitizer (x86-64) allows application memory only in the low
 * 512 GiB, the PIE range and near the top; everything else is its shadow or
 * unusable. A ThreadSanitizer build puts the heap at 64 GiB and caps it so
 * heap and master stack end below 512 GiB. */
#define DSM__HEAP_BASE   ((uintptr_t)0x001000000000ull)
#define DSM__HEAP_MAX_MB (256u << 10)
#else
/* 80 TiB: far below where the kernel places mmaps and shared libraries, and
 * inside AddressSanitizer's "high memory" range, so ASan builds work too. */
#define DSM__HEAP_BASE   ((uintptr_t)0x500000000000ull)
#define DSM__HEAP_MAX_MB (1u << 22)
#endif
#define DSM__MAX_PROCS   256u

enum { DSM__PROT_NONE = 0, DSM__PROT_READ = 1, DSM__PROT_WRITE = 2 };

struct dsm__need;
struct dsm__homeinfo;

/* What this process knows about one page. Zeroed memory is a valid
 * "untouched" entry; dsm__page() fills in the initial state on first use.
 *
 * Home-based lazy release consistency (docs/protocol.md): every page has one
 * home, whose copy is the master copy. Other processes hold copies that
 * are valid (readable) or not (a write notice arrived, or they never had
 * one); a copy that is not valid is refreshed whole from the home. */
enum { DSM__PUSHED_COPY = 1, DSM__PUSHED_RUN = 2 };
/* Pushed copies that went out of date untouched, in a row, before the
 * reader unsubscribes (fetch.c). Not one: a page its home writes in several
 * intervals between two reads (an OpenMP program's molecule array, written
 * by three regions of each time step and read by one) would be unsubscribed
 * and then fetched at every read, a fault and a round trip each, where one
 * more push costs neither. A page of a cold run that goes out of date
 * untouched counts as all but one of them (interval.c). */
#define DSM__PUSH_IDLE_UNSUB 3

typedef struct dsm__page {
  uint8_t inited;
  uint8_t prot;        /* protection of the application view */
  uint8_t valid;       /* non-home: this copy holds every write it must */
  uint8_t dirty;       /* in the write-notice list of the open interval */
  uint8_t excl;        /* home: no other copy exists, so writes are not tracked */
  uint8_t pushed;      /* non-home: a copy installed and not yet touched, inaccessible
                          so that its first use faults here: DSM__PUSHED_COPY, a
                          pushed copy; DSM__PUSHED_RUN, one of a cold run (fetch.c) */
  uint8_t push_idle;   /* non-home: pushed copies that went out of date untouched, in a row */
  uint8_t push_trust;  /* non-home: pushed copies to install readable before the
                          next one is installed inaccessible, to see it used */
  uint8_t push_trust_next; /* non-home: the trust the next used probe buys (0: the
                          first, PUSH_TRUST; grows 7, 31, 127 while probes find
                          copies used: fetch.c) */
  uint8_t queued;      /* in region.c's queue of protection changes ... */
  uint8_t osprot;      /* ... and the protection the kernel has until the flush */
  uint8_t hot;         /* home: written in every interval, so left writable (hot.c) */
  uint8_t hot_idle;    /* home, hot: releases in a row that found it unchanged */
  uint8_t twin_lag;    /* home, hot: the release's PUSH copy refreshes the twin too (home.c) */
  uint8_t ahead;       /* non-home: opened for writing before any write (write_ahead.c) */
  uint8_t tainted;     /* home: someone else may hold a copy made after that write */
  uint8_t carry_off;   /* non-home: the home moved to its writer and turned exclusive
                          at once; no diff carried with a lock may revive our copy
                          (the home would not know of it), only a copy from the home */
  uint8_t fetching;    /* non-home: a thread of this process waits for a copy of it
                          (fetch.c, with several threads per process) */
  uint8_t held;        /* this process was the page's home and gave it away with its
                          data or moved it to its writer: it held the bytes once,
                          although it has no version vector (fetch.c: not a cold page) */
  uint8_t checked;     /* DSM_CHECK_PAGES: the state the last check found it in, whose
                          move to the next one the table must allow (page_state.c) */
  uint16_t home;       /* rank whose copy is the master copy (moves: collective.c) */
  uint16_t alloc_class;/* allocator: size class of a slab page, or run marker */
  uint16_t gift_gen;   /* home: how many gifts in this epoch brought the page here
                          (first_touch.c; the newest gift names its home) */
  uint32_t alloc_run;  /* allocator: pages in a large block starting here */
  uint32_t own_last;   /* newest own interval that wrote the page (its diff may
                          still be on its way to the home) */
  uint32_t hot_at;     /* home, hot: index in hot.c's list */
  uint32_t rd_epoch;   /* non-home: the release epoch in which a read made it readable
                          (write_ahead.c: were pages read-faulted in then written?) */
  uint8_t *twin;       /* copy taken at the first write of the open interval:
                          elsewhere what the diff is made against, at the home
                          what fetches get until the release */
  uint32_t *pv;        /* version of this copy: per writer, the newest interval
                          whose writes it contains (NULL: all zero) */
  struct dsm__need *need;        /* write notices this copy does not satisfy yet */
  struct dsm__homeinfo *hi;      /* home: readers to push to (NULL: none) */
} dsm__page_t;

typedef struct dsm__segment {
  uintptr_t base;      /* application address */
  size_t size;         /* bytes, page multiple */
  size_t off;          /* offset in the memfd (and the system view) */
  uint32_t first_page; /* global page number of base */
  int home;            /* initial home of its pages, -1: the heap slice's owner */
  const char *name;
} dsm__segment_t;

extern pthread_mutex_t dsm__mu;        /* protects all protocol state */
extern dsm__segment_t dsm__segs[4];
extern unsigned dsm__nsegs;
extern uint8_t *dsm__sysview;          /* system view of the whole memfd */
extern uint32_t dsm__npages;
extern size_t dsm__heap_size, dsm__slice_size;
extern uintptr_t dsm__stack_base;
extern size_t dsm__stack_size;
extern int dsm__protect;               /* 0 in a job of one process */

void dsm__region_init(void);
/* After the job's collective shutdown: leave the application view of the
 * globals readable for tools that scan the executable's data at exit. */
void dsm__region_exit(void);
/* Page number of an application address, or -1 when it is not shared. */
long dsm__page_of(const void *addr);
/* Is addr inside any shared segment? */
int dsm__is_shared(const void *addr);
uintptr_t dsm__page_addr(uint32_t pg);          /* application address */
uint8_t *dsm__page_sys(uint32_t pg);            /* system-view address */
/* Where to read a page's current bytes: the application's view when the
 * page is readable there (the application touched it through that view,
 * so its mappings exist, where the system view's may not yet: a kernel
 * page fault per page on first use), else the system view. Under the
 * sanitizers always the system view: under AddressSanitizer the
 * application's view holds poisoned bytes (the redzones of the master's
 * stack frames and of globals) that a copy of the whole page would trip
 * on, and ThreadSanitizer cannot see that page protection orders the
 * application's writes before the read. Under dsm__mu. */
const uint8_t *dsm__page_current(uint32_t pg);
/* The most pages one PAGE request names (fetch.c's runs, DSM_PREFETCH).
 * Longer runs were slower: the stencil's first sweep at 2 processes took
 * 1.16x as long with runs of 256 and 1.02x with 128 (16 pairs each). */
#define DSM__RUN_MAX 64
int dsm__page_is_zero(const void *page);        /* all DSM__PAGE bytes zero? */
int dsm__page_is_hole(uint32_t pg);             /* never touched here (so zero)? */
/* A run of contiguous pages this process never held (count <= DSM__RUN_MAX): write
 * their bytes (NULL: zeros) through the memory file rather than the system
 * view, and map them in the application view, still inaccessible, so that
 * first touches cost no kernel fault (region.c says why). */
void dsm__pages_write_fresh(uint32_t first, uint32_t count, const uint8_t *const *data);
/* Returns 0, doing nothing, if a page of the run is accessible or queued. */
int  dsm__pages_premap(uint32_t first, uint32_t count);
/* Memory for such a run, made (zeroed, in the file) before its bytes come:
 * what dsm__pages_write_fresh then does is a copy. */
void dsm__pages_reserve(uint32_t first, uint32_t count);
/* Make reserved pages that got no bytes holes again (under dsm__mu). */
void dsm__pages_unreserve(uint32_t first, uint32_t count);
/* A copy of count consecutive pages' bytes read through the file in one
 * call, not through a mapping: a page whose mapping in the system view was
 * never touched costs no fault. */
void dsm__pages_read_file(uint32_t first, uint32_t count, uint8_t *buf);
/* The process that allocated the page (its heap slice's owner; rank 0 for
 * globals and the stack): the allocator's notion, fixed for the run. */
int dsm__page_owner(uint32_t pg);
/* The page's current home (the protocol's notion; starts at the owner and
 * moves to a page's only writer at collectives, or to the first process to
 * touch a page nobody had: first_touch.c). Under dsm__mu. */
int dsm__page_home(uint32_t pg);
dsm__page_t *dsm__page(uint32_t pg);
void dsm__set_prot(uint32_t pg, int prot);      /* mprotect the app view (prot.c) */

/* Protection changes gathered and applied as one mprotect per run of
 * contiguous pages with the same target (releases, invalidations and
 * collectives change thousands of pages at once; each mprotect also costs a
 * TLB shootdown in a multithreaded process). dsm__prot_flush applies what
 * was queued; p->prot is updated at once, so the queue must be flushed
 * before dsm__mu is released. */
void dsm__prot_queue(uint32_t pg, int prot);
void dsm__prot_flush(void);
/* The calling thread is the application's (dsm_startup's): with one
 * application thread per process, its flushes may use spans (prot.c). */
void dsm__prot_app_thread(void);
/* The first page after the segment that holds page pg. */
uint32_t dsm__page_seg_end(uint32_t pg);

/* Allocator (alloc.c). */
void  dsm__alloc_init(void);
/* dsm_malloc and friends with the allocation site the profiler reports:
 * site "file:line" (from ompdsmcc) or NULL, caller the program's call. */
void *dsm__malloc_from(size_t size, const char *site, const void *caller);
void *dsm__calloc_from(size_t n, size_t size, const char *site, const void *caller);
void *dsm__realloc_from(void *ptr, size_t size, const char *site, const void *caller);
char *dsm__strdup_from(const char *s, const char *site, const void *caller);
void  dsm__alloc_free_remote(uintptr_t addr);   /* FREE from another process */
/* Page pg begins a large block right after another: a fetch run stops
 * before it (caller holds dsm__mu). */
int   dsm__alloc_splits_run(uint32_t pg);

#endif
