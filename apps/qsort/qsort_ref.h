/* qsort_ref.h - the sequential QSORT algorithm shared by every version:
 * quicksort through a queue of subarrays, bubble sort below a threshold. */
#ifndef QSORT_REF_H
#define QSORT_REF_H

#include "apps.h"

#define QS_BUBBLE 1024      /* subarrays of at most this many elements are bubble sorted */

void qs_fill(int *a, long n, uint64_t seed);
long qs_partition(int *a, long lo, long hi);   /* [lo,hi) -> pivot position p */
void qs_bubble(int *a, long lo, long hi);
void qs_sort_seq(int *a, long n);              /* the reference algorithm */
/* 0 when b equals the reference sort of the input (the input's sorted copy). */
int  qs_check(const int *b, const int *ref, long n);

#endif
