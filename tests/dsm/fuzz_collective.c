/*
 * fuzz_collective.c — the decoders of a collective's arrival part and
 * departure part (dsm/msg/coll_msg.c) in one process, without a job.
 *
 * Three parts, as fuzz_page_msg.c:
 *   1. round trips: random valid parts, built with the encoders, must
 *      decode to what was put in (the pages of every run, the rides'
 *      bytes), and a departure must stop where it ends (a FORK may follow);
 *   2. known malformed parts, each of which must be refused;
 *   3. mutations, each in a buffer of exactly its length (AddressSanitizer
 *      catches a read past the end). Whatever a decoder accepts must be
 *      what collective.c relies on: every rank and page in range, every
 *      list and ride inside the message.
 *
 *   fuzz_collective [iterations] [seed]
 */
#define FUZZ_NAME "fuzz_collective"
#include "fuzz.h"
#include "coll_msg.h"

enum { NPROCS = 5, NPAGES = 1000, KNOWN = 40 };
#define TRAILER 0xf0e4u        /* what follows a departure: a FORK, say */

/* Random pages, each once, in increasing order; in clusters, so that the
 * runs are longer than one page now and then. Returns their number. */
static size_t random_pages(uint32_t *pages, size_t max)
{
  size_t n = 0;
  uint32_t pg = (uint32_t)(next() % 50);
  while (n < max && pg < NPAGES && next() % 8) {
    pages[n++] = pg;
    pg += next() % 3 ? 1 : 2 + (uint32_t)(next() % 100);
  }
  return n;
}

/* The pages of decoded runs (first, count[, word]), each with its word,
 * into out[]; 0 when they hold more than max. */
static size_t expand(const uint8_t *runs, uint32_t nruns, unsigned words, dsm__coll_page_t *out,
                     size_t max)
{
  size_t n = 0;
  for (uint32_t i = 0; i < nruns; i++) {
    uint32_t e[3] = { 0, 0, 0 };
    dsm__coll_entry(runs, i, words, e);
    for (uint32_t k = 0; k < e[1]; k++) {
      if (n == max)
        return 0;
      out[n++] = (dsm__coll_page_t){ e[0] + k, e[2] };
    }
  }
  return n;
}

/* How many runs of one word sorted pages make. */
static uint32_t runs_of(const dsm__coll_page_t *p, size_t n)
{
  uint32_t runs = 0;
  for (size_t i = 0; i < n; i++)
    runs += !i || p[i].pg != p[i - 1].pg + 1 || p[i].word != p[i - 1].word;
  return runs;
}

static uint8_t ride_bytes[256];

static void random_ride(dsm__buf_t *b, uint32_t *len)
{
  *len = next() % 3 ? 0 : (uint32_t)(next() % sizeof ride_bytes);
  for (uint32_t i = 0; i < *len; i++)
    ride_bytes[i] = (uint8_t)next();
  dsm__coll_ride_put(b, *len ? ride_bytes : NULL, *len);
}

/* ---- arrivals ---- */

struct arrival_spec {
  uint32_t first, last, ride_len;
  dsm__coll_told_t told[NPROCS];
  uint32_t took[NPAGES];
  dsm__coll_page_t gifts[NPAGES];
  dsm__coll_arrive_in_t in;
};

static void random_arrival(struct arrival_spec *s, dsm__buf_t *b)
{
  s->in = (dsm__coll_arrive_in_t){ .told = s->told, .took = s->took, .gifts = s->gifts };
  s->in.last = (uint32_t)(next() % (KNOWN + 1));
  s->in.first = (uint32_t)(next() % (s->in.last + 2));
  for (uint32_t q = 0; q < NPROCS; q++)
    if (next() % 2)
      s->told[s->in.ntold++] = (dsm__coll_told_t){ 0, q, (uint32_t)next() };
  s->in.ntook = random_pages(s->took, NPAGES);
  uint32_t pages[NPAGES], gen = 1;
  s->in.ngifts = random_pages(pages, NPAGES);
  for (size_t i = 0; i < s->in.ngifts; i++) {
    if (next() % 4 == 0)
      gen = 1 + (uint32_t)(next() % UINT16_MAX);
    s->gifts[i] = (dsm__coll_page_t){ pages[i], gen };
  }
  dsm__coll_arrive_put(b, &s->in);
  random_ride(b, &s->ride_len);
}

