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

struct dsm__notice;
struct dsm__diffrec;

/* What this process knows about one page. Zeroed memory is a valid
 * "untouched" entry; dsm__page() fills in the initial state on first use. */
typedef struct dsm__page {
  uint8_t inited;
  uint8_t prot;        /* protection of the application view */
  uint8_t cold;        /* no base copy here: fetch the whole page from home */
  uint8_t dirty;       /* in the write-notice list of the open interval */
  uint8_t gc_listed;   /* on gc.c's list of pages holding consistency data */
  uint32_t twin_idx;   /* interval in which the twin was taken */
  uint8_t *twin;       /* copy taken at the first write after the last diff */
  struct dsm__notice *notices;   /* write notices not yet applied */
  struct dsm__diffrec *diffs;    /* diffs this process made, newest first */
  uint32_t *pv;        /* per writer: newest interval contained in our copy */
  uint16_t alloc_class;/* allocator: size class of a slab page, or run marker */
  uint32_t alloc_run;  /* allocator: pages in a large block starting here */
} dsm__page_t;

typedef struct dsm__segment {
  uintptr_t base;      /* application address */
  size_t size;         /* bytes, page multiple */
  size_t off;          /* offset in the memfd (and the system view) */
  uint32_t first_page; /* global page number of base */
  int home;            /* home rank of its pages, -1: heap slice owner */
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
int dsm__page_home(uint32_t pg);
dsm__page_t *dsm__page(uint32_t pg);
void dsm__set_prot(uint32_t pg, int prot);      /* mprotect the app view */

/* Allocator (alloc.c). */
void  dsm__alloc_init(void);
void  dsm__alloc_free_remote(uintptr_t addr);   /* FREE from another process */

#endif
