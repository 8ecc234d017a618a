/*
 * qp_death.c — a peer killed with SIGKILL is caught by its queue pair.
 *
 * Three ranks over the verbs transport. Everyone meets at rank 0 once (so
 * the queue pairs have carried traffic); rank 1 then kills itself, and
 * ranks 0 and 2 call it. Nothing tells them it died (no ABORT, and
 * run_local.sh does not kill survivors): their SENDs to it must fail on the
 * queue pair, which ends each of them with status 75 and a message naming
 * rank 1 and the completion status, long before DSM_TIMEOUT.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "net/transport.h"

static unsigned me, np, arrived;
static dsm__reqh_t held[64];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t all_met = PTHREAD_COND_INITIALIZER;

static void on_meet(const dsm__msg_t *m)
{
  pthread_mutex_lock(&mu);
  held[arrived++] = dsm__reqh(m);
  int last = arrived == np - 1;
  pthread_mutex_unlock(&mu);
  if (last) {
    for (unsigned i = 0; i < np - 1; i++)
      dsm__tp_reply(held[i], NULL, 0);
    pthread_mutex_lock(&mu);
    pthread_cond_broadcast(&all_met);
    pthread_mutex_unlock(&mu);
  }
}

static void on_echo(const dsm__msg_t *m)
{
  dsm__tp_reply(dsm__reqh(m), m->data, m->len);
}

int main(void)
{
  me = (unsigned)dsm__env_long("DSM_RANK", 0, 0, 65535);
  np = (unsigned)dsm__env_long("DSM_SIZE", 1, 1, 64);
  dsm__rank = me;
  dsm__nprocs = np;
  dsm__tp_handle(DSM__MSG_BARRIER, on_meet);
  dsm__tp_handle(DSM__MSG_PING, on_echo);
  dsm__tp_init(me, np);
  if (me != 0) {
    dsm__tp_call(0, DSM__MSG_BARRIER, NULL, 0, NULL, NULL);
  } else {
    pthread_mutex_lock(&mu);
    while (arrived < np - 1)
      pthread_cond_wait(&all_met, &mu);
    pthread_mutex_unlock(&mu);
  }
  if (me == 1)
    kill(getpid(), SIGKILL);
  struct timespec ts = { 0, 300 * 1000 * 1000 };   /* let it die */
  nanosleep(&ts, NULL);
  char x[64] = "ping";
  dsm__tp_call(1, DSM__MSG_PING, x, sizeof x, NULL, NULL);
  fprintf(stderr, "rank %u: a call to a dead rank returned\n", me);
  return 1;
}