static void check_ride(const dsm__coll_ride_t *ride, const uint8_t *msg, size_t len)
{
  CHECK(inside(ride->push, ride->len, msg, len), "a ride outside the message");
}

/* What collective.c relies on in an accepted arrival. */
static void check_arrival(const dsm__coll_arrival_t *a, const uint8_t *msg, size_t len)
{
  CHECK(a->last <= KNOWN, "accepted intervals up to %u of %u held", a->last, KNOWN);
  CHECK(a->ntold <= NPROCS, "accepted %u push counts", a->ntold);
  CHECK(inside(a->told, 8 * (size_t)a->ntold, msg, len) &&
        inside(a->took, 8 * (size_t)a->ntook, msg, len) &&
        inside(a->gifts, 12 * (size_t)a->ngifts, msg, len), "a list outside the message");
  for (uint32_t i = 0; i < a->ntold && a->ntold <= NPROCS; i++) {
    uint32_t e[2];
    dsm__coll_entry(a->told, i, 2, e);
    CHECK(e[0] < NPROCS, "accepted a count for rank %u", e[0]);
  }
  for (uint32_t i = 0; i < a->ntook && a->ntook <= NPAGES; i++) {
    uint32_t e[2];
    dsm__coll_entry(a->took, i, 2, e);
    CHECK(e[0] < NPAGES && e[1] <= NPAGES - e[0], "accepted a run of %u at %u", e[1], e[0]);
  }
  for (uint32_t i = 0; i < a->ngifts && a->ngifts <= NPAGES; i++) {
    uint32_t e[3];
    dsm__coll_entry(a->gifts, i, 3, e);
    CHECK(e[0] < NPAGES && e[1] <= NPAGES - e[0], "accepted a gift of %u at %u", e[1], e[0]);
    CHECK(e[2] >= 1 && e[2] <= UINT16_MAX, "accepted gift generation %u", e[2]);
  }
  check_ride(&a->ride, msg, len);
}

static void round_trip_arrival(void)
{
  static struct arrival_spec s;
  dsm__buf_t b = { 0 };
  random_arrival(&s, &b);
  dsm__coll_arrival_t a;
  int ok = dsm__coll_arrival_read(&a, b.p, b.len, NPROCS, NPAGES, KNOWN);
  CHECK(ok, "a valid arrival refused");
  if (ok) {
    CHECK(a.first == s.in.first && a.last == s.in.last, "the intervals changed");
    CHECK(a.ntold == s.in.ntold, "%u push counts, not %zu", a.ntold, s.in.ntold);
    for (uint32_t i = 0; i < a.ntold && i < s.in.ntold; i++) {
      uint32_t e[2];
      dsm__coll_entry(a.told, i, 2, e);
      CHECK(e[0] == s.told[i].reader && e[1] == s.told[i].sent, "push count %u changed", i);
    }
    static dsm__coll_page_t got[NPAGES], want[NPAGES];
    size_t n = expand(a.took, a.ntook, 2, got, NPAGES);
    for (size_t i = 0; i < s.in.ntook; i++)
      want[i] = (dsm__coll_page_t){ s.took[i], 0 };
    CHECK(n == s.in.ntook && !memcmp(got, want, n * sizeof *got), "the pages taken changed");
    CHECK(a.ntook == runs_of(want, s.in.ntook), "%u runs of pages taken, not the fewest",
          a.ntook);
    n = expand(a.gifts, a.ngifts, 3, got, NPAGES);
    CHECK(n == s.in.ngifts && !memcmp(got, s.gifts, n * sizeof *got), "the gifts changed");
    CHECK(a.ngifts == runs_of(s.gifts, s.in.ngifts), "%u runs of gifts, not the fewest",
          a.ngifts);
    CHECK(a.ride.len == s.ride_len && !memcmp(a.ride.push, ride_bytes, s.ride_len),
          "the ride changed");
    check_arrival(&a, b.p, b.len);
  }
  dsm__buf_free(&b);
}

