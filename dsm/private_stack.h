/*
 * private_stack.h — the stack library code runs on (dsm/private_stack.c).
 */
#ifndef DSM_PRIVATE_STACK_H
#define DSM_PRIVATE_STACK_H

/* The main thread's library stack, allocated at start-up (runtime.c). */
void dsm__private_stack_init(void);
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
