/*
 * region.c — builds the shared address space described in region.h.
 *
 * Everything here runs once at startup, before any peer can send a request,
 * except the page-table accessors, which callers use under dsm__mu.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif
#include <unistd.h>

#include "dsm_internal.h"
#include "page_state.h"
#include "region.h"

/* The linker script dsm_shared.ld defines these around the two sections. */
extern char __dsm_shared_data_start[] __attribute__((weak));
extern char __dsm_shared_data_end[] __attribute__((weak));
extern char __dsm_shared_bss_start[] __attribute__((weak));
extern char __dsm_shared_bss_end[] __attribute__((weak));

pthread_mutex_t dsm__mu = PTHREAD_MUTEX_INITIALIZER;
dsm__segment_t dsm__segs[4];
unsigned dsm__nsegs;
uint8_t *dsm__sysview;
uint32_t dsm__npages;
size_t dsm__heap_size, dsm__slice_size;
uintptr_t dsm__stack_base;
size_t dsm__stack_size;
int dsm__protect;

static dsm__page_t *pages;
static int memfd = -1;

static size_t round_up(size_t n) { return (n + DSM__PAGE - 1) & ~(size_t)(DSM__PAGE - 1); }

static void add_segment(const char *name, uintptr_t base, size_t size, int home, size_t *off)
{
  if (size == 0)
    return;
  dsm__segment_t *s = &dsm__segs[dsm__nsegs++];
  s->name = name;
  s->base = base;
  s->size = size;
  s->off = *off;
  s->first_page = (uint32_t)(*off >> DSM__PAGE_SHIFT);
  s->home = home;
  *off += size;
}

/* Initial protection of a segment's application view in this process. The
 * owner of a page is its first home and starts with the only copy (zeros,
 * or the executable's image for globals): the page is exclusive there and
 * writable with no tracking until someone else asks for it. Everyone else
 * starts without a copy and fetches it on first touch. */
static int initial_prot(const dsm__segment_t *s, uint32_t pg)
{
  if (!dsm__protect)
    return PROT_READ | PROT_WRITE;
  return dsm__page_owner(pg) == (int)dsm__rank ? PROT_READ | PROT_WRITE : PROT_NONE;
}

static void map_view(const dsm__segment_t *s, int fixed_noreplace)
{
  /* The heap is protected slice by slice (each slice has its own home), the
   * other segments as a whole. */
  size_t step = s->home < 0 ? dsm__slice_size : s->size;
  for (size_t done = 0; done < s->size; done += step) {
    size_t len = s->size - done < step ? s->size - done : step;
    uint32_t pg = s->first_page + (uint32_t)(done >> DSM__PAGE_SHIFT);
    int flags = MAP_SHARED | MAP_NORESERVE | (fixed_noreplace ? MAP_FIXED_NOREPLACE : MAP_FIXED);
    void *want = (void *)(s->base + done);
    void *got = mmap(want, len, initial_prot(s, pg), flags, memfd, (off_t)(s->off + done));
    if (got == MAP_FAILED || got != want)
      dsm__fatal(DSM__EXIT_FATAL,
                 "cannot map the shared %s at %p (%zu MiB): %s; another mapping is in the way "
                 "(is the program position-independent? link with -no-pie)",
                 s->name, want, len >> 20, got == MAP_FAILED ? strerror(errno) : "moved");
  }
}

