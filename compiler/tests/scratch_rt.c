/* SCRATCH: throwaway pthread implementation of ompdsm_rt.h for local
 * debugging of ompdsmcc before libdsm exists. Not a test; delete before
 * reporting. */
#include "../../include/ompdsm_rt.h"
#include "../../include/omp.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>

#define MAXT 16
static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t bigc = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t bar;
static int nthreads = 1, in_par = 0, nthreads_default = 0;
static __thread int me = 0, seq = 0;
typedef struct { int seq; int64_t next; int64_t count, chunk; int sched; int done; char buf[4096]; int64_t ordered; } Slot;
static Slot slots[64];
static __thread int64_t my_count, my_chunk; static __thread int my_sched; static __thread Slot *my_slot;

static __thread unsigned nsec;
static __thread int nested; static __thread Slot nslots[64];
static Slot *slot_get(void) {
  int s = ++seq;
  if (nested) { Slot *q = &nslots[s % 64]; memset(q, 0, sizeof *q); q->seq = s; return q; } Slot *sl = &slots[s % 64];
  pthread_mutex_lock(&big);
  if (sl->seq != s) { memset(sl, 0, sizeof *sl); sl->seq = s; }
  pthread_mutex_unlock(&big);
  return sl;
}
void __ompdsm_main(int (*um)(int, char **), int argc, char **argv) { exit(um(argc, argv)); }
typedef struct { void (*fn)(void *); void *data; int id; } Arg;
static void *tstart(void *p) { Arg *a = p; me = a->id; seq = 0; a->fn(a->data); return NULL; }
void __ompdsm_parallel(void (*fn)(void *), void *data, size_t size, unsigned nt, int ifc) {
  (void)size;
  if (in_par) { int sm = me, ss = seq; Slot *sl = my_slot; unsigned sn = nsec; int64_t c1 = my_count, c2 = my_chunk; int sk0 = my_sched; nested++; me = 0; fn(data); nested--; me = sm; seq = ss; my_slot = sl; nsec = sn; my_count = c1; my_chunk = c2; my_sched = sk0; return; }
  int n = nt ? (int)nt : nthreads_default ? nthreads_default : (getenv("OMP_NUM_THREADS") ? atoi(getenv("OMP_NUM_THREADS")) : 4);
  if (!ifc) n = 1;
  if (n > MAXT) n = MAXT;
  nthreads = n; in_par = 1; memset(slots, 0, sizeof slots);
  pthread_barrier_init(&bar, NULL, (unsigned)n);
  pthread_t th[MAXT]; Arg args[MAXT];
  for (int i = 1; i < n; i++) { args[i].fn = fn; args[i].data = data; args[i].id = i; pthread_create(&th[i], NULL, tstart, &args[i]); }
  seq = 0; me = 0; fn(data);
  for (int i = 1; i < n; i++) pthread_join(th[i], NULL);
  pthread_barrier_destroy(&bar);
  nthreads = 1; in_par = 0; seq = 0;
}
int __ompdsm_thread_num(void) { return in_par && !nested ? me : 0; }
int __ompdsm_num_threads(void) { return in_par && !nested ? nthreads : 1; }
void __ompdsm_barrier(void) { if (in_par && !nested && nthreads > 1) pthread_barrier_wait(&bar); }
int __ompdsm_static_chunk(int64_t count, int64_t chunk, int64_t k, int64_t *lo, int64_t *hi) {
  int n = __ompdsm_num_threads(), t = __ompdsm_thread_num();
  if (chunk <= 0) { if (k) return 0; int64_t q = count / n, r = count % n; *lo = t * q + (t < r ? t : r); *hi = *lo + q + (t < r); return *lo < *hi || 0; }
  int64_t start = (k * n + t) * chunk; if (start >= count) return 0;
  *lo = start; *hi = start + chunk < count ? start + chunk : count; return 1;
}
void __ompdsm_loop_start(int sched, int64_t count, int64_t chunk) { my_slot = slot_get(); my_count = count; my_chunk = chunk > 0 ? chunk : 1; my_sched = sched; }
int __ompdsm_loop_next(int64_t *lo, int64_t *hi) {
  pthread_mutex_lock(&big);
  int64_t c = my_chunk;
  if (my_sched == OMPDSM_SCHED_GUIDED) { int64_t rem = my_count - my_slot->next; int64_t g = rem / (2 * __ompdsm_num_threads()); if (g > c) c = g; }
  *lo = my_slot->next; *hi = *lo + c; if (*hi > my_count) *hi = my_count; my_slot->next = *hi;
  pthread_mutex_unlock(&big);
  return *lo < *hi;
}
void __ompdsm_loop_end(int nowait) { if (!nowait) __ompdsm_barrier(); }
static __thread Slot *ord_slot;
void __ompdsm_ordered_start(int64_t i) {
  (void)i; /* scratch: per-construct slot found lazily */
  pthread_mutex_lock(&big);
  if (!ord_slot || ord_slot->seq != seq) ord_slot = &slots[seq % 64];
  while (ord_slot->ordered != i) pthread_cond_wait(&bigc, &big);
  pthread_mutex_unlock(&big);
}
void __ompdsm_ordered_end(int64_t i) { pthread_mutex_lock(&big); ord_slot->ordered = i + 1; pthread_cond_broadcast(&bigc); pthread_mutex_unlock(&big); }
void __ompdsm_sections_start(unsigned n) { my_slot = slot_get(); nsec = n; }
int __ompdsm_sections_next(void) { pthread_mutex_lock(&big); int r = my_slot->next < nsec ? (int)my_slot->next++ : -1; pthread_mutex_unlock(&big); return r; }
int __ompdsm_single_start(void) { Slot *s = slot_get(); pthread_mutex_lock(&big); int r = !s->done; s->done = 1; pthread_mutex_unlock(&big); my_slot = s; return r; }
void __ompdsm_copyprivate(void *buf, size_t size, int ex) {
  if (ex) memcpy(my_slot->buf, buf, size);
  __ompdsm_barrier(); if (!ex) memcpy(buf, my_slot->buf, size); __ompdsm_barrier();
}
static pthread_mutex_t crit = PTHREAD_MUTEX_INITIALIZER, atom = PTHREAD_MUTEX_INITIALIZER;
void __ompdsm_critical_start(const char *n) { (void)n; pthread_mutex_lock(&crit); }
void __ompdsm_critical_end(const char *n) { (void)n; pthread_mutex_unlock(&crit); }
void __ompdsm_atomic_start(void) { pthread_mutex_lock(&atom); }
void __ompdsm_atomic_end(void) { pthread_mutex_unlock(&atom); }
void __ompdsm_flush(void) { __sync_synchronize(); }
static int semv[256];
static unsigned h(const char *n, int64_t i) { unsigned x = 5381; while (*n) x = x * 33 + (unsigned char)*n++; return (x + (unsigned)i) % 256; }
void __ompdsm_sema_init(const char *n, int64_t i, int v) { pthread_mutex_lock(&big); semv[h(n, i)] = v; pthread_mutex_unlock(&big); }
void __ompdsm_sema_wait(const char *n, int64_t i) { pthread_mutex_lock(&big); while (semv[h(n, i)] <= 0) pthread_cond_wait(&bigc, &big); semv[h(n, i)]--; pthread_mutex_unlock(&big); }
void __ompdsm_sema_signal(const char *n, int64_t i) { pthread_mutex_lock(&big); semv[h(n, i)]++; pthread_cond_broadcast(&bigc); pthread_mutex_unlock(&big); }
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
void __ompdsm_cond_wait(const char *n, int64_t i, const char *l) { (void)n; (void)i; (void)l; pthread_cond_wait(&cv, &crit); }
void __ompdsm_cond_signal(const char *n, int64_t i, const char *l) { (void)n; (void)i; (void)l; pthread_cond_broadcast(&cv); }
void __ompdsm_cond_broadcast(const char *n, int64_t i, const char *l) { (void)n; (void)i; (void)l; pthread_cond_broadcast(&cv); }
#define RED(T) { T *s = shared; const T *p = partial; for (size_t k = 0; k < count; k++) switch (op) { \
  case OMPDSM_RED_ADD: case OMPDSM_RED_SUB: s[k] += p[k]; break; case OMPDSM_RED_MUL: s[k] *= p[k]; break; \
  case OMPDSM_RED_MIN: if (p[k] < s[k]) s[k] = p[k]; break; case OMPDSM_RED_MAX: if (p[k] > s[k]) s[k] = p[k]; break; \
  case OMPDSM_RED_LAND: s[k] = s[k] && p[k]; break; case OMPDSM_RED_LOR: s[k] = s[k] || p[k]; break; default: IOPS } } break;
