/*
 * Every reduction operator on every type, through __ompdsm_reduce (the entry
 * point ompdsmcc's code calls) inside real parallel regions. Each thread
 * contributes 3 elements; the master checks the shared result against a
 * sequential computation written with plain C operators, combining in rank
 * order as the runtime promises (so float results must be bit-identical).
 */
#include <stdbool.h>
#include <string.h>
#include "check.h"
#include "omp.h"
#include "ompdsm_rt.h"

/* "*" on _Bool is one of the operators under test, not a slip. */
#pragma GCC diagnostic ignored "-Wint-in-bool-context"

#define NE 3
static const int ops[] = { OMPDSM_RED_ADD, OMPDSM_RED_MUL, OMPDSM_RED_SUB, OMPDSM_RED_MIN,
                           OMPDSM_RED_MAX, OMPDSM_RED_BAND, OMPDSM_RED_BOR, OMPDSM_RED_BXOR,
                           OMPDSM_RED_LAND, OMPDSM_RED_LOR };
#define NOPS 10

static int int_value(int op, int r, int k)
{
  switch (op) {
  case OMPDSM_RED_MUL: return (r % 2) + 1 + (k == 2);
  case OMPDSM_RED_MIN: case OMPDSM_RED_MAX: return (r * 7 + k * 3) % 11 - 5 + k;
  case OMPDSM_RED_BAND: return ~(1 << ((r + k) % 6));
  case OMPDSM_RED_BOR: case OMPDSM_RED_BXOR: return 1 << ((r * 3 + k) % 6);
  case OMPDSM_RED_LAND: return (r + k) % 5 != 4;
  case OMPDSM_RED_LOR: return (r == 1 && k == 1);
  default: return r + 1 + k * 5;
  }
}