void dsm__region_init(void)
{
  dsm__protect = dsm__nprocs > 1;
  dsm__heap_size = (size_t)dsm__env_long("DSM_HEAP_MB", 16384, 16, DSM__HEAP_MAX_MB) << 20;
  dsm__stack_size = (size_t)dsm__env_long("DSM_STACK_MB", 64, 1, 1 << 16) << 20;
  /* Each process carves from its own slice of the heap. */
  dsm__slice_size = (dsm__heap_size / dsm__nprocs) & ~(size_t)(DSM__PAGE - 1);
  dsm__heap_size = dsm__slice_size * dsm__nprocs;

  uintptr_t dstart = (uintptr_t)__dsm_shared_data_start, dend = (uintptr_t)__dsm_shared_data_end;
  uintptr_t bstart = (uintptr_t)__dsm_shared_bss_start, bend = (uintptr_t)__dsm_shared_bss_end;
  if (!dstart || dend < dstart) dstart = dend = 0;
  if (!bstart || bend < bstart) bstart = bend = 0;

  size_t off = 0;
  add_segment("globals", dstart, round_up(dend - dstart), 0, &off);
  add_segment("zero-initialized globals", bstart, round_up(bend - bstart), 0, &off);
  add_segment("heap", DSM__HEAP_BASE, dsm__heap_size, -1, &off);
  /* One guard page between the heap and the master's stack stays unmapped. */
  dsm__stack_base = DSM__HEAP_BASE + dsm__heap_size + DSM__PAGE;
  add_segment("master stack", dsm__stack_base, dsm__stack_size, 0, &off);
  dsm__npages = (uint32_t)(off >> DSM__PAGE_SHIFT);

  memfd = memfd_create("ompdsm", MFD_CLOEXEC);
  if (memfd < 0 || ftruncate(memfd, (off_t)off) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "cannot create the shared memory file (%zu MiB): %s",
               off >> 20, strerror(errno));
  dsm__sysview = mmap(NULL, off, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, memfd, 0);
  pages = mmap(NULL, (size_t)dsm__npages * sizeof(dsm__page_t), PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (dsm__sysview == MAP_FAILED || pages == MAP_FAILED)
    dsm__fatal(DSM__EXIT_FATAL, "cannot reserve %zu MiB of address space: %s", off >> 20,
               strerror(errno));
  /* Hundreds of MiB of address space: not for core files (crash.c). */
  (void)madvise(pages, (size_t)dsm__npages * sizeof(dsm__page_t), MADV_DONTDUMP);
#if defined(__SANITIZE_ADDRESS__)
  /* The page table holds the only pointers to twins, diffs and notices, and
   * LeakSanitizer does not look inside anonymous mappings unless told. */
  __lsan_register_root_region(pages, (size_t)dsm__npages * sizeof(dsm__page_t));
#endif

  for (unsigned i = 0; i < dsm__nsegs; i++) {
    dsm__segment_t *s = &dsm__segs[i];
    int is_global = s->base == dstart || s->base == bstart;
    if (is_global) {
      /* The globals already hold the executable's image (and whatever the
       * program wrote before startup): move them into the memfd, then put
       * the memfd's pages where they were. */
      size_t used = (s->base == dstart ? dend : bend) - s->base;
      memcpy(dsm__sysview + s->off, (void *)s->base, used);
    }
    map_view(s, !is_global);
  }
}

long dsm__page_of(const void *addr)
{
  uintptr_t a = (uintptr_t)addr;
  for (unsigned i = 0; i < dsm__nsegs; i++) {
    const dsm__segment_t *s = &dsm__segs[i];
    if (a >= s->base && a - s->base < s->size)
      return (long)(s->first_page + ((a - s->base) >> DSM__PAGE_SHIFT));
  }
  return -1;
}

int dsm__is_shared(const void *addr) { return dsm__page_of(addr) >= 0; }

static const dsm__segment_t *seg_of_page(uint32_t pg)
{
  for (unsigned i = 0; i < dsm__nsegs; i++) {
    const dsm__segment_t *s = &dsm__segs[i];
    if (pg >= s->first_page && pg - s->first_page < (s->size >> DSM__PAGE_SHIFT))
      return s;
  }
  dsm__fatal(DSM__EXIT_FATAL, "internal error: page %u is outside every segment", pg);
}

uint32_t dsm__page_seg_end(uint32_t pg)
{
  const dsm__segment_t *s = seg_of_page(pg);
  return s->first_page + (uint32_t)(s->size >> DSM__PAGE_SHIFT);
}

uintptr_t dsm__page_addr(uint32_t pg)
{
  const dsm__segment_t *s = seg_of_page(pg);
  return s->base + ((uintptr_t)(pg - s->first_page) << DSM__PAGE_SHIFT);
}

uint8_t *dsm__page_sys(uint32_t pg) { return dsm__sysview + ((size_t)pg << DSM__PAGE_SHIFT); }

const uint8_t *dsm__page_current(uint32_t pg)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return dsm__page_sys(pg);
#else
  /* A protection change still in the queue is not the kernel's yet. */
  const dsm__page_t *p = dsm__page(pg);
  if (p->prot != DSM__PROT_NONE && !p->queued)
    return (const uint8_t *)dsm__page_addr(pg);
  return dsm__page_sys(pg);
#endif
}