void __ompdsm_reduce(void *shared, const void *partial, size_t count, int type, int op) {
  __ompdsm_barrier();
  pthread_mutex_lock(&big);
  switch (type) {
#define IOPS if (op == OMPDSM_RED_BAND) s[k] &= p[k]; else if (op == OMPDSM_RED_BOR) s[k] |= p[k]; else s[k] ^= p[k];
  case OMPDSM_T_INT: RED(int) case OMPDSM_T_UINT: RED(unsigned) case OMPDSM_T_LONG: RED(long) case OMPDSM_T_ULONG: RED(unsigned long)
  case OMPDSM_T_LLONG: RED(long long) case OMPDSM_T_ULLONG: RED(unsigned long long) case OMPDSM_T_CHAR: RED(char) case OMPDSM_T_SHORT: RED(short)
  case OMPDSM_T_BOOL: RED(_Bool) case OMPDSM_T_UCHAR: RED(unsigned char) case OMPDSM_T_SCHAR: RED(signed char) case OMPDSM_T_USHORT: RED(unsigned short)
#undef IOPS
#define IOPS ;
  case OMPDSM_T_FLOAT: RED(float) case OMPDSM_T_DOUBLE: RED(double) case OMPDSM_T_LDOUBLE: RED(long double)
  }
  pthread_mutex_unlock(&big);
  __ompdsm_barrier();
}
void *__ompdsm_malloc(size_t s) { return malloc(s); }
void *__ompdsm_calloc(size_t n, size_t s) { return calloc(n, s); }
void *__ompdsm_realloc(void *p, size_t s) { return realloc(p, s); }
void __ompdsm_free(void *p) { free(p); }
char *__ompdsm_strdup(const char *s) { return strdup(s); }
int omp_get_thread_num(void) { return __ompdsm_thread_num(); }
int omp_get_num_threads(void) { return __ompdsm_num_threads(); }
int omp_get_max_threads(void) { return nthreads_default ? nthreads_default : 4; }
void omp_set_num_threads(int n) { nthreads_default = n; }
int omp_get_num_procs(void) { return 2; }
int omp_in_parallel(void) { return in_par && nthreads > 1; }
double omp_get_wtime(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
double omp_get_wtick(void) { return 1e-9; }
void omp_init_lock(omp_lock_t *l) { l->id = 0; }
void omp_destroy_lock(omp_lock_t *l) { (void)l; }
void omp_set_lock(omp_lock_t *l) { (void)l; pthread_mutex_lock(&crit); }
void omp_unset_lock(omp_lock_t *l) { (void)l; pthread_mutex_unlock(&crit); }
int omp_test_lock(omp_lock_t *l) { (void)l; return pthread_mutex_trylock(&crit) == 0; }
void omp_set_dynamic(int d) { (void)d; }
int omp_get_dynamic(void) { return 0; }
static omp_sched_t sk = omp_sched_static; static int sc;
void omp_set_schedule(omp_sched_t k, int c) { sk = k; sc = c; }
void omp_get_schedule(omp_sched_t *k, int *c) { *k = sk; *c = sc; }
