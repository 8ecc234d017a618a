/*
 * reduce.c — combining reduction contributions.
 *
 * The values travel inside barrier and join messages and are combined by the
 * barrier manager; nothing goes through shared pages. The manager combines in
 * rank order so a floating-point sum is the same on every run.
 */
#include <stdbool.h>
#include <string.h>

#include "ompdsm_rt.h"
#include "sync.h"

#define COMBINE_INT(T)                                                              \
  do {                                                                              \
    T *a = acc;                                                                     \
    const T *b = x;                                                                 \
    for (size_t i = 0; i < count; i++) {                                            \
      switch (op) {                                                                 \
      case OMPDSM_RED_ADD: case OMPDSM_RED_SUB: a[i] = (T)(a[i] + b[i]); break;     \
      case OMPDSM_RED_MUL: a[i] = (T)(a[i] * b[i]); break;                          \
      case OMPDSM_RED_MIN: if (b[i] < a[i]) a[i] = b[i]; break;                     \
      case OMPDSM_RED_MAX: if (b[i] > a[i]) a[i] = b[i]; break;                     \
      case OMPDSM_RED_BAND: a[i] = (T)(a[i] & b[i]); break;                         \
      case OMPDSM_RED_BOR: a[i] = (T)(a[i] | b[i]); break;                          \
      case OMPDSM_RED_BXOR: a[i] = (T)(a[i] ^ b[i]); break;                         \
      case OMPDSM_RED_LAND: a[i] = (T)(a[i] && b[i]); break;                        \
      case OMPDSM_RED_LOR: a[i] = (T)(a[i] || b[i]); break;                         \
      default: return -1;                                                           \
      }                                                                             \
    }                                                                               \
    return 0;                                                                       \
  } while (0)

/* OpenMP's '-' reduction combines partial results with '+'. */
#define COMBINE_FLOAT(T)                                                            \
  do {                                                                              \
    T *a = acc;                                                                     \
    const T *b = x;                                                                 \
    for (size_t i = 0; i < count; i++) {                                            \
      switch (op) {                                                                 \
      case OMPDSM_RED_ADD: case OMPDSM_RED_SUB: a[i] = a[i] + b[i]; break;          \
      case OMPDSM_RED_MUL: a[i] = a[i] * b[i]; break;                               \
      case OMPDSM_RED_MIN: if (b[i] < a[i]) a[i] = b[i]; break;                     \
      case OMPDSM_RED_MAX: if (b[i] > a[i]) a[i] = b[i]; break;                     \
      case OMPDSM_RED_LAND: a[i] = (T)(a[i] && b[i]); break;                        \
      case OMPDSM_RED_LOR: a[i] = (T)(a[i] || b[i]); break;                         \
      default: return -1;                                                           \
      }                                                                             \
    }                                                                               \
    return 0;                                                                       \
  } while (0)

size_t dsm__red_size(int type)
{
  switch (type) {
  case OMPDSM_T_CHAR: case OMPDSM_T_SCHAR: case OMPDSM_T_UCHAR: return 1;
  case OMPDSM_T_SHORT: case OMPDSM_T_USHORT: return sizeof(short);
  case OMPDSM_T_INT: case OMPDSM_T_UINT: return sizeof(int);
  case OMPDSM_T_LONG: case OMPDSM_T_ULONG: return sizeof(long);
  case OMPDSM_T_LLONG: case OMPDSM_T_ULLONG: return sizeof(long long);
  case OMPDSM_T_FLOAT: return sizeof(float);
  case OMPDSM_T_DOUBLE: return sizeof(double);
  case OMPDSM_T_LDOUBLE: return sizeof(long double);
  case OMPDSM_T_BOOL: return sizeof(bool);
  default: return 0;
  }
}

int dsm__red_combine(int type, int op, void *acc, const void *x, size_t count)
{
  switch (type) {
  case OMPDSM_T_CHAR: COMBINE_INT(char);
  case OMPDSM_T_SCHAR: COMBINE_INT(signed char);
  case OMPDSM_T_UCHAR: COMBINE_INT(unsigned char);
  case OMPDSM_T_SHORT: COMBINE_INT(short);
  case OMPDSM_T_USHORT: COMBINE_INT(unsigned short);
  case OMPDSM_T_INT: COMBINE_INT(int);
  case OMPDSM_T_UINT: COMBINE_INT(unsigned);
  case OMPDSM_T_LONG: COMBINE_INT(long);
  case OMPDSM_T_ULONG: COMBINE_INT(unsigned long);
  case OMPDSM_T_LLONG: COMBINE_INT(long long);
  case OMPDSM_T_ULLONG: COMBINE_INT(unsigned long long);
  case OMPDSM_T_BOOL: {
    /* On _Bool, '*' and '&' behave as '&&'; '+', '|' and '^' as shown. */
    bool *a = acc;
    const bool *b = x;
    for (size_t i = 0; i < count; i++) {
      switch (op) {
      case OMPDSM_RED_ADD: case OMPDSM_RED_SUB: case OMPDSM_RED_BOR: case OMPDSM_RED_LOR:
      case OMPDSM_RED_MAX: a[i] = a[i] || b[i]; break;
      case OMPDSM_RED_MUL: case OMPDSM_RED_BAND: case OMPDSM_RED_LAND:
      case OMPDSM_RED_MIN: a[i] = a[i] && b[i]; break;
      case OMPDSM_RED_BXOR: a[i] = a[i] != b[i]; break;
      default: return -1;
      }
    }
    return 0;
  }
  case OMPDSM_T_FLOAT: COMBINE_FLOAT(float);
  case OMPDSM_T_DOUBLE: COMBINE_FLOAT(double);
  case OMPDSM_T_LDOUBLE: COMBINE_FLOAT(long double);
  default: return -1;
  }
}