int dsm__page_is_zero(const void *page)
{
  /* A page with data usually differs from zero in its first words, so
   * this is short for them; a zero page costs one pass over 4 KiB. */
  const uint64_t *w = page;
  for (size_t i = 0; i < DSM__PAGE / 8; i += 8) {
    uint64_t any = w[i] | w[i + 1] | w[i + 2] | w[i + 3] | w[i + 4] | w[i + 5] | w[i + 6] | w[i + 7];
    if (any)
      return 0;
  }
  return 1;
}

/* Which pages of the window [res_lo, res_lo + RES_WIN) mincore found in
 * memory (bit k: page res_lo + k). */
#define RES_WIN 64
static uint32_t res_lo = UINT32_MAX;
static uint64_t res_in;

int dsm__page_is_hole(uint32_t pg)
{
  /* Nothing in this process ever touched the page: the file has a hole
   * there, which reads as zeros and has no memory behind it yet. Asking
   * the kernel is one system call; reading the page to see its zeros is a
   * page fault that allocates it (tens of microseconds on a paravirtualised
   * guest: fft3d's master served 12,000 such pages of its arrays' far
   * halves at the start) and keeps memory that nobody here needs. A page
   * swapped out counts as data. Called under dsm__mu.
   *
   * First mincore, on the system view (a shared mapping of the file, so
   * it reports the file's pages whether or not this mapping ever touched
   * them): a page in memory holds data, at the cost of one page-table
   * lookup. It answers for a window of pages at once, and a page with data
   * keeps it (only dsm__pages_unreserve punches holes, and it forgets the
   * window), so the pages of a run a
   * home serves (a prefetch of up to 64, each asked about twice) cost one
   * call in all; a page of the window that was not in memory is asked
   * again alone (a walk through a hole's 64 pages at every question cost
   * sort_task's rank 1 more than the file's walks had). Only a page not
   * in memory is asked of the file, as SEEK_HOLE, which answers at once
   * for a page in a hole; only a page swapped out walks the file's run of
   * data after it.
   *
   * The file alone walked: SEEK_DATA walks a hole to its end (sort_task's
   * master gave away its 100 MB scratch array one run at a time, each
   * asking through the rest of the empty array), SEEK_HOLE a run of data
   * to its end (the same master serving pages of its 100 MB input: the
   * service thread spent most of the time of its slowest answers in the
   * kernel's walk, 457 of 835 samples). */
  unsigned char v[RES_WIN];
  if (pg - res_lo < RES_WIN) {
    /* In the window: a page in memory then has data now; one that was not
     * may have been written since, and is asked again alone. */
    uint64_t bit = (uint64_t)1 << (pg - res_lo);
    if (res_in & bit)
      return 0;
    if (mincore(dsm__page_sys(pg), DSM__PAGE, v) == 0 && (v[0] & 1)) {
      res_in |= bit;
      return 0;
    }
  } else {
    uint32_t n = dsm__npages - pg < RES_WIN ? dsm__npages - pg : RES_WIN;
    if (mincore(dsm__page_sys(pg), (size_t)n << DSM__PAGE_SHIFT, v) == 0) {
      res_lo = pg;
      res_in = 0;
      for (uint32_t k = 0; k < n; k++)
        res_in |= (uint64_t)(v[k] & 1) << k;
      if (res_in & 1)
        return 0;
    }
  }
  off_t at = (off_t)pg << DSM__PAGE_SHIFT;
  off_t h = lseek(memfd, at, SEEK_HOLE);   /* the end of the file at worst */
  if (h < 0)
    return 0;                   /* past the end, or unknown: read it */
  return h == at;
}