/* ---- departures ---- */

struct depart_spec {
  uint32_t ride_len, known[NPROCS];
  dsm__coll_told_t told[NPROCS * NPROCS];
  dsm__coll_page_t gifts[NPAGES], writers[NPAGES];
  dsm__coll_depart_in_t in;
  size_t end;                    /* where the departure part ends */
};

/* Pages each once, in any order, each with a rank (| CLEAN: clean). */
static size_t random_owned(dsm__coll_page_t *out, int clean)
{
  uint32_t pages[NPAGES];
  size_t n = random_pages(pages, NPAGES);
  uint32_t w = 0;
  for (size_t i = 0; i < n; i++) {
    if (next() % 4 == 0)
      w = (uint32_t)(next() % NPROCS) | (clean && next() % 2 ? DSM__COLL_CLEAN : 0);
    out[i] = (dsm__coll_page_t){ pages[i], w };
  }
  for (size_t i = n; i > 1; i--) {    /* shuffled: the encoder sorts them */
    size_t j = (size_t)(next() % i);
    dsm__coll_page_t t = out[i - 1];
    out[i - 1] = out[j];
    out[j] = t;
  }
  return n;
}

/* A member's copy: its ride, the part, then TRAILER. */
static void random_depart(struct depart_spec *s, dsm__buf_t *b)
{
  s->in = (dsm__coll_depart_in_t){ .told = s->told, .known = s->known, .nprocs = NPROCS,
                                   .gifts = s->gifts, .writers = s->writers };
  s->in.ntold = (size_t)(next() % (NPROCS * NPROCS + 1));
  for (size_t i = 0; i < s->in.ntold; i++)
    s->told[i] = (dsm__coll_told_t){ (uint32_t)(next() % NPROCS), (uint32_t)(next() % NPROCS),
                                     (uint32_t)next() };
  s->in.flags = (uint32_t)(next() % 4);
  for (unsigned q = 0; q < NPROCS; q++)
    s->known[q] = (uint32_t)next();
  if (s->in.flags & DSM__COLL_FULL) {
    s->in.ngifts = random_owned(s->gifts, 0);
    s->in.nwriters = random_owned(s->writers, 1);
  }
  random_ride(b, &s->ride_len);
  dsm__coll_depart_put(b, &s->in);
  s->end = b->len;
  dsm__buf_u32(b, TRAILER);
}

static void check_depart(const dsm__coll_depart_t *d, const uint8_t *msg, size_t len)
{
  CHECK(!(d->flags & ~DSM__COLL_FLAGS), "accepted flags %#x", d->flags);
  CHECK(d->ntold <= NPROCS * NPROCS, "accepted %u push counts", d->ntold);
  CHECK(!(d->flags & DSM__COLL_RECORDS) || inside(d->known, 4 * NPROCS, msg, len),
        "the known vector outside the message");
  CHECK((d->flags & DSM__COLL_FULL) || (!d->ngifts && !d->nruns),
        "accepted moves in a collective of part of the job");
  CHECK(inside(d->told, 12 * (size_t)d->ntold, msg, len) &&
        inside(d->gifts, 12 * (size_t)d->ngifts, msg, len) &&
        inside(d->runs, 12 * (size_t)d->nruns, msg, len), "a list outside the message");
  for (uint32_t i = 0; i < d->ntold && d->ntold <= NPROCS * NPROCS; i++) {
    uint32_t e[3];
    dsm__coll_entry(d->told, i, 3, e);
    CHECK(e[0] < NPROCS && e[1] < NPROCS, "accepted a count from %u to %u", e[0], e[1]);
  }
  for (int list = 0; list < 2; list++) {
    const uint8_t *runs = list ? d->runs : d->gifts;
    uint32_t n = list ? d->nruns : d->ngifts, mask = list ? ~DSM__COLL_CLEAN : ~0u;
    for (uint32_t i = 0; i < n && n <= NPAGES; i++) {
      uint32_t e[3];
      dsm__coll_entry(runs, i, 3, e);
      CHECK(e[0] < NPAGES && e[1] <= NPAGES - e[0], "accepted a run of %u at %u", e[1], e[0]);
      CHECK((e[2] & mask) < NPROCS, "accepted a move to rank %u", e[2] & mask);
    }
  }
}