/* One test per type: T, type code, whether bitwise ops apply. */
#define DEFINE_TYPE(NAME, T, CODE, BITWISE)                                              \
  DSM_SHARED_BSS static T NAME##_shared[NOPS][NE];                                       \
  static void NAME##_body(void *unused)                                                  \
  {                                                                                      \
    int r = __ompdsm_thread_num();                                                       \
    for (int o = 0; o < NOPS; o++) {                                                     \
      if (!(BITWISE) && (ops[o] == OMPDSM_RED_BAND || ops[o] == OMPDSM_RED_BOR ||        \
                         ops[o] == OMPDSM_RED_BXOR)) continue;                           \
      T part[NE];                                                                        \
      for (int k = 0; k < NE; k++) part[k] = (T)int_value(ops[o], r, k);                 \
      __ompdsm_reduce(NAME##_shared[o], part, NE, CODE, ops[o]);                         \
    }                                                                                    \
  }                                                                                      \
  static void NAME##_check(int n)                                                        \
  {                                                                                      \
    for (int o = 0; o < NOPS; o++) {                                                     \
      int op = ops[o];                                                                   \
      if (!(BITWISE) && (op == OMPDSM_RED_BAND || op == OMPDSM_RED_BOR ||                \
                         op == OMPDSM_RED_BXOR)) continue;                               \
      for (int k = 0; k < NE; k++) {                                                     \
        T acc = (T)int_value(op, 0, k);                                                  \
        for (int r = 1; r < n; r++) {                                                    \
          T v = (T)int_value(op, r, k);                                                  \
          switch (op) {                                                                  \
          case OMPDSM_RED_ADD: case OMPDSM_RED_SUB: acc = (T)(acc + v); break;           \
          case OMPDSM_RED_MUL: acc = (T)(acc * v); break;                                \
          case OMPDSM_RED_MIN: acc = v < acc ? v : acc; break;                           \
          case OMPDSM_RED_MAX: acc = v > acc ? v : acc; break;                           \
          case OMPDSM_RED_LAND: acc = (T)(acc && v); break;                              \
          case OMPDSM_RED_LOR: acc = (T)(acc || v); break;                               \
          default: BITWISE_COMBINE(T, op, acc, v);                                       \
          }                                                                              \
        }                                                                                \
        T init = (T)(op == OMPDSM_RED_MUL ? 2 : op == OMPDSM_RED_BAND ? -1 : op == OMPDSM_RED_LAND ? 1 \
                     : op == OMPDSM_RED_MIN ? 100 : op == OMPDSM_RED_MAX ? -100 : 3);    \
        T want;                                                                          \
        switch (op) {                                                                    \
        case OMPDSM_RED_ADD: case OMPDSM_RED_SUB: want = (T)(init + acc); break;         \
        case OMPDSM_RED_MUL: want = (T)(init * acc); break;                              \
        case OMPDSM_RED_MIN: want = acc < init ? acc : init; break;                      \
        case OMPDSM_RED_MAX: want = acc > init ? acc : init; break;                      \
        case OMPDSM_RED_LAND: want = (T)(init && acc); break;                            \
        case OMPDSM_RED_LOR: want = (T)(init || acc); break;                             \
        default: want = init; BITWISE_COMBINE(T, op, want, acc);                         \
        }                                                                                \
        if (memcmp(&NAME##_shared[o][k], &want, sizeof want) != 0) {                     \
          fprintf(stderr, "reduce_all: %s op %d element %d: got %Lg, want %Lg\n", #NAME, \
                  op, k, (long double)NAME##_shared[o][k], (long double)want);           \
          exit(1);                                                                       \
        }                                                                                \
      }                                                                                  \
    }                                                                                    \
  }                                                                                      \
  static void NAME##_init(void)                                                          \
  {                                                                                      \
    for (int o = 0; o < NOPS; o++)                                                       \
      for (int k = 0; k < NE; k++) {                                                     \
        int op = ops[o];                                                                 \
        NAME##_shared[o][k] = (T)(op == OMPDSM_RED_MUL ? 2 : op == OMPDSM_RED_BAND ? -1  \
            : op == OMPDSM_RED_LAND ? 1 : op == OMPDSM_RED_MIN ? 100                     \
            : op == OMPDSM_RED_MAX ? -100 : 3);                                          \
      }                                                                                  \
  }

#define BITWISE_COMBINE_INT(T, op, a, v) do { \
    if (op == OMPDSM_RED_BAND) a = (T)(a & v); else if (op == OMPDSM_RED_BOR) a = (T)(a | v); \
    else a = (T)(a ^ v); } while (0)
#define BITWISE_COMBINE(T, op, a, v) BITWISE_COMBINE_INT(T, op, a, v)
DEFINE_TYPE(t_char, char, OMPDSM_T_CHAR, 1)
DEFINE_TYPE(t_schar, signed char, OMPDSM_T_SCHAR, 1)
DEFINE_TYPE(t_uchar, unsigned char, OMPDSM_T_UCHAR, 1)
DEFINE_TYPE(t_short, short, OMPDSM_T_SHORT, 1)
DEFINE_TYPE(t_ushort, unsigned short, OMPDSM_T_USHORT, 1)
DEFINE_TYPE(t_int, int, OMPDSM_T_INT, 1)
DEFINE_TYPE(t_uint, unsigned, OMPDSM_T_UINT, 1)
DEFINE_TYPE(t_long, long, OMPDSM_T_LONG, 1)
DEFINE_TYPE(t_ulong, unsigned long, OMPDSM_T_ULONG, 1)
DEFINE_TYPE(t_llong, long long, OMPDSM_T_LLONG, 1)
DEFINE_TYPE(t_ullong, unsigned long long, OMPDSM_T_ULLONG, 1)
#undef BITWISE_COMBINE
/* _Bool: '^' is inequality; a (T) cast of an int already normalizes. */
#define BITWISE_COMBINE(T, op, a, v) do { \
    if (op == OMPDSM_RED_BAND) a = a && v; else if (op == OMPDSM_RED_BOR) a = a || v; \
    else a = a != v; } while (0)
DEFINE_TYPE(t_bool, bool, OMPDSM_T_BOOL, 1)
#undef BITWISE_COMBINE
#define BITWISE_COMBINE(T, op, a, v) do { (void)(a); (void)(v); abort(); } while (0)
DEFINE_TYPE(t_float, float, OMPDSM_T_FLOAT, 0)
DEFINE_TYPE(t_double, double, OMPDSM_T_DOUBLE, 0)
DEFINE_TYPE(t_ldouble, long double, OMPDSM_T_LDOUBLE, 0)

#define RUN(NAME) do { NAME##_init(); __ompdsm_parallel(NAME##_body, NULL, 0, 0, 1); \
    NAME##_check(n); } while (0)

static int real_main(int argc, char **argv)
{
  int n = omp_get_max_threads();     /* every thread of the job */
  RUN(t_char); RUN(t_schar); RUN(t_uchar); RUN(t_short); RUN(t_ushort);
  RUN(t_int); RUN(t_uint); RUN(t_long); RUN(t_ulong); RUN(t_llong); RUN(t_ullong);
  RUN(t_bool); RUN(t_float); RUN(t_double); RUN(t_ldouble);
  printf("reduce_all: 10 operators x 15 types on %d threads: OK\n", n);
  return 0;
}

int main(int argc, char **argv)
{
  __ompdsm_main(real_main, argc, argv);
}
