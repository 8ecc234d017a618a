/* tsp_ref.c - see tsp_ref.h. */
#include "tsp_ref.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tsp_make(struct tsp_problem *p, int n, uint64_t seed)
{
    struct app_rng r;
    if (n < 3 || n > TSP_MAXC) {
        fprintf(stderr, "tsp: need 3 <= n <= %d cities\n", TSP_MAXC);
        exit(2);
    }
    app_rng_seed(&r, seed);
    p->n = n;
    for (int i = 0; i < n; i++) {
        p->dist[i][i] = 0;
        for (int j = 0; j < i; j++)
            p->dist[i][j] = p->dist[j][i] = 10 + (int)(app_rng_double(&r) * 990.0);
    }
    for (int i = 0; i < n; i++) {
        int m = INT_MAX;
        for (int j = 0; j < n; j++)
            if (j != i && p->dist[i][j] < m)
                m = p->dist[i][j];
        p->minedge[i] = m;
    }
}

/* Every city still to be left (the last one and the unvisited ones) costs
 * at least its cheapest edge. */
static int bound_of(const struct tsp_problem *p, const struct tsp_tour *t)
{
    int b = t->len + p->minedge[t->path[t->depth - 1]];
    for (int c = 0; c < p->n; c++)
        if (!(t->visited & (1u << c)))
            b += p->minedge[c];
    return b;
}

void tsp_start(const struct tsp_problem *p, struct tsp_tour *t)
{
    memset(t, 0, sizeof *t);
    t->depth = 1;
    t->path[0] = 0;
    t->visited = 1;
    t->bound = bound_of(p, t);
}

void tsp_extend(const struct tsp_problem *p, const struct tsp_tour *t, int c,
                struct tsp_tour *child)
{
    *child = *t;
    child->len += p->dist[t->path[t->depth - 1]][c];
    child->path[child->depth++] = (unsigned char)c;
    child->visited |= 1u << c;
    child->bound = bound_of(p, child);
}

static void search_rec(const struct tsp_problem *p, int last, unsigned visited, int left,
                       int len, int rest, int *best)
{
    if (left == 0) {
        len += p->dist[last][0];
        if (len < *best)
            *best = len;
        return;
    }
    for (int c = 1; c < p->n; c++) {
        if (visited & (1u << c))
            continue;
        int nlen = len + p->dist[last][c];
        int nrest = rest - p->minedge[c];
        /* nrest: cheapest edges of the cities still unvisited after c;
         * c itself must still be left. */
        if (nlen + p->minedge[c] + nrest >= *best)
            continue;
        search_rec(p, c, visited | (1u << c), left - 1, nlen, nrest, best);
    }
}

void tsp_search(const struct tsp_problem *p, const struct tsp_tour *t, int *best)
{
    int rest = 0;
    for (int c = 0; c < p->n; c++)
        if (!(t->visited & (1u << c)))
            rest += p->minedge[c];
    search_rec(p, t->path[t->depth - 1], t->visited, p->n - t->depth, t->len, rest, best);
}

int tsp_held_karp(const struct tsp_problem *p)
{
    /* cost[S][j]: shortest path from 0 through the set S of cities 1..n-1
     * ending at j (j in S). S is a bit set over cities 1..n-1. */
    int m = p->n - 1;
    size_t nsets = (size_t)1 << m;
    int *cost = malloc(nsets * (size_t)m * sizeof *cost);
    if (!cost) {
        fprintf(stderr, "tsp: Held-Karp needs too much memory\n");
        exit(2);
    }
    for (size_t s = 1; s < nsets; s++) {
        for (int j = 0; j < m; j++) {
            int *cj = &cost[s * (size_t)m + (size_t)j];
            if (!(s & ((size_t)1 << j))) {
                *cj = INT_MAX;
                continue;
            }
            size_t prev = s & ~((size_t)1 << j);
            if (prev == 0) {
                *cj = p->dist[0][j + 1];
                continue;
            }
            int b = INT_MAX;
            for (int k = 0; k < m; k++)
                if (prev & ((size_t)1 << k)) {
                    int v = cost[prev * (size_t)m + (size_t)k] + p->dist[k + 1][j + 1];
                    if (v < b)
                        b = v;
                }
            *cj = b;
        }
    }
    int best = INT_MAX;
    for (int j = 0; j < m; j++) {
        int v = cost[(nsets - 1) * (size_t)m + (size_t)j] + p->dist[j + 1][0];
        if (v < best)
            best = v;
    }
    free(cost);
    return best;
}

int tsp_queue_init(struct tsp_queue *q, int cap)
{
    q->cap = cap;
    q->nheap = 0;
    q->nfree = cap;
    q->pool = malloc((size_t)cap * sizeof *q->pool);
    q->heap = malloc((size_t)cap * sizeof *q->heap);
    q->freelist = malloc((size_t)cap * sizeof *q->freelist);
    if (!q->pool || !q->heap || !q->freelist)
        return -1;
    for (int i = 0; i < cap; i++)
        q->freelist[i] = cap - 1 - i;
    return 0;
}

/* Heap order: smaller bound first; on ties the deeper tour, then the pool
 * index, so the order never depends on anything but the contents. */
static int before(const struct tsp_queue *q, int a, int b)
{
    const struct tsp_tour *x = &q->pool[a], *y = &q->pool[b];
    if (x->bound != y->bound)
        return x->bound < y->bound;
    if (x->depth != y->depth)
        return x->depth > y->depth;
    return a < b;
}

int tsp_queue_push(struct tsp_queue *q, const struct tsp_tour *t)
{
    if (q->nfree == 0)
        return 0;
    int idx = q->freelist[--q->nfree];
    q->pool[idx] = *t;
    int i = q->nheap++;
    while (i > 0 && before(q, idx, q->heap[(i - 1) / 2])) {
        q->heap[i] = q->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->heap[i] = idx;
    return 1;
}

int tsp_queue_pop(struct tsp_queue *q, struct tsp_tour *t)
{
    if (q->nheap == 0)
        return 0;
    int top = q->heap[0];
    *t = q->pool[top];
    q->freelist[q->nfree++] = top;
    int last = q->heap[--q->nheap], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= q->nheap)
            break;
        if (c + 1 < q->nheap && before(q, q->heap[c + 1], q->heap[c]))
            c++;
        if (!before(q, q->heap[c], last))
            break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    if (q->nheap > 0)
        q->heap[i] = last;
    return 1;
}

int tsp_get_tour(const struct tsp_problem *p, struct tsp_queue *q, int best,
                 struct tsp_tour *out)
{
    struct tsp_tour t, child;
    while (tsp_queue_pop(q, &t)) {
        if (t.bound >= best)
            continue;
        /* Short tails are searched whole; so is any tour whose children
         * might not fit in the pool. */
        if (t.depth >= TSP_PREFIX || q->nfree < p->n) {
            *out = t;
            return 1;
        }
        for (int c = 1; c < p->n; c++)
            if (!(t.visited & (1u << c))) {
                tsp_extend(p, &t, c, &child);
                if (child.bound < best)
                    tsp_queue_push(q, &child);
            }
    }
    return 0;
}

int tsp_branch_and_bound(const struct tsp_problem *p)
{
    struct tsp_queue q;
    struct tsp_tour t;
    int best = INT_MAX;
    if (tsp_queue_init(&q, TSP_POOL) != 0)
        abort();
    tsp_start(p, &t);
    tsp_queue_push(&q, &t);
    while (tsp_get_tour(p, &q, best, &t))
        tsp_search(p, &t, &best);
    free(q.pool);
    free(q.heap);
    free(q.freelist);
    return best;
}