/* ---- fresh memory ------------------------------------------------------------------ */

/* On a paravirtualised guest the first touch of a page through a user
 * mapping is a kernel fault that costs more than anything else about the
 * page (measured here: 14 us to map a page of the memory file on first
 * access, ~6 us more when the memory behind it is new, against 0.2 us to
 * copy it), and a fetched page used to be touched for the first time
 * twice: by the copy into the system view and by the application's access
 * through its own view. The copy goes through the file instead (pwritev:
 * the kernel allocates and fills the pages with no user fault), and the
 * application view's entries are made in one call for the run. */

void dsm__pages_write_fresh(uint32_t first, uint32_t count, const uint8_t *const *data)
{
  static const uint8_t zeros[DSM__PAGE];
  struct iovec iov[DSM__RUN_MAX];
  DSM__ASSERT(count <= DSM__RUN_MAX);
  for (uint32_t k = 0; k < count; k++)
    iov[k] = (struct iovec){ (void *)(data[k] ? data[k] : zeros), DSM__PAGE };
  off_t at = (off_t)first << DSM__PAGE_SHIFT;
  ssize_t want = (ssize_t)count * DSM__PAGE, got = pwritev(memfd, iov, (int)count, at);
  if (got == want)
    return;
  /* Short or failed (no memory for the file?): the plain copy, which
   * fails the way any first touch would. */
  for (uint32_t k = 0; k < count; k++)
    if (data[k])
      memcpy(dsm__page_sys(first + k), data[k], DSM__PAGE);
    else
      memset(dsm__page_sys(first + k), 0, DSM__PAGE);
}

void dsm__pages_read_file(uint32_t first, uint32_t count, uint8_t *buf)
{
  size_t len = (size_t)count * DSM__PAGE;
  if (pread(memfd, buf, len, (off_t)first << DSM__PAGE_SHIFT) != (ssize_t)len)
    memcpy(buf, dsm__page_sys(first), len);
}

/* Allocating the file's pages is most of what writing a fresh run costs
 * (measured here for 256 pages: 400 us to write them through the file,
 * 110-150 us once they exist), and it needs none of the bytes: fetch.c
 * does it while the request is out. A failure (no memory for the file)
 * shows in the write that follows, which falls back to the copy. */
void dsm__pages_reserve(uint32_t first, uint32_t count)
{
  (void)fallocate(memfd, 0, (off_t)first << DSM__PAGE_SHIFT, (off_t)count << DSM__PAGE_SHIFT);
}

/* A reserved page that got no bytes is a hole again: a hole is how this
 * process knows it never held anything there (dsm__page_is_hole), which
 * decides whether it gives the page away on a first touch. */
void dsm__pages_unreserve(uint32_t first, uint32_t count)
{
  (void)fallocate(memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                  (off_t)first << DSM__PAGE_SHIFT, (off_t)count << DSM__PAGE_SHIFT);
  res_lo = UINT32_MAX;
}

int dsm__pages_premap(uint32_t first, uint32_t count)
{
  void *a = (void *)dsm__page_addr(first);
  size_t len = (size_t)count * DSM__PAGE;
  for (uint32_t k = 0; k < count; k++)
    if (pages[first + k].prot != DSM__PROT_NONE || pages[first + k].queued)
      return 0;
  /* Readable for the length of one call: the caller holds the gate (no
   * sibling thread runs the protocol, and one that touches a page now
   * finds a valid copy). A kernel without MADV_POPULATE_READ (before 5.14)
   * says EINVAL, and the first touches fault as before. */
  if (mprotect(a, len, PROT_READ) < 0)
    return 0;
  (void)madvise(a, len, MADV_POPULATE_READ);
  if (mprotect(a, len, PROT_NONE) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "mprotect of shared pages %u-%u failed: %s", first,
               first + count - 1, strerror(errno));
  return 1;
}

