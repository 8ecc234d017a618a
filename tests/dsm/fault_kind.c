/*
 * The fault handler knows a write from a read (dsm/fault.c, x86-64): a
 * write to a page this process holds no copy of is fetched and opened for
 * writing in one fault, where a read first and a write later take two.
 * Every value is read back by everyone; elsewhere than x86-64 only the
 * values are checked.
 */
#include "check.h"

#define WORDS 512

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs(), w = np - 1;
  CHECK(np >= 2);
  static long *a;
  if (me == 0) {
    a = dsm_malloc(8 * 4096);
    for (long i = 0; i < 8 * WORDS; i++)
      a[i] = i;
    dsm_distribute(&a, sizeof a);
  }
  dsm_barrier(0);
  if (me == w) {
    /* Page 0: written first, never read here before. */
    int64_t sig = dsm_stat("fault_signals"), rf = dsm_stat("read_faults"),
            wf = dsm_stat("write_faults");
    a[5] = -5;
    CHECK_EQ(dsm_stat("read_faults") - rf, 1);
    CHECK_EQ(dsm_stat("write_faults") - wf, 1);
#if defined(__x86_64__)
    CHECK_EQ(dsm_stat("fault_signals") - sig, 1);
#endif
    CHECK_EQ(a[4], 4);       /* the rest of the page came with it */
    CHECK_EQ(a[6], 6);
    /* Page 4: read first, then written: two faults. */
    sig = dsm_stat("fault_signals");
    CHECK_EQ(a[4 * WORDS + 1], 4 * WORDS + 1);
    a[4 * WORDS + 2] = -2;
    CHECK_EQ(dsm_stat("fault_signals") - sig, 2);
  }
  dsm_barrier(1);
  for (long i = 0; i < 8 * WORDS; i++)
    CHECK_EQ(a[i], i == 5 ? -5 : i == 4 * WORDS + 2 ? -2 : i);
  dsm_barrier(2);
  if (me == 0)
    printf("fault_kind: OK\n");
  dsm_exit(0);
}
