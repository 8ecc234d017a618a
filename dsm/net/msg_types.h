/*
 * msg_types.h — the one table of protocol message types.
 *
 * Each X(NAME, "description") line becomes DSM__MSG_NAME, the name shown in
 * the statistics, and the bound the decoder checks incoming types against.
 * A reply travels with the type of the request it answers.
 * Append new types at the end of their group; the numbers are only meaningful
 * inside one job, so reordering is harmless but pointless.
 */
#ifndef DSM_MSG_TYPES_H
#define DSM_MSG_TYPES_H

#define DSM__MSG_TABLE(X)                                              \
  X(NONE,        "invalid")                                           \
  /* transport and job control */                                     \
  X(HELLO,       "bootstrap: rank reports its address to the master") \
  X(ABORT,       "a process is failing; everyone stops")               \
  X(PING,        "round-trip probe (dsmbench, liveness)")              \
  X(EXIT,        "collective shutdown")                                \
  X(STATS,       "statistics gathered at exit")                        \
  /* memory */                                                        \
  X(PAGE,        "fetch whole pages from their home")                  \
  X(DIFF,        "a writer's diffs of pages homed at the receiver")    \
  X(FREE,        "free a block carved by another process")             \
  X(DISTRIBUTE,  "master pushes private bytes to a process")           \
  X(EXPOSE,      "memory registered for one-sided reads (verbs)")      \
  X(PUSH,        "a home's new copies of pages a reader fetched before")\
  X(UNSUB,       "a reader stops the pushes of pages it no longer reads")\
  /* synchronization */                                               \
  X(BARRIER,     "barrier arrival; the reply is the departure")        \
  X(FORK,        "master starts a parallel region")                    \
  X(JOIN,        "a process ends a parallel region")                   \
  X(LOCK,        "lock acquire (to the manager, forwarded)")           \
  X(SEMA,        "semaphore operation at its manager")                 \
  X(COND,        "condition variable operation at its manager")        \
  X(PAIRBAR,     "barrier of two processes: an arrival or a departure") \
  /* OpenMP runtime */                                                \
  X(LOOP,        "claim chunks of a dynamic/guided loop at rank 0")    \
  X(FLUSH,       "push this process's write notices to a peer")        \
  X(STDIO,       "a stdio call on a stream another process owns")      \
  X(TASK,        "OpenMP tasks: steal, give, done, and ending a barrier")

enum dsm__msg_type {
#define DSM__MSG_ENUM(name, desc) DSM__MSG_##name,
  DSM__MSG_TABLE(DSM__MSG_ENUM)
#undef DSM__MSG_ENUM
  DSM__MSG_COUNT
};

/* Types below this one are the transport's and the job's own traffic
 * (bootstrap, keepalive PINGs and their answers, shutdown, statistics): they
 * come and go on timers of their own, whatever the program does. Everything
 * from PAGE on is caused by what the program does. */
#define DSM__MSG_FIRST_PROTOCOL DSM__MSG_PAGE

/* Name of a message type for statistics and diagnostics ("?" if out of range). */
const char *dsm__msg_name(unsigned type);

#endif
