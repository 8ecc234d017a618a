/*
 * runtime.h — the protocol layer's start-up and shutdown (dsm/runtime.c).
 * The layer above (sync/) calls these; nothing in dsm/ calls up into sync/.
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

#endif
