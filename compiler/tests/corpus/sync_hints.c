/* OpenMP 5 synchronization hints: the omp_sync_hint_* constants (with the
   specification's values, printed so a wrong one differs from gcc), the
   deprecated omp_lock_hint_* names, omp_init_lock_with_hint and
   omp_init_nest_lock_with_hint as functions whose address can be taken, and
   hint() on critical and atomic. A hint changes nothing: the counts below
   are exact whatever it says. */
#include <omp.h>
#include <stdio.h>

static omp_lock_t lock;
static omp_nest_lock_t nest;

int main(void)
{
  printf("none %d uncontended %d contended %d nonspeculative %d speculative %d\n",
         omp_sync_hint_none, omp_sync_hint_uncontended, omp_sync_hint_contended,
         omp_sync_hint_nonspeculative, omp_sync_hint_speculative);
  omp_lock_hint_t old = omp_lock_hint_contended;
  printf("lock hints %d %d %d %d %d\n", omp_lock_hint_none, omp_lock_hint_uncontended, (int)old,
         omp_lock_hint_nonspeculative, omp_lock_hint_speculative);

#ifdef _OMPDSM
  void (*init)(omp_lock_t *, omp_sync_hint_t) = omp_init_lock_with_hint;
  init(&lock, omp_sync_hint_contended);
  omp_init_nest_lock_with_hint(&nest, omp_sync_hint_uncontended | omp_sync_hint_nonspeculative);
#else
  /* gcc 12's omp.h declares the _with_hint functions but its libgomp does
     not define them: the reference run initializes without a hint */
  omp_init_lock(&lock);
  omp_init_nest_lock(&nest);
#endif

  long by_lock = 0, by_nest = 0, by_critical = 0, by_atomic = 0;
#pragma omp parallel for
  for (int i = 0; i < 400; i++) {
    omp_set_lock(&lock);
    by_lock += i;
    omp_unset_lock(&lock);
    omp_set_nest_lock(&nest);
    omp_set_nest_lock(&nest);
    by_nest += 2;
    omp_unset_nest_lock(&nest);
    omp_unset_nest_lock(&nest);
#pragma omp critical (sum) hint(omp_sync_hint_contended)
    by_critical += i * 2;
#pragma omp atomic update hint(omp_sync_hint_uncontended + 0)
    by_atomic += 3;
  }
  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nest);
  printf("lock %ld nest %ld critical %ld atomic %ld\n", by_lock, by_nest, by_critical, by_atomic);
  return 0;
}