static int by_page(const void *a, const void *b)
{
  const dsm__coll_page_t *x = a, *y = b;
  return x->pg < y->pg ? -1 : x->pg > y->pg;
}

/* Decoded runs hold exactly pages p[n] (any order) with their words. */
static int same_pages(const uint8_t *runs, uint32_t nruns, dsm__coll_page_t *p, size_t n)
{
  static dsm__coll_page_t got[NPAGES];
  qsort(p, n, sizeof *p, by_page);
  return expand(runs, nruns, 3, got, NPAGES) == n && !memcmp(got, p, n * sizeof *p) &&
         nruns == runs_of(p, n);
}

static void round_trip_depart(void)
{
  static struct depart_spec s;
  dsm__buf_t b = { 0 };
  random_depart(&s, &b);
  dsm__rd_t r = dsm__rd(b.p, b.len);
  dsm__coll_ride_t ride;
  dsm__coll_depart_t d;
  int ok = dsm__coll_ride_read(&ride, &r) && dsm__coll_depart_read(&d, &r, NPROCS, NPAGES);
  CHECK(ok, "a valid departure refused (flags %u)", s.in.flags);
  if (!ok)
    goto out;
  CHECK(r.off == s.end && dsm__rd_u32(&r) == TRAILER, "the departure does not end where it did");
  CHECK(ride.len == s.ride_len && !memcmp(ride.push, ride_bytes, s.ride_len), "the ride changed");
  CHECK(d.flags == s.in.flags, "flags %u, not %u", d.flags, s.in.flags);
  CHECK(d.ntold == s.in.ntold, "%u push counts, not %zu", d.ntold, s.in.ntold);
  for (uint32_t i = 0; i < d.ntold && i < s.in.ntold; i++) {
    uint32_t e[3];
    dsm__coll_entry(d.told, i, 3, e);
    CHECK(e[0] == s.told[i].home && e[1] == s.told[i].reader && e[2] == s.told[i].sent,
          "push count %u changed", i);
  }
  CHECK(!(d.flags & DSM__COLL_RECORDS) == !d.known, "the known vector %s",
        d.known ? "invented" : "missing");
  CHECK(!d.known || !memcmp(d.known, s.known, sizeof s.known), "the known vector changed");
  CHECK(same_pages(d.gifts, d.ngifts, s.gifts, s.in.ngifts), "the gifts changed");
  CHECK(same_pages(d.runs, d.nruns, s.writers, s.in.nwriters), "the writers changed");
  check_depart(&d, b.p, b.len);
out:
  dsm__buf_free(&b);
}

/* ---- malformed parts that must be refused ---- */

static int arrival_ok(const uint32_t *m, size_t words)
{
  dsm__coll_arrival_t a;
  return dsm__coll_arrival_read(&a, m, words * 4, NPROCS, NPAGES, KNOWN);
}

