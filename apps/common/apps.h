/* apps.h - pieces shared by every version of every application.
 *
 * Option parsing (-s small|bench, -n SIZE, -i ITERS, -r SEED, -V), a wall
 * clock, the deterministic random number generator, tolerance checks and the
 * fixed-format result line that scripts/benchmarks parse:
 *
 *     APP=<app> VERSION=<ver> PROCS=<p> N=<n> ITERS=<i> time=<seconds> s
 *
 * followed by "VERIFIED ..." or "FAILED ..." (non-zero exit). Nothing in
 * here knows about OpenMP, MPI or the DSM, so every version links the same
 * object. */
#ifndef APPS_H
#define APPS_H

#include <stdint.h>
#include <stddef.h>

struct app_opts {
    long n;          /* problem size; meaning depends on the app */
    long iters;      /* iterations / time steps (unused by some apps) */
    uint64_t seed;   /* RNG seed */
    int verify;      /* 0 with -V: skip the reference computation */
    const char *size_name;
};

/* Defaults for -s small and -s bench (small is the default). */
struct app_presets {
    long small_n, small_iters;
    long bench_n, bench_iters;
};

void app_parse(struct app_opts *o, int argc, char **argv,
               const char *app, const struct app_presets *p);
double app_now(void);   /* seconds, monotonic */

/* The result line. procs: threads or ranks taking part. */
void app_report_time(const char *app, const char *version, int procs,
                     const struct app_opts *o, double seconds);
/* Prints "VERIFIED <what>" and returns 0 when ok, else "FAILED <what>" and
 * returns 1; callers exit with the result. */
int app_verdict(int ok, const char *app, const char *what);

/* |a-b| <= tol*max(|a|,|b|,tiny): relative closeness of two checksums. */
int app_close(double a, double b, double tol);

/* NAS-style multiplicative congruential generator x' = a*x mod 2^46 with
 * a = 5^13. Arithmetic modulo 2^46 is exact in uint64_t because 2^46
 * divides 2^64. app_rng_skip jumps ahead k steps in O(log k), which lets
 * each process generate its own part of an array independently. */
struct app_rng { uint64_t x; };
void     app_rng_seed(struct app_rng *r, uint64_t seed);
void     app_rng_skip(struct app_rng *r, uint64_t k);
double   app_rng_double(struct app_rng *r);        /* in (0,1) */
uint64_t app_rng_bits(struct app_rng *r);          /* 46 random bits */

#endif
