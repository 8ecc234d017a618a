/*
 * runtime.c — the protocol layer's start-up and shutdown.
 *
 * sync/job.c drives the order: dsm__runtime_init (this layer's state and
 * handlers), then synchronization registers its handlers, then
 * dsm__runtime_start (the network), and at the end dsm__runtime_exit.
 *
 * Master locals (DESIGN-BRIEF 2): dsm_main runs the user's main on a stack
 * that lives in shared memory, so `&local` is a shared address everywhere and
 * any function can hand it to a forked region, in any translation unit,
 * without analysis. The price is that the library must never run protocol
 * code on that stack: its pages are write-protected at every release, and a
 * fault while dsm__mu is held would deadlock. So every entry point that takes
 * dsm__mu first moves to a private stack (private_stack.c).
 */
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#include "net/transport.h"
#include "dsm_internal.h"
#include "lrc.h"
#include "onesided.h"
#include "page_state.h"
#include "profile.h"
#include "private_stack.h"
#include "runtime.h"

#if defined(__SANITIZE_ADDRESS__)
/* An AddressSanitizer build (meson -Db_sanitize=address,...): ASan must leave
 * SIGSEGV to libsigsegv, or the first access to an invalid DSM page would be
 * reported as a crash instead of being served as a page fault. Linked into
 * every program that uses libdsm, so no environment variable is needed. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
  return "handle_segv=0:allow_user_segv_handler=1";
}
#endif

#if defined(__SANITIZE_THREAD__)
/* A ThreadSanitizer build: the DSM's page faults are synchronous SIGSEGVs
 * raised by application loads and stores to shared pages, never inside
 * malloc or a lock of the C library (their memory is private), so the
 * protocol code the fault handler runs may allocate and take dsm__mu.
 * TSan's "signal-unsafe call" check assumes asynchronous signals and would
 * flag every fault; data races are still reported. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
  return "report_signal_unsafe=0:second_deadlock_stack=1";
}
#endif

/* ---- start-up and shutdown ----------------------------------------------------- */

/* Messages of megabytes (a release's pushes, their reassembly, fetch runs)
 * are allocated and freed at every synchronisation. By default glibc gives
 * blocks above 128 KiB back to the kernel when they are freed, and trims
 * its heaps, so every such message was written into fresh memory: a kernel
 * page fault per 4 KiB, which on a paravirtualised guest cost more than the
 * transfer itself (fft3d: 12-14 s -> 9 s at 2 processes). Freed memory up
 * to 256 MiB is kept for reuse instead. A user's MALLOC_MMAP_THRESHOLD_ or
 * MALLOC_TRIM_THRESHOLD_ in the environment wins. */
static void keep_freed_memory(void)
{
  if (!getenv("MALLOC_MMAP_THRESHOLD_"))
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
  if (!getenv("MALLOC_TRIM_THRESHOLD_"))
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

/* Handlers must not run on the master's stack, which is shared memory. */
static int private_stack(const void *addr)
{
  return !dsm__is_shared(addr);
}

void dsm__runtime_init(void)
{
  dsm__tp_stack_guard = private_stack;
  dsm__verbose = (int)dsm__env_long("DSM_DEBUG", 0, 0, 9);
  const char *r = getenv("DSM_RANK"), *s = getenv("DSM_SIZE");
  int alone = 0;
  if (r && s) {
    dsm__rank = (unsigned)dsm__env_long("DSM_RANK", 0, 0, DSM__MAX_PROCS - 1);
    dsm__nprocs = (unsigned)dsm__env_long("DSM_SIZE", 1, 1, DSM__MAX_PROCS);
    if (dsm__rank >= dsm__nprocs)
      dsm__fatal(DSM__EXIT_FATAL, "DSM_RANK=%u is not below DSM_SIZE=%u", dsm__rank, dsm__nprocs);
  } else if (!dsm__pmix_start(&dsm__rank, &dsm__nprocs)) {
    /* Started on its own (or DSM_PMIX=0 under mpirun), like an MPI
     * singleton: a job of one. Otherwise mpirun or srun gave the rank and
     * the size through PMIx (boot_pmix.h). */
    dsm__rank = 0;
    dsm__nprocs = 1;
    alone = 1;
  }
  dsm__threads_init(alone);
  dsm__prot_app_thread();
  dsm__bind_cpu();
  keep_freed_memory();

  dsm__private_stack_init();
  dsm__page_checks_init();
  dsm__region_init();
  dsm__prof_init();
  dsm__lrc_init();
  dsm__alloc_init();
  dsm__fault_init();
  dsm__crash_init(!dsm__protect);   /* libsigsegv has SIGSEGV when protecting */
  dsm__home_init();
  dsm__diff_recv_init();
  dsm__diff_send_init();
  dsm__pushed_init();
  dsm__os_init();
  dsm__stats_init();
}

void dsm__runtime_start(void)
{
  if (dsm__nprocs > 1) {
    dsm__tp_init(dsm__rank, dsm__nprocs);
    dsm__os_start();
  }
  dsm__prof_job_started();
  dsm__started = 1;
}

void dsm__runtime_exit(void)
{
  dsm__prof_job_ending();
  dsm__stats_report();
  if (dsm__nprocs > 1)
    dsm__tp_shutdown();
  dsm__pmix_finish();
  dsm__prof_write();
  dsm__region_exit();
}

unsigned dsm_proc_id(void) { return dsm__rank; }
unsigned dsm_nprocs(void) { return dsm__nprocs; }
