/* tsp_ref.h - travelling salesman pieces shared by every TSP version:
 * the deterministic distance matrix, the branch-and-bound building blocks
 * (tour records, bound, exhaustive search of a short tail, a priority queue
 * over a pool of tours) and Held-Karp dynamic programming, an independent
 * exact algorithm that every version uses as its reference. */
#ifndef TSP_REF_H
#define TSP_REF_H

#include "apps.h"

#define TSP_MAXC 24         /* cities */
/* Tours of this many cities (0 and three more) are searched exhaustively.
 * A fixed prefix depth keeps tasks coarse at every n: about 2000 tasks of
 * ~2 ms for 21 cities, where a fixed tail length gave 10^5 tasks of
 * microseconds, and each task costs a critical section (a DSM lock). */
#define TSP_PREFIX 4

struct tsp_tour {
    int len;                /* length of the path so far */
    int bound;              /* lower bound on any completion */
    int depth;              /* cities on the path; path[0] = 0 */
    unsigned visited;       /* bit per city */
    unsigned char path[TSP_MAXC];
};

struct tsp_problem {
    int n;
    int dist[TSP_MAXC][TSP_MAXC];
    int minedge[TSP_MAXC];  /* cheapest edge out of each city */
};

void tsp_make(struct tsp_problem *p, int n, uint64_t seed);
void tsp_start(const struct tsp_problem *p, struct tsp_tour *t);  /* the path "0" */
/* Child of t going to city c; fills bound. */
void tsp_extend(const struct tsp_problem *p, const struct tsp_tour *t, int c,
                struct tsp_tour *child);
/* Exhaustive depth-first search of every completion of t that beats *best;
 * lowers *best when it finds a shorter closed tour. */
void tsp_search(const struct tsp_problem *p, const struct tsp_tour *t, int *best);
int  tsp_held_karp(const struct tsp_problem *p);

/* Pool of tour records + binary heap of pool indices keyed by bound (the
 * most promising first) + stack of free records. Not thread-safe: callers
 * hold their own lock. */
struct tsp_queue {
    int cap, nheap, nfree;
    struct tsp_tour *pool;
    int *heap;
    int *freelist;
};
int  tsp_queue_init(struct tsp_queue *q, int cap);
int  tsp_queue_push(struct tsp_queue *q, const struct tsp_tour *t);   /* 0 if full */
int  tsp_queue_pop(struct tsp_queue *q, struct tsp_tour *t);          /* 0 if empty */

#define TSP_POOL (1 << 16)  /* tour records in the pool */

/* Dequeues the most promising tour; while it is long, extends it by one
 * city, enqueues the children and dequeues again. Returns 1 with a tour
 * whose tail the caller must search, 0 when the queue is empty. Tours whose
 * bound reaches best are dropped. */
int  tsp_get_tour(const struct tsp_problem *p, struct tsp_queue *q, int best,
                  struct tsp_tour *out);

/* The sequential branch and bound (the algorithm every version runs). */
int  tsp_branch_and_bound(const struct tsp_problem *p);

#endif
