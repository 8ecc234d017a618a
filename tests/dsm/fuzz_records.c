/*
 * fuzz_records.c — the decoder of interval records (dsm/msg/record_msg.c) in
 * one process, without a job.
 *
 * Three parts, as fuzz_page_msg.c:
 *   1. round trips: random valid lists, built with the encoders for a
 *      receiver that holds some of their records already, must decode to
 *      what was put in, and stop where the list ends (a message goes on
 *      after its records);
 *   2. known malformed lists, each of which must be refused;
 *   3. mutations, each in a buffer of exactly its length (AddressSanitizer
 *      catches a read past the end). Whatever the decoder accepts must be
 *      what the store relies on: every proc and page in range, every
 *      pointer inside the message, and no gap in any process's records.
 *
 *   fuzz_records [iterations] [seed]
 */
#define FUZZ_NAME "fuzz_records"
#include "fuzz.h"
#include "record_msg.h"

enum { NPROCS = 5, NPAGES = 1000, MAXREC = 24 };
#define TRAILER 0x7a11e4u       /* what follows the list in its message */

struct list_spec {
  uint32_t known[NPROCS];        /* the receiver's: records held up to known[q] */
  unsigned n;
  dsm__interval_t recs[MAXREC];
  uint32_t vts[MAXREC][NPROCS];
  uint32_t pages[MAXREC][NPAGES];
};

static void random_record(struct list_spec *s, unsigned k, uint32_t proc, uint32_t idx)
{
  dsm__interval_t *iv = &s->recs[k];
  iv->proc = proc;
  iv->idx = idx;
  /* mostly a few pages; now and then as many as there are */
  iv->npages = next() % 16 ? (uint32_t)(next() % 9) : (uint32_t)(next() % (NPAGES + 1));
  iv->vt = s->vts[k];
  iv->pages = s->pages[k];
  for (unsigned q = 0; q < NPROCS; q++)
    s->vts[k][q] = (uint32_t)next();
  for (uint32_t j = 0; j < iv->npages; j++)
    s->pages[k][j] = (uint32_t)(next() % NPAGES);
}

/* Per process, a stretch of records that may begin with some the receiver
 * holds and goes on without a gap; the processes' stretches interleaved. */
static void random_list(struct list_spec *s)
{
  uint32_t from[NPROCS], upto[NPROCS];
  unsigned left = 0;
  for (unsigned q = 0; q < NPROCS; q++) {
    s->known[q] = (uint32_t)(next() % 20);
    from[q] = 1 + (uint32_t)(next() % (s->known[q] + 1));
    if (s->known[q] >= 3 && from[q] < s->known[q] - 3)
      from[q] = s->known[q] - 3;
    upto[q] = from[q] - 1 + (uint32_t)(next() % 6);
    left += upto[q] - from[q] + 1;
  }
  s->n = 0;
  while (left && s->n < MAXREC) {
    uint32_t q = (uint32_t)(next() % NPROCS);
    if (from[q] > upto[q])
      continue;
    random_record(s, s->n++, q, from[q]++);
    left--;
  }
}

/* The list, then TRAILER; *end: where the list ends. */
static void encode_list(const struct list_spec *s, dsm__buf_t *b, size_t *end)
{
  size_t at = dsm__records_begin(b);
  for (unsigned k = 0; k < s->n; k++)
    dsm__record_put(b, &s->recs[k], NPROCS);
  dsm__records_end(b, at, s->n);
  *end = b->len;
  dsm__buf_u32(b, TRAILER);
}

