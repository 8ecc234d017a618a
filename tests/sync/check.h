/*
 * check.h — assertions for DSM test programs. They print the rank, the
 * expression and both values, and are never compiled out.
 */
#ifndef DSM_TEST_CHECK_H
#define DSM_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include "dsm.h"

#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "rank %u: %s:%d: CHECK failed: %s\n", \
    dsm_proc_id(), __FILE__, __LINE__, #cond); exit(1); } } while (0)
#define CHECK_EQ(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); if (a_ != b_) { \
    fprintf(stderr, "rank %u: %s:%d: CHECK_EQ failed: %s == %lld, %s == %lld\n", dsm_proc_id(), \
    __FILE__, __LINE__, #a, a_, #b, b_); exit(1); } } while (0)

#endif
