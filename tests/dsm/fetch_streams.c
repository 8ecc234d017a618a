/*
 * Page fetches follow streams of faults (dsm/fetch.c): the master fills
 * 4 MiB; another process reads it forward, then (a second array) backward,
 * then (a third) from both ends toward the middle at once, as a partition
 * does. Each walk must take a few dozen PAGE requests (runs that double up
 * to DSM_PREFETCH pages), not one per page, and every word must be right.
 * Then strided walks, as a transpose reads a column of a row-major array:
 * a fourth array is read down its columns (one word of every row of 16
 * pages, then the next column), a fifth up its columns; each column must
 * take a few strided runs, not a request per row. A last pass reads every
 * other row only (a stride with gaps the walk never touches): the rows in
 * the gaps must not be made readable.
 *
 * Every array is cold here (never held by the reader), so each stream
 * starts with a full run whose other pages are installed inaccessible
 * (fetch_held) until touched (fetch_held_used): a forward walk takes one
 * request per 64 pages and touches all it held; a column walk or the walk
 * with gaps leaves at most one run (63 pages) held and untouched
 * (cold_run.c follows held pages through writes).
 */
#include <stdint.h>
#include "check.h"

#define WORDS (4u << 20) / sizeof(uint64_t)
#define PAGES ((4u << 20) / 4096)

static uint64_t value(int k, size_t i) { return (i + 1) * 0x9e3779b97f4a7c15ull + (uint64_t)k; }

static int64_t requests(void) { return dsm_stat("msgs_sent.PAGE"); }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  static uint64_t *a[6];
  if (dsm_proc_id() == 0) {
    for (int k = 0; k < 6; k++) {
      a[k] = dsm_malloc(WORDS * sizeof(uint64_t));
      for (size_t i = 0; i < WORDS; i++)
        a[k][i] = value(k, i);
    }
    dsm_distribute(a, sizeof a);
  }
  dsm_barrier(0);
  if (dsm_proc_id() == 1) {
    int64_t r0 = requests(), h0 = dsm_stat("fetch_held"), u0 = dsm_stat("fetch_held_used");
    for (size_t i = 0; i < WORDS; i++)
      CHECK(a[0][i] == value(0, i));
    int64_t fwd = requests() - r0;
    int64_t held = dsm_stat("fetch_held") - h0, used = dsm_stat("fetch_held_used") - u0;
    r0 = requests();
    for (size_t i = WORDS; i-- > 0;)
      CHECK(a[1][i] == value(1, i));
    int64_t back = requests() - r0;
    r0 = requests();
    for (size_t lo = 0, hi = WORDS - 1; lo < hi; lo++, hi--) {
      CHECK(a[2][lo] == value(2, lo));
      CHECK(a[2][hi] == value(2, hi));
    }
    int64_t both = requests() - r0;
    printf("fetch_streams: %u pages each: forward %lld, backward %lld, from both ends %lld requests\n",
           PAGES, (long long)fwd, (long long)back, (long long)both);
    printf("fetch_streams: forward: %lld pages held in a cold run, %lld of them touched\n",
           (long long)held, (long long)used);
    CHECK(fwd <= PAGES / 64 + 1);        /* full runs from the first fault on */
    CHECK(held >= 63 && used >= held - 63);   /* the run's overshoot past the array at most */
    CHECK(back <= PAGES / 16);
    CHECK(both <= PAGES / 8);

    /* Rows of ROW words (16 pages); column c is word c of every row. */
    enum { ROW = 16 * 4096 / 8, ROWS = WORDS / ROW };
    r0 = requests();
    for (size_t c = 0; c < 4; c++)
      for (size_t row = 0; row < ROWS; row++)
        CHECK(a[3][row * ROW + c] == value(3, row * ROW + c));
    int64_t down = requests() - r0;
    r0 = requests();
    for (size_t c = 0; c < 4; c++)
      for (size_t row = ROWS; row-- > 0;)
        CHECK(a[4][row * ROW + c] == value(4, row * ROW + c));
    int64_t up = requests() - r0;
    int64_t f0 = dsm_stat("pages_fetched");
    h0 = dsm_stat("fetch_held");
    u0 = dsm_stat("fetch_held_used");
    r0 = requests();
    for (size_t row = 0; row < ROWS; row += 2)
      CHECK(a[5][row * ROW] == value(5, row * ROW));
    /* Pages made readable: fetched readable, or held (here or by an
     * earlier run that went on into this array) and touched. */
    held = dsm_stat("fetch_held") - h0;
    used = dsm_stat("fetch_held_used") - u0;
    int64_t gaps = requests() - r0, gap_pages = dsm_stat("pages_fetched") - f0 - held + used;
    printf("fetch_streams: %u rows of 16 pages: down the columns %lld, up %lld requests; every "
           "other row: %lld requests for %lld pages\n", (unsigned)ROWS, (long long)down,
           (long long)up, (long long)gaps, (long long)gap_pages);
    /* 64 rows: runs of 2, 4, 8, 16, 32 after two single faults per column. */
    CHECK(down <= 8);
    CHECK(up <= 8);
    CHECK(gaps <= 8);
    CHECK(gap_pages == ROWS / 2);
    CHECK(held - used <= 63);            /* one cold run untouched at most */
  }
  dsm_barrier(1);
  dsm_exit(0);
}