static void round_trip(void)
{
  static struct list_spec s;
  random_list(&s);
  dsm__buf_t b = { 0 };
  size_t end;
  encode_list(&s, &b, &end);
  dsm__rd_t r = dsm__rd(b.p, b.len);
  dsm__records_t rs;
  int ok = dsm__records_read(&rs, &r, NPROCS, NPAGES, s.known);
  CHECK(ok, "a valid list of %u records refused", s.n);
  if (ok) {
    CHECK(rs.count == s.n, "%u records, not %u", rs.count, s.n);
    CHECK(r.off == end && dsm__rd_u32(&r) == TRAILER, "the list does not end where it did");
    dsm__record_t rec;
    size_t off = 0;
    unsigned k = 0;
    for (; k < s.n && dsm__records_next(&rs, &off, &rec); k++) {
      const dsm__interval_t *iv = &s.recs[k];
      CHECK(rec.proc == iv->proc && rec.idx == iv->idx && rec.npages == iv->npages,
            "record %u: (%u, %u, %u pages), not (%u, %u, %u)", k, rec.proc, rec.idx, rec.npages,
            iv->proc, iv->idx, iv->npages);
      CHECK(!memcmp(rec.vt, iv->vt, sizeof s.vts[k]), "record %u: vector time changed", k);
      CHECK(rec.npages != iv->npages || !memcmp(rec.pages, iv->pages, 4 * (size_t)iv->npages),
            "record %u: pages changed", k);
    }
    CHECK(k == s.n && !dsm__records_next(&rs, &off, &rec), "the walk did not give %u records", s.n);
  }
  dsm__buf_free(&b);

  uint32_t vt[NPROCS];
  for (unsigned q = 0; q < NPROCS; q++)
    vt[q] = (uint32_t)next();
  dsm__buf_t v = { 0 };
  dsm__vt_put(&v, vt, NPROCS);
  dsm__rd_t vr = dsm__rd(v.p, v.len);
  const uint8_t *got = dsm__vt_read(&vr, NPROCS);
  CHECK(got && !memcmp(got, vt, sizeof vt) && vr.off == v.len, "a vector time changed");
  vr = dsm__rd(v.p, v.len - 1);
  CHECK(!dsm__vt_read(&vr, NPROCS), "a cut vector time accepted");
  dsm__buf_free(&v);
}

/* What the store relies on in an accepted list. */
static void check_list(const dsm__records_t *rs, const uint32_t *known, const uint8_t *msg,
                       size_t len)
{
  CHECK(inside(rs->p, rs->len, msg, len), "the records outside the message");
  uint32_t held[NPROCS];
  memcpy(held, known, sizeof held);
  dsm__record_t rec;
  size_t off = 0;
  uint32_t k = 0;
  for (; k <= rs->count && dsm__records_next(rs, &off, &rec); k++) {
    CHECK(rec.proc < NPROCS, "accepted a record of rank %u", rec.proc);
    if (rec.proc >= NPROCS)
      return;
    CHECK(rec.npages <= NPAGES, "accepted %u pages", rec.npages);
    CHECK(inside(rec.vt, 4 * NPROCS, msg, len) &&
          inside(rec.pages, 4 * (size_t)rec.npages, msg, len), "a record outside the message");
    for (uint32_t j = 0; j < rec.npages; j++) {
      uint32_t pg;
      memcpy(&pg, rec.pages + 4 * (size_t)j, 4);
      CHECK(pg < NPAGES, "accepted page %u", pg);
    }
    if (rec.idx > held[rec.proc]) {
      CHECK(rec.idx == held[rec.proc] + 1, "accepted record %u of rank %u after %u", rec.idx,
            rec.proc, held[rec.proc]);
      held[rec.proc] = rec.idx;
    }
  }
  CHECK(k == rs->count && off == rs->len, "accepted %u records, walked %u", rs->count, k);
}

/* ---- malformed lists that must be refused ---- */

static int list_ok(const uint32_t *m, size_t words, const uint32_t *known)
{
  dsm__rd_t r = dsm__rd(m, words * 4);
  dsm__records_t rs;
  return dsm__records_read(&rs, &r, NPROCS, NPAGES, known);
}

/* One record at m: proc, idx, npages, vt (zeros), pages. Returns its words. */
static size_t rec_at(uint32_t *m, uint32_t proc, uint32_t idx, uint32_t npages,
                     const uint32_t *pages)
{
  m[0] = proc;
  m[1] = idx;
  m[2] = npages;
  memset(m + 3, 0, 4 * NPROCS);
  memcpy(m + 3 + NPROCS, pages, 4 * (size_t)npages);
  return 3 + NPROCS + npages;
}

