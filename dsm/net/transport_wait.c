/*
 * transport_wait.c — how threads sleep in the transport and wake each other
 * (transport_core.h).
 *
 * Every thread that sleeps in the transport sleeps in poll() on its own
 * eventfd, and on whatever it serves meanwhile (a socket, a completion
 * channel). So any thread wakes any other the same way: poke its eventfd.
 * Each such poke is a wake-up of one thread by another, counted in the
 * statistics (stat wakeups), because on a VM a wake-up of a thread on the
 * other vCPU costs about as much as a network round trip; the design's aim
 * is that none happens on the way from a message to the thread waiting for
 * it.
 *
 * A role is something only one thread may serve at a time (a socket, the
 * completion queue): its owner, and the threads queued to take it over.
 *
 * Called with the owning backend's mu held unless said otherwise.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "transport_core.h"

/* ---- eventfds ------------------------------------------------------------------ */

void dsm__tp_poke(int fd)
{
  uint64_t one = 1;
  ssize_t w = write(fd, &one, sizeof one);
  (void)w;
}

void dsm__tp_unpoke(int fd)
{
  uint64_t v;
  ssize_t r = read(fd, &v, sizeof v);
  (void)r;
}

int dsm__tp_eventfd(void)
{
  int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (fd < 0)
    dsm__fatal(DSM__EXIT_FATAL, "eventfd: %s (too many open files?)", strerror(errno));
  return fd;
}

/* One eventfd per thread that ever waits, made on first use and closed when
 * the thread exits (test programs start threads that answer deferred
 * requests; the library's own threads live as long as the process). */
static pthread_key_t fd_key;
static pthread_once_t fd_once = PTHREAD_ONCE_INIT;
static __thread int thread_fd = -1;

static void close_thread_fd(void *p)
{
  (void)p;
  if (thread_fd >= 0)
    close(thread_fd);
  thread_fd = -1;
}

static void make_key(void)
{
  if (pthread_key_create(&fd_key, close_thread_fd))
    dsm__fatal(DSM__EXIT_FATAL, "pthread_key_create failed");
}

void dsm__tp_waiter_init(struct dsm__tp_waiter *w)
{
  memset(w, 0, sizeof *w);
  w->thread = pthread_self();
  if (thread_fd < 0) {
    pthread_once(&fd_once, make_key);
    thread_fd = dsm__tp_eventfd();
    pthread_setspecific(fd_key, &thread_fd);
  }
  w->fd = thread_fd;
  w->until = UINT64_MAX;
}

/* ---- waking and sleeping ----------------------------------------------------------- */

void dsm__tp_wake(struct dsm__tp_waiter *w)
{
  if (!w || !w->asleep || pthread_equal(w->thread, pthread_self()))
    return;
  w->asleep = 0;
  if (w->poke)
    w->poke(w);      /* it sleeps somewhere else than in dsm__tp_sleep */
  else
    dsm__tp_poke(w->fd);
  DSM__STAT_INC(wakeups);
}

void dsm__tp_wake_before(struct dsm__tp_waiter *w, uint64_t deadline)
{
  if (w && deadline < w->until)
    dsm__tp_wake(w);
}

int dsm__tp_sleep(struct dsm__tp_core *co, struct dsm__tp_waiter *w, struct pollfd *fds,
                  unsigned n, uint64_t until)
{
  fds[0].fd = w->fd;
  fds[0].events = POLLIN;
  for (unsigned i = 0; i < n; i++)
    fds[i].revents = 0;
  uint64_t now = dsm__now_ns();
  struct timespec ts, *tsp = NULL;
  if (until != UINT64_MAX) {
    uint64_t wait = until > now ? until - now : 0;
    ts.tv_sec = (time_t)(wait / 1000000000u);
    ts.tv_nsec = (long)(wait % 1000000000u);
    tsp = &ts;
  }
  /* A poke that comes between here and ppoll leaves the eventfd readable,
   * so ppoll returns at once: no wake-up is lost. */
  w->asleep = 1;
  w->until = until;
  pthread_mutex_unlock(&co->mu);
  int r = ppoll(fds, n, tsp, NULL);
  pthread_mutex_lock(&co->mu);
  w->asleep = 0;
  w->until = UINT64_MAX;
  if (r > 0 && (fds[0].revents & POLLIN))
    dsm__tp_unpoke(w->fd);
  return r;
}

/* ---- roles ------------------------------------------------------------------------- */

void dsm__tp_role_enqueue(struct dsm__tp_role *r, struct dsm__tp_waiter *w)
{
  struct dsm__tp_waiter **pp = &r->queue;
  while (*pp && *pp != w) pp = &(*pp)->next;
  if (!*pp) {
    w->next = NULL;
    *pp = w;
  }
}

void dsm__tp_role_dequeue(struct dsm__tp_role *r, struct dsm__tp_waiter *w)
{
  for (struct dsm__tp_waiter **pp = &r->queue; *pp; pp = &(*pp)->next)
    if (*pp == w) {
      *pp = w->next;
      return;
    }
}

void dsm__tp_role_pass(struct dsm__tp_role *r, struct dsm__tp_waiter *fallback)
{
  struct dsm__tp_waiter *next = r->queue;
  if (next)
    r->queue = next->next;
  else
    next = fallback;
  r->owner = next;
  dsm__tp_wake(next);
}