int dsm__page_owner(uint32_t pg)
{
  const dsm__segment_t *s = seg_of_page(pg);
  if (s->home >= 0)
    return s->home;
  return (int)(((size_t)(pg - s->first_page) << DSM__PAGE_SHIFT) / dsm__slice_size);
}

dsm__page_t *dsm__page(uint32_t pg)
{
  DSM__ASSERT(pg < dsm__npages);
  dsm__page_t *p = &pages[pg];
  if (!p->inited) {
    p->inited = 1;
    p->home = (uint16_t)dsm__page_owner(pg);
    if (!dsm__protect) {
      p->prot = DSM__PROT_WRITE;
      p->valid = 1;
    } else if (p->home == dsm__rank) {
      p->prot = DSM__PROT_WRITE;   /* exclusive: see initial_prot */
      p->excl = 1;
      p->valid = 1;
    } else {
      p->prot = DSM__PROT_NONE;
    }
    p->checked = p->home == dsm__rank ? DSM__PS_HOME_EXCL : DSM__PS_NO_COPY;
  }
  return p;
}

int dsm__page_home(uint32_t pg) { return dsm__page(pg)->home; }

#if defined(__SANITIZE_ADDRESS__)
/* LeakSanitizer reads every byte of a root region at exit, and the page
 * table has an entry for every page of the heap's reservation (16 GiB by
 * default: 288 MiB of entries per process). Reading the part never touched
 * made the kernel map a zero page under each of its pages, ~2 s of a 4-process
 * test's 2.6 s under ASan. An entry never written is zero and points at
 * nothing, so the roots become the page table's pages that exist: present or
 * swapped out, as /proc/self/pagemap says (mincore would miss swapped ones). */
static void lsan_roots_existing(void *base, size_t len)
{
  static int done;     /* a slave's exit comes here twice */
  int fd = done ? -1 : open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;           /* the whole region stays a root: slow, still right */
  done = 1;
  __lsan_unregister_root_region(base, len);
  uintptr_t first = (uintptr_t)base / DSM__PAGE, n = (len + DSM__PAGE - 1) / DSM__PAGE;
  uintptr_t run = 0, run_len = 0;
  uint64_t ent[512];
  for (uintptr_t i = 0; i < n; i += 512) {
    size_t want = (n - i < 512 ? n - i : 512) * sizeof ent[0];
    ssize_t got = pread(fd, ent, want, (off_t)((first + i) * sizeof ent[0]));
    size_t k_end = got > 0 ? (size_t)got / sizeof ent[0] : 0;
    for (size_t k = 0; k < want / sizeof ent[0]; k++) {
      /* An unreadable entry counts as existing: a root too many is safe. */
      int exists = k >= k_end || (ent[k] >> 62) != 0;   /* bit 63 present, 62 swapped */
      uintptr_t addr = (first + i + k) * DSM__PAGE;
      if (exists && run_len && run + run_len == addr) {
        run_len += DSM__PAGE;
        continue;
      }
      if (run_len)
        __lsan_register_root_region((void *)run, run_len);
      run = addr;
      run_len = exists ? DSM__PAGE : 0;
    }
  }
  if (run_len)
    __lsan_register_root_region((void *)run, run_len);
  close(fd);
}
#endif

void dsm__region_exit(void)
{
#if defined(__SANITIZE_ADDRESS__)
  lsan_roots_existing(pages, (size_t)dsm__npages * sizeof(dsm__page_t));
  /* LeakSanitizer looks for pointers in the executable's data and bss at
   * exit, and the DSM_SHARED sections lie inside them; a page still
   * invalid here would fault in its scanner, which has no DSM to serve it.
   * No protocol runs after the shutdown, so the stale contents are fine. */
  for (unsigned i = 0; i < dsm__nsegs; i++)
    if (dsm__segs[i].home >= 0 && dsm__segs[i].size)
      (void)mprotect((void *)dsm__segs[i].base, dsm__segs[i].size, PROT_READ);
#endif
}