static void known_bad(void)
{
  static uint32_t m[2 * (4 + NPROCS + NPAGES)], many[NPAGES + 1];
  uint32_t none[NPROCS] = { 0 }, some[NPROCS] = { 0, 5, 0, 0, 0 };
  const uint32_t two[] = { 3, 4 }, past[] = { 3, NPAGES };
  size_t n = 1;
  m[0] = 1;
  n += rec_at(m + n, 1, 1, 2, two);
  CHECK(list_ok(m, n, none), "the base list is refused");
  dsm__rd_t r = dsm__rd(m, n * 4 - 1);
  dsm__records_t rs;
  CHECK(!dsm__records_read(&rs, &r, NPROCS, NPAGES, none), "a cut list accepted");
  m[0] = 2;
  CHECK(!list_ok(m, n, none), "a count past the records accepted");
  m[0] = 0;
  CHECK(list_ok(m, 1, none), "an empty list refused");
  m[0] = 1;
  rec_at(m + 1, NPROCS, 1, 2, two);
  CHECK(!list_ok(m, n, none), "a record of a rank past the job accepted");
  rec_at(m + 1, 1, 1, 2, past);
  CHECK(!list_ok(m, n, none), "a page past the end accepted");
  rec_at(m + 1, 1, 2, 2, two);
  CHECK(!list_ok(m, n, none), "a record after a gap accepted");
  rec_at(m + 1, 1, 3, 2, two);
  CHECK(list_ok(m, n, some), "a record already held refused");
  rec_at(m + 1, 1, 3, 2, past);
  CHECK(!list_ok(m, n, some), "a page past the end in a record already held accepted");
  rec_at(m + 1, 1, 6, 2, two);
  CHECK(list_ok(m, n, some), "the next record refused");
  /* a gap inside the list: (1, 6) then (1, 8) */
  m[0] = 2;
  n = 1 + rec_at(m + 1, 1, 6, 2, two);
  n += rec_at(m + n, 1, 8, 2, two);
  CHECK(!list_ok(m, n, some), "a gap between two records of the list accepted");
  rec_at(m + n - (3 + NPROCS + 2), 1, 7, 2, two);
  CHECK(list_ok(m, n, some), "two records in a row refused");
  /* more pages than there are, each of them a page */
  m[0] = 1;
  n = 1 + rec_at(m + 1, 0, 1, NPAGES + 1, many);
  CHECK(!list_ok(m, n, none), "a record of more pages than there are accepted");
  n = 1 + rec_at(m + 1, 0, 1, NPAGES, many);
  CHECK(list_ok(m, n, none), "a record of every page refused");
  /* a vector time cut short */
  n = 1 + 3 + NPROCS - 1;
  m[3] = 0;
  CHECK(!list_ok(m, n, none), "a record with a cut vector time accepted");
}

/* ---- mutations ---- */

static unsigned accepted;

static void mutate_list(void)
{
  static struct list_spec s;
  random_list(&s);
  dsm__buf_t b = { 0 };
  size_t end, n;
  encode_list(&s, &b, &end);
  uint8_t *m = mutate(b.p, b.len, &n);
  dsm__rd_t r = dsm__rd(m, n);
  dsm__records_t rs;
  if (dsm__records_read(&rs, &r, NPROCS, NPAGES, s.known)) {
    accepted++;
    CHECK(r.off <= n && !r.bad, "the reader left the message");
    check_list(&rs, s.known, m, n);
  }
  free(m);
  dsm__buf_free(&b);
}

int main(int argc, char **argv)
{
  long iters = argc > 1 ? atol(argv[1]) : 20000;
  if (argc > 2)
    rng = strtoull(argv[2], NULL, 0) | 1;
  known_bad();
  for (long i = 0; i < iters && failures < 20; i++) {
    round_trip();
    mutate_list();
  }
  /* Mutations that keep a list valid (a flipped page, index of a record
   * already held, or vector time) must happen, or the checks above
   * checked nothing. */
  CHECK(accepted > 0, "no mutated list was accepted");
  printf("fuzz_records: %ld rounds, %u mutated lists accepted, %u failures\n", iters, accepted,
         failures);
  return failures ? 1 : 0;
}
