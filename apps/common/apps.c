/* apps.c - option parsing, timing, RNG and verdict helpers (see apps.h). */
#include "apps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void usage(const char *app, int status)
{
    fprintf(status ? stderr : stdout,
            "usage: %s [-s small|bench] [-n SIZE] [-i ITERS] [-r SEED] [-V] [-h|--help]\n"
            "  -s  problem size preset (default small)\n"
            "  -n  problem size, overriding the preset's\n"
            "  -i  iterations, overriding the preset's\n"
            "  -r  random seed\n"
            "  -V  skip the reference computation (prints UNVERIFIED)\n", app);
    exit(status);
}

/* A positive number, all of the argument, or a clear error. */
static long positive(const char *app, int opt, const char *arg)
{
    char *end;
    long v = strtol(arg, &end, 0);
    if (*arg == '\0' || *end != '\0' || v <= 0) {
        fprintf(stderr, "%s: error: -%c wants a positive number, not '%s'\n", app, opt, arg);
        exit(2);
    }
    return v;
}

void app_parse(struct app_opts *o, int argc, char **argv,
               const char *app, const struct app_presets *p)
{
    long n = -1, iters = -1;
    const char *size = "small";
    int c;

    o->seed = 314159265;
    o->verify = 1;
    for (int k = 1; k < argc && strcmp(argv[k], "--") != 0; k++)
        if (strcmp(argv[k], "--help") == 0)
            usage(app, 0);
    while ((c = getopt(argc, argv, "s:n:i:r:Vh")) != -1) {
        switch (c) {
        case 's': size = optarg; break;
        case 'n': n = positive(app, c, optarg); break;
        case 'i': iters = positive(app, c, optarg); break;
        case 'r': o->seed = strtoull(optarg, NULL, 0); break;
        case 'V': o->verify = 0; break;
        case 'h': usage(app, 0); break;
        default: usage(app, 2);
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: error: unexpected argument '%s'\n", app, argv[optind]);
        usage(app, 2);
    }
    if (strcmp(size, "small") == 0) {
        o->n = p->small_n;
        o->iters = p->small_iters;
    } else if (strcmp(size, "bench") == 0) {
        o->n = p->bench_n;
        o->iters = p->bench_iters;
    } else {
        fprintf(stderr, "%s: error: -s wants small or bench, not '%s'\n", app, size);
        usage(app, 2);
    }
    o->size_name = size;
    if (n > 0)
        o->n = n;
    if (iters > 0)
        o->iters = iters;
}

double app_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void app_report_time(const char *app, const char *version, int procs,
                     const struct app_opts *o, double seconds)
{
    printf("APP=%s VERSION=%s PROCS=%d SIZE=%s N=%ld ITERS=%ld time=%.6f s\n",
           app, version, procs, o->size_name, o->n, o->iters, seconds);
    fflush(stdout);
}

int app_verdict(int ok, const char *app, const char *what)
{
    printf("%s %s: %s\n", ok ? "VERIFIED" : "FAILED", app, what);
    fflush(stdout);
    return ok ? 0 : 1;
}

int app_close(double a, double b, double tol)
{
    double scale = fmax(fmax(fabs(a), fabs(b)), 1e-300);
    if (isnan(a) || isnan(b))
        return 0;
    return fabs(a - b) <= tol * scale;
}

#define RNG_MASK ((UINT64_C(1) << 46) - 1)
#define RNG_A    UINT64_C(1220703125)          /* 5^13 */

void app_rng_seed(struct app_rng *r, uint64_t seed)
{
    /* The modulus is a power of two, so an odd state has full period. */
    r->x = ((seed & RNG_MASK) | 1);
}

void app_rng_skip(struct app_rng *r, uint64_t k)
{
    uint64_t a = RNG_A, m = 1;
    while (k) {
        if (k & 1)
            m = (m * a) & RNG_MASK;
        a = (a * a) & RNG_MASK;
        k >>= 1;
    }
    r->x = (r->x * m) & RNG_MASK;
}

uint64_t app_rng_bits(struct app_rng *r)
{
    r->x = (r->x * RNG_A) & RNG_MASK;
    return r->x;
}

double app_rng_double(struct app_rng *r)
{
    return (double)app_rng_bits(r) * (1.0 / (double)(UINT64_C(1) << 46));
}
