/* qsort_ref.c - sequential QSORT (see qsort_ref.h). */
#include "qsort_ref.h"

#include <stdio.h>
#include <stdlib.h>

void qs_fill(int *a, long n, uint64_t seed)
{
    struct app_rng r;
    app_rng_seed(&r, seed);
    for (long i = 0; i < n; i++)
        a[i] = (int)(app_rng_bits(&r) >> 15);
}

/* Median-of-three pivot, Hoare-style scan. Returns p with a[lo..p) <= a[p]
 * <= a(p..hi), so both halves exclude the pivot and always shrink. */
long qs_partition(int *a, long lo, long hi)
{
    long mid = lo + (hi - lo) / 2, last = hi - 1;
    int t;
#define SWAP(x, y) (t = a[x], a[x] = a[y], a[y] = t)
    if (a[mid] < a[lo]) SWAP(mid, lo);
    if (a[last] < a[lo]) SWAP(last, lo);
    if (a[last] < a[mid]) SWAP(last, mid);
    SWAP(mid, last);                  /* pivot to the end */
    int pivot = a[last];
    long i = lo;
    for (long j = lo; j < last; j++)
        if (a[j] < pivot) {
            SWAP(i, j);
            i++;
        }
    SWAP(i, last);
#undef SWAP
    return i;
}

void qs_bubble(int *a, long lo, long hi)
{
    for (long end = hi - 1; end > lo; end--) {
        int swapped = 0;
        for (long j = lo; j < end; j++)
            if (a[j] > a[j + 1]) {
                int t = a[j];
                a[j] = a[j + 1];
                a[j + 1] = t;
                swapped = 1;
            }
        if (!swapped)
            break;
    }
}

/* The same task structure as the parallel version, with one worker: take a
 * subarray, partition it until it is short; each time queue the larger half
 * if it is long, else bubble sort it at once, and go on with the smaller. */
void qs_sort_seq(int *a, long n)
{
    long cap = n / QS_BUBBLE + 16, top = 0;
    long (*stack)[2] = malloc((size_t)cap * sizeof *stack);
    if (!stack)
        abort();
    stack[top][0] = 0;
    stack[top][1] = n;
    top++;
    while (top > 0) {
        top--;
        long lo = stack[top][0], hi = stack[top][1];
        while (hi - lo > QS_BUBBLE) {
            long p = qs_partition(a, lo, hi);
            long blo = lo, bhi = p, slo = p + 1, shi = hi;   /* bigger, smaller */
            if (bhi - blo < shi - slo) {
                blo = p + 1; bhi = hi; slo = lo; shi = p;
            }
            if (bhi - blo > QS_BUBBLE) {
                stack[top][0] = blo;
                stack[top][1] = bhi;
                top++;
            } else {
                qs_bubble(a, blo, bhi);
            }
            lo = slo;
            hi = shi;
        }
        qs_bubble(a, lo, hi);
    }
    free(stack);
}

int qs_check(const int *b, const int *ref, long n)
{
    for (long i = 0; i < n; i++)
        if (b[i] != ref[i]) {
            printf("qsort: element %ld is %d, expected %d\n", i, b[i], ref[i]);
            return 1;
        }
    return 0;
}
