/* ompx_gcc.c - semaphores, condition variables and the critical-section
 * locks they need, for the OpenMP apps built with plain gcc -fopenmp (see
 * ompx.h). Objects live in one list searched linearly under a registry
 * mutex: the apps name a handful of objects, so a hash table would buy
 * nothing. Waits block on pthread condition variables, never spin. */
#include "ompx.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { K_SEMA, K_LOCK, K_COND };

struct obj {
    struct obj *next;
    enum kind kind;
    char *name;
    long index;
    pthread_mutex_t mu;     /* K_SEMA: guards count; K_LOCK: the lock itself */
    pthread_cond_t cv;      /* K_SEMA, K_COND */
    int count;              /* K_SEMA */
};

static pthread_mutex_t registry = PTHREAD_MUTEX_INITIALIZER;
static struct obj *objects;

static struct obj *lookup(enum kind kind, const char *name, long index)
{
    struct obj *o;

    pthread_mutex_lock(&registry);
    for (o = objects; o; o = o->next)
        if (o->kind == kind && o->index == index && strcmp(o->name, name) == 0)
            break;
    if (!o) {
        o = calloc(1, sizeof *o);
        if (!o || !(o->name = strdup(name))) {
            fprintf(stderr, "ompx: out of memory\n");
            abort();
        }
        o->kind = kind;
        o->index = index;
        pthread_mutex_init(&o->mu, NULL);
        pthread_cond_init(&o->cv, NULL);
        o->next = objects;
        objects = o;
    }
    pthread_mutex_unlock(&registry);
    return o;
}

void ompx_sema_init(const char *name, long index, int value)
{
    struct obj *s = lookup(K_SEMA, name, index);
    pthread_mutex_lock(&s->mu);
    s->count = value;
    pthread_mutex_unlock(&s->mu);
}

void ompx_sema_wait(const char *name, long index)
{
    struct obj *s = lookup(K_SEMA, name, index);
    pthread_mutex_lock(&s->mu);
    while (s->count <= 0)
        pthread_cond_wait(&s->cv, &s->mu);
    s->count--;
    pthread_mutex_unlock(&s->mu);
}

void ompx_sema_signal(const char *name, long index)
{
    struct obj *s = lookup(K_SEMA, name, index);
    pthread_mutex_lock(&s->mu);
    s->count++;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

void ompx_lock(const char *lock)
{
    pthread_mutex_lock(&lookup(K_LOCK, lock, 0)->mu);
}

void ompx_unlock(const char *lock)
{
    pthread_mutex_unlock(&lookup(K_LOCK, lock, 0)->mu);
}

/* The condition's waiters block on the critical section's own mutex, so
 * waiting releases the critical section exactly as the directive says. */
void ompx_cond_wait(const char *name, const char *lock)
{
    struct obj *c = lookup(K_COND, name, 0);
    pthread_cond_wait(&c->cv, &lookup(K_LOCK, lock, 0)->mu);
}

void ompx_cond_signal(const char *name, const char *lock)
{
    (void)lock;
    pthread_cond_signal(&lookup(K_COND, name, 0)->cv);
}

void ompx_cond_broadcast(const char *name, const char *lock)
{
    (void)lock;
    pthread_cond_broadcast(&lookup(K_COND, name, 0)->cv);
}
