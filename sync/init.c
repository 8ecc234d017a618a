/*
 * init.c — registers the synchronization handlers before the transport starts.
 */
#include "sync.h"

void dsm__sync_init(void)
{
  dsm__barrier_init();
  dsm__forkjoin_init();
  dsm__distribute_init();
  dsm__omp_init();
  dsm__lock_init();
  dsm__sema_init();
  dsm__flush_init();
  dsm__task_init();
  { void dsm__stdio_init(void); dsm__stdio_init(); }   /* omp_stdio.c */
}
