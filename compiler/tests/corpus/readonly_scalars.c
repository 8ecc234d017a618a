/* Shared local scalars that a region only reads travel by value (the
   lowering check in meson.build looks at which ones); the program checks
   that the ones that must stay shared still are: assigned in the region
   (plainly, by ++, in a critical, as a reduction or lastprivate of a
   combined loop), or with their address taken anywhere in the function.
   Every value is printed and compared with gcc -fopenmp. */
#include <stdio.h>
#include <omp.h>

static long sum_of(const int *a, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}

int main(int argc, char **argv)
{
    int n = 3000 + argc - 1;          /* read only: by value */
    double scale = 0.5;               /* read only: by value */
    int *data = NULL;                 /* read only inside (a pointer): by value */
    int seen = -1;                    /* assigned in a single: shared */
    int bumps = 0;                    /* ++ in a critical: shared */
    int via_ptr = 7, *alias = &via_ptr;   /* address taken: shared */
    long total = 0;                   /* reduction: shared */
    int last = -1;                    /* lastprivate: shared */
    static int data_store[4000];
    data = data_store;

#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < n; i++)
            data[i] = (int)(i * scale) + via_ptr;
#pragma omp single
        seen = n;
#pragma omp critical
        bumps++;
#pragma omp master
        *alias += 1;
    }
#pragma omp parallel for reduction(+:total) lastprivate(last)
    for (int i = 0; i < n; i++) {
        total += data[i];
        last = i;
    }
    printf("n %d seen %d bumps_positive %d via_ptr %d total %ld last %d check %ld\n",
           n, seen, bumps > 0, via_ptr, total, last, sum_of(data, n));
    return 0;
}