static void known_bad_arrivals(void)
{
  /* first last | ntold reader sent | ntook first count | ngifts first count gen | ride */
  const uint32_t good[] = { 3, 7, 1, 4, 9, 1, 10, 5, 1, 20, 2, 6, 8, 0xab, 0xcd };
  enum { LAST = 1, NTOLD, READER, NTOOK = 5, TFIRST, TCOUNT, NGIFTS, GFIRST, GCOUNT, GEN, RLEN };
  const size_t w = sizeof good / 4;
  uint32_t m[32];
#define BAD(at, v, why) do { memcpy(m, good, sizeof good); m[at] = (v); \
                             CHECK(!arrival_ok(m, w), why " accepted"); } while (0)
  memcpy(m, good, sizeof good);
  CHECK(arrival_ok(m, w), "the base arrival is refused");
  CHECK(!arrival_ok(m, w - 1), "a cut arrival accepted");
  m[w] = 0;
  CHECK(!arrival_ok(m, w + 1), "bytes left over accepted");
  BAD(LAST, KNOWN + 1, "intervals past the ones held");
  BAD(NTOLD, NPROCS + 1, "more push counts than ranks");
  BAD(READER, NPROCS, "a count for a rank past the job");
  BAD(NTOOK, NPAGES + 1, "more runs taken than pages");
  BAD(TFIRST, NPAGES, "a run taken past the end");
  BAD(TCOUNT, NPAGES - 10 + 1, "a run taken that leaves the pages");
  BAD(NGIFTS, NPAGES + 1, "more gifts than pages");
  BAD(GFIRST, NPAGES, "a gift past the end");
  BAD(GCOUNT, NPAGES - 20 + 1, "a gift that leaves the pages");
  BAD(GEN, 0, "a gift of generation 0");
  BAD(GEN, UINT16_MAX + 1, "a gift generation over 16 bits");
  BAD(RLEN, 9, "a ride longer than the message");
  BAD(RLEN, 4, "a ride shorter than the message");
  memcpy(m, good, sizeof good);
  m[TCOUNT] = NPAGES - 10;
  m[GEN] = UINT16_MAX;
  CHECK(arrival_ok(m, w), "runs to the last page refused");
#undef BAD
}

static int depart_ok(const uint32_t *m, size_t words)
{
  dsm__rd_t r = dsm__rd(m, words * 4);
  dsm__coll_depart_t d;
  return dsm__coll_depart_read(&d, &r, NPROCS, NPAGES) && r.off == r.len;
}

static void known_bad_departures(void)
{
  /* ntold home reader sent | flags known[5] | ngifts first count home |
   * nruns first count writer */
  const uint32_t good[] = { 1, 2, 3, 9, DSM__COLL_FULL | DSM__COLL_RECORDS, 1, 2, 3, 4, 5,
                            1, 10, 2, 4, 1, 30, 3, 1 | DSM__COLL_CLEAN };
  enum { NTOLD, HOME, READER, FLAGS = 4, NGIFTS = 10, GFIRST, GCOUNT, GHOME, NRUNS, RFIRST,
         RCOUNT, WRITER };
  const size_t w = sizeof good / 4;
  uint32_t m[32];
#define BAD(at, v, why) do { memcpy(m, good, sizeof good); m[at] = (v); \
                             CHECK(!depart_ok(m, w), why " accepted"); } while (0)
  memcpy(m, good, sizeof good);
  CHECK(depart_ok(m, w), "the base departure is refused");
  dsm__rd_t r = dsm__rd(m, 4 * w - 1);
  dsm__coll_depart_t d;
  CHECK(!dsm__coll_depart_read(&d, &r, NPROCS, NPAGES), "a cut departure accepted");
  BAD(NTOLD, NPROCS * NPROCS + 1, "more push counts than pairs of ranks");
  BAD(HOME, NPROCS, "a count from a rank past the job");
  BAD(READER, NPROCS, "a count to a rank past the job");
  BAD(FLAGS, DSM__COLL_FULL | DSM__COLL_RECORDS | 4, "an unknown flag");
  BAD(FLAGS, DSM__COLL_RECORDS, "a collective of part of the job that moves homes");
  BAD(GFIRST, NPAGES, "a gift past the end");
  BAD(GCOUNT, NPAGES - 10 + 1, "a gift that leaves the pages");
  BAD(GHOME, NPROCS, "a gift to a rank past the job");
  BAD(RFIRST, NPAGES, "a run past the end");
  BAD(RCOUNT, NPAGES - 30 + 1, "a run that leaves the pages");
  BAD(WRITER, NPROCS, "a writer past the job");
  BAD(WRITER, NPROCS | DSM__COLL_CLEAN, "a clean writer past the job");
  BAD(WRITER, 1 | 0x40000000u, "a writer with a stray bit");
  BAD(NRUNS, NPAGES + 1, "more runs than pages");
  /* neither gifts nor runs: a collective of part of the job; a join's
   * departure carries no known vector */
  uint32_t part[] = { 0, DSM__COLL_RECORDS, 1, 2, 3, 4, 5, 0, 0 };
  CHECK(depart_ok(part, sizeof part / 4), "a departure of part of the job refused");
  CHECK(!depart_ok(part, sizeof part / 4 - 1), "a departure of part of the job cut accepted");
  part[1] = 0;
  CHECK(!depart_ok(part, sizeof part / 4), "a known vector without its flag accepted");
  const uint32_t join[] = { 0, DSM__COLL_FULL, 0, 0 };
  CHECK(depart_ok(join, 4), "a departure without a known vector refused");
