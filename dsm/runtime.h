/*
 * runtime.h — the protocol layer's start-up and shutdown, and the private
 * stack that library code runs on (dsm/runtime.c). The layer above (sync/)
 * calls these; nothing in dsm/ calls up into sync/.
 */
#ifndef DSM_RUNTIME_H
#define DSM_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

/* Start-up in three steps, driven by sync/job.c: this layer's state and
 * message handlers; then the layer above registers its handlers; then the
 * network comes up (and every handler must be registered by then). */
void dsm__runtime_init(void);
void dsm__runtime_start(void);
/* Collective shutdown of this layer: statistics, the transport, the region. */
void dsm__runtime_exit(void);
void dsm__stats_init(void);
/* Pin this rank to one CPU when dsmrun says it may (dsm/bind.c); before
 * any thread is created, so that they all inherit the mask. */
void dsm__bind_cpu(void);

/* Run fn(arg) on the library's private stack when called from shared memory
 * (the master's stack under dsm_main); directly otherwise. Every entry point
 * that takes dsm__mu goes through it. */
void dsm__on_private_stack(void (*fn)(void *), void *arg);
void dsm__call_on_stack(void (*fn)(void *), void *arg, void *top);
/* From a thread on its own (private) stack: run fn(arg) on the stack whose
 * top is top (shared memory), with the rest of the thread's own stack as
 * its library stack meanwhile (a worker thread's region in a program whose
 * tasks move between processes). */
void dsm__call_on_shared_stack(void (*fn)(void *), void *arg, void *top);

#endif