#undef BAD
  dsm__coll_ride_t ride;
  const uint32_t rides[] = { 8, 1, 2 };
  r = dsm__rd(rides, sizeof rides);
  CHECK(dsm__coll_ride_read(&ride, &r) && ride.len == 8 && r.off == r.len, "a ride refused");
  r = dsm__rd(rides, sizeof rides - 1);
  CHECK(!dsm__coll_ride_read(&ride, &r), "a cut ride accepted");
}

/* ---- mutations ---- */

static unsigned accepted_arr, accepted_dep;

static void mutate_arrival(void)
{
  static struct arrival_spec s;
  dsm__buf_t b = { 0 };
  random_arrival(&s, &b);
  size_t n;
  uint8_t *m = mutate(b.p, b.len, &n);
  dsm__coll_arrival_t a;
  if (dsm__coll_arrival_read(&a, m, n, NPROCS, NPAGES, KNOWN)) {
    accepted_arr++;
    check_arrival(&a, m, n);
  }
  free(m);
  dsm__buf_free(&b);
}

static void mutate_depart(void)
{
  static struct depart_spec s;
  dsm__buf_t b = { 0 };
  random_depart(&s, &b);
  size_t n;
  uint8_t *m = mutate(b.p, b.len, &n);
  dsm__rd_t r = dsm__rd(m, n);
  dsm__coll_ride_t ride;
  dsm__coll_depart_t d;
  if (dsm__coll_ride_read(&ride, &r) && dsm__coll_depart_read(&d, &r, NPROCS, NPAGES)) {
    accepted_dep++;
    CHECK(r.off <= n && !r.bad, "the reader left the message");
    check_ride(&ride, m, n);
    check_depart(&d, m, n);
  }
  free(m);
  dsm__buf_free(&b);
}

int main(int argc, char **argv)
{
  long iters = argc > 1 ? atol(argv[1]) : 20000;
  if (argc > 2)
    rng = strtoull(argv[2], NULL, 0) | 1;
  known_bad_arrivals();
  known_bad_departures();
  for (long i = 0; i < iters && failures < 20; i++) {
    round_trip_arrival();
    round_trip_depart();
    mutate_arrival();
    mutate_depart();
  }
  /* Mutations that keep a part valid (a flipped page, count or byte of a
   * ride) must happen, or the checks above checked nothing. */
  CHECK(accepted_arr > 0 && accepted_dep > 0, "no mutated part was accepted (%u, %u)",
        accepted_arr, accepted_dep);
  printf("fuzz_collective: %ld rounds, %u mutated arrivals and %u departures accepted, "
         "%u failures\n", iters, accepted_arr, accepted_dep, failures);
  return failures ? 1 : 0;
}
