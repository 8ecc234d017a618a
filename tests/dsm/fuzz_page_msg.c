/*
 * fuzz_page_msg.c — the PAGE message's decoders (dsm/msg/page_msg.c) in one
 * process, without a job.
 *
 * Three parts:
 *   1. round trips: random valid requests and replies, built with the
 *      encoders, must decode to what was put in;
 *   2. known malformed messages, each of which must be refused;
 *   3. mutations: valid messages with bytes flipped, cut short or grown,
 *      each copied into a buffer of exactly its length, so that a read past
 *      the end is an AddressSanitizer report. Whatever a decoder accepts
 *      must satisfy what its callers rely on (every index in range, every
 *      pointer inside the message).
 *
 *   fuzz_page_msg [iterations] [seed]
 */
#define FUZZ_NAME "fuzz_page_msg"
#include "fuzz.h"
#include "lrc.h"
#include "page_msg.h"

enum { NPROCS = 5, NPAGES = 1000 };

/* ---- requests ---- */

struct req_spec {
  uint32_t epoch, count, fault_k, pages[DSM__RUN_MAX];
  int write, back;
  dsm__need_t needs[DSM__RUN_MAX][NPROCS];
  unsigned nneed[DSM__RUN_MAX];
  uint32_t own[DSM__RUN_MAX];
};

static void random_req(struct req_spec *s)
{
  memset(s, 0, sizeof *s);
  s->epoch = (uint32_t)next();
  s->count = 1 + (uint32_t)(next() % DSM__RUN_MAX);
  s->write = next() % 2;
  s->back = next() % 3 == 0;
  s->fault_k = s->back ? s->count - 1 : next() % 2 ? 0 : (uint32_t)(next() % s->count);
  for (uint32_t k = 0; k < s->count; k++) {
    s->pages[k] = (uint32_t)(next() % NPAGES);
    /* the asker's own newest write counts as a need too: at most NPROCS in all */
    s->own[k] = next() % 2 ? (uint32_t)next() : 0;
    s->nneed[k] = (unsigned)(next() % (NPROCS + (s->own[k] ? 0 : 1)));
    for (unsigned n = 0; n < s->nneed[k]; n++) {
      s->needs[k][n].proc = (uint32_t)(next() % NPROCS);
      s->needs[k][n].idx = (uint32_t)next();
      s->needs[k][n].next = n + 1 < s->nneed[k] ? &s->needs[k][n + 1] : NULL;
    }
  }
}

static void encode_req(const struct req_spec *s, dsm__buf_t *b)
{
  dsm__page_req_begin(b, s->epoch, s->count, s->write, s->back, s->fault_k);
  for (uint32_t k = 0; k < s->count; k++)
    dsm__page_req_page(b, s->pages[k], s->nneed[k] ? s->needs[k] : NULL, 3, s->own[k]);
}

static void round_trip_req(void)
{
  struct req_spec s;
  random_req(&s);
  dsm__buf_t b = { 0 };
  encode_req(&s, &b);
  dsm__page_req_t q;
  int ok = dsm__page_req_read(&q, b.p, b.len, NPROCS, NPAGES);
  CHECK(ok, "a valid request of %u pages refused", s.count);
  if (ok) {
    CHECK(q.epoch == s.epoch && q.count == s.count && q.fault_k == s.fault_k &&
          q.write == s.write && q.back == s.back, "request header changed in the round trip");
    for (uint32_t k = 0; k < s.count; k++) {
      CHECK(q.pages[k] == s.pages[k], "page %u changed", k);
      CHECK(q.nneed[k] == s.nneed[k] + !!s.own[k], "page %u: %u needs, not %u", k, q.nneed[k],
            s.nneed[k] + !!s.own[k]);
      for (unsigned n = 0; n < s.nneed[k] && n < q.nneed[k]; n++) {
        uint32_t idx;
        unsigned proc = dsm__page_req_need(&q, k, n, &idx);
        CHECK(proc == s.needs[k][n].proc && idx == s.needs[k][n].idx, "need changed");
      }
      if (s.own[k]) {
        uint32_t idx;
        CHECK(dsm__page_req_need(&q, k, s.nneed[k], &idx) == 3 && idx == s.own[k],
              "own write changed");
      }
      /* met: a vector of all-ones-maximum holds everything, zeros only no needs */
      uint32_t full[NPROCS], zero[NPROCS] = { 0 };
      for (unsigned i = 0; i < NPROCS; i++) full[i] = UINT32_MAX;
      CHECK(dsm__page_req_met(&q, k, full), "an all-maximum vector does not meet page %u", k);
      int any = 0;
      for (unsigned n = 0; n < q.nneed[k]; n++) {
        uint32_t idx;
        dsm__page_req_need(&q, k, n, &idx);
        any |= idx != 0;
      }
      CHECK(dsm__page_req_met(&q, k, zero) == !any, "zero vector met wrongly");
      CHECK(dsm__page_req_met(&q, k, NULL) == !q.nneed[k], "no vector met wrongly");
    }
  }
  dsm__buf_free(&b);
}

/* What a caller relies on in an accepted request. */
static void check_req(const dsm__page_req_t *q, const uint8_t *msg, size_t len)
{
  CHECK(q->count >= 1 && q->count <= DSM__RUN_MAX, "accepted a count of %u", q->count);
  CHECK(q->fault_k < q->count, "accepted fault index %u of %u", q->fault_k, q->count);
  for (uint32_t k = 0; k < q->count && k < DSM__RUN_MAX; k++) {
    CHECK(q->pages[k] < NPAGES, "accepted page %u", q->pages[k]);
    CHECK(q->nneed[k] <= NPROCS, "accepted %u needs", q->nneed[k]);
    CHECK(q->needs[k] >= msg && q->needs[k] + 8 * (size_t)q->nneed[k] <= msg + len,
          "needs outside the message");
    for (uint32_t n = 0; n < q->nneed[k]; n++) {
      uint32_t idx;
      CHECK(dsm__page_req_need(q, k, n, &idx) < NPROCS, "accepted a need of a rank past the job");
    }
  }
}

/* ---- replies ---- */

struct rep_spec {
  uint32_t count, fault_k, kinds[DSM__RUN_MAX], words[DSM__RUN_MAX];
  uint32_t pvs[DSM__RUN_MAX][NPROCS];
  uint8_t bytes[DSM__RUN_MAX][16];   /* the first bytes of each page's data */
};

static uint8_t pages_data[DSM__RUN_MAX][DSM__PAGE];
enum { HOME = 2 };

static void random_rep(struct rep_spec *s)
{
  memset(s, 0, sizeof *s);
  s->count = 1 + (uint32_t)(next() % DSM__RUN_MAX);
  s->fault_k = (uint32_t)(next() % s->count);
  for (uint32_t k = 0; k < s->count; k++) {
    uint32_t kind;
    do kind = (uint32_t)(next() % DSM__PAGE_KINDS);
    while (kind == DSM__PAGE_SKIPPED && k == s->fault_k);
    s->kinds[k] = kind;
    if (kind == DSM__PAGE_MOVED)
      s->words[k] = (HOME + 1 + (uint32_t)(next() % (NPROCS - 1))) % NPROCS;
    else
      s->words[k] = 1 + (uint32_t)(next() % UINT16_MAX);
    for (unsigned i = 0; i < NPROCS; i++)
      s->pvs[k][i] = (uint32_t)next();
    for (unsigned i = 0; i < 16; i++)
      pages_data[k][i] = s->bytes[k][i] = (uint8_t)next();
  }
}

static uint8_t *gather(const dsm__page_reply_t *r, size_t *len)
{
  *len = 0;
  for (unsigned i = 0; i < r->n; i++)
    *len += r->lens[i];
  uint8_t *out = malloc(*len ? *len : 1), *at = out;
  for (unsigned i = 0; i < r->n; i++) {
    memcpy(at, r->bufs[i], r->lens[i]);
    at += r->lens[i];
  }
  return out;
}

static uint8_t *encode_rep(const struct rep_spec *s, size_t *len)
{
  dsm__page_reply_t r;
  dsm__page_reply_init(&r, NPROCS);
  for (uint32_t k = 0; k < s->count; k++)
    dsm__page_reply_add(&r, s->pvs[k], s->kinds[k], &s->words[k], pages_data[k]);
  return gather(&r, len);
}

static void round_trip_rep(void)
{
  struct rep_spec s;
  random_rep(&s);
  size_t len;
  uint8_t *msg = encode_rep(&s, &len);
  dsm__page_ans_t ans[DSM__RUN_MAX];
  int ok = dsm__page_reply_read(ans, msg, len, s.count, s.fault_k, HOME, NPROCS);
  CHECK(ok, "a valid reply of %u pages refused", s.count);
  for (uint32_t k = 0; ok && k < s.count; k++) {
    CHECK(ans[k].kind == s.kinds[k], "page %u: kind %u, not %u", k, ans[k].kind, s.kinds[k]);
    CHECK(!memcmp(ans[k].pv, s.pvs[k], sizeof s.pvs[k]), "page %u: version changed", k);
    int has_word = s.kinds[k] == DSM__PAGE_MOVED || s.kinds[k] == DSM__PAGE_GIVEN ||
                   s.kinds[k] == DSM__PAGE_GIVEN_DATA;
    CHECK(!has_word || ans[k].word == s.words[k], "page %u: word changed", k);
    int has_data = s.kinds[k] == DSM__PAGE_FULL || s.kinds[k] == DSM__PAGE_GIVEN_DATA;
    CHECK(has_data == !!ans[k].data, "page %u: data %s", k, has_data ? "missing" : "invented");
    CHECK(!has_data || !memcmp(ans[k].data, s.bytes[k], 16), "page %u: bytes changed", k);
  }
  free(msg);
}

static void check_rep(const dsm__page_ans_t *ans, uint32_t count, uint32_t fault_k,
                      const uint8_t *msg, size_t len)
{
  for (uint32_t k = 0; k < count; k++) {
    const dsm__page_ans_t *a = &ans[k];
    CHECK(a->kind < DSM__PAGE_KINDS, "accepted kind %u", a->kind);
    CHECK(a->pv >= msg && a->pv + 4 * NPROCS <= msg + len, "version outside the message");
    CHECK(!a->data || (a->data >= msg && a->data + DSM__PAGE <= msg + len),
          "data outside the message");
    CHECK(a->kind != DSM__PAGE_SKIPPED || k != fault_k, "accepted a skipped faulting page");
    if (a->kind == DSM__PAGE_MOVED)
      CHECK(a->word < NPROCS && a->word != HOME, "accepted a move to %u", a->word);
    if (a->kind == DSM__PAGE_GIVEN || a->kind == DSM__PAGE_GIVEN_DATA)
      CHECK(a->word >= 1 && a->word <= UINT16_MAX, "accepted gift generation %u", a->word);
    CHECK((a->kind == DSM__PAGE_FULL || a->kind == DSM__PAGE_GIVEN_DATA) == !!a->data,
          "data does not follow the kind");
  }
}

/* ---- malformed messages that must be refused ---- */

static int req_ok(const void *m, size_t len)
{
  dsm__page_req_t q;
  return dsm__page_req_read(&q, m, len, NPROCS, NPAGES);
}

static void known_bad_requests(void)
{
  uint32_t m[16];
  /* epoch, count word, page, nneed[, proc, idx] */
  uint32_t good[] = { 7, 1, 10, 1, 4, 9 };
  CHECK(req_ok(good, sizeof good), "the base request is refused");
  CHECK(!req_ok(good, sizeof good - 1), "a cut request accepted");
  memcpy(m, good, sizeof good); m[6] = 0;
  CHECK(!req_ok(m, sizeof good + 4), "bytes left over accepted");
  memcpy(m, good, sizeof good); m[1] = 0;
  CHECK(!req_ok(m, 8), "a count of 0 accepted");
  memcpy(m, good, sizeof good); m[1] = DSM__RUN_MAX + 1;
  CHECK(!req_ok(m, sizeof good), "a count over the run accepted");
  memcpy(m, good, sizeof good); m[2] = NPAGES;
  CHECK(!req_ok(m, sizeof good), "a page past the end accepted");
  memcpy(m, good, sizeof good); m[3] = NPROCS + 1;
  CHECK(!req_ok(m, sizeof good), "more needs than ranks accepted");
  memcpy(m, good, sizeof good); m[4] = NPROCS;
  CHECK(!req_ok(m, sizeof good), "a need of a rank past the job accepted");
  memcpy(m, good, sizeof good); m[1] = 1 | DSM__PAGE_REQ_BACK | DSM__PAGE_REQ_MID;
  CHECK(!req_ok(m, sizeof good), "BACK and MID together accepted");
  uint32_t mid[] = { 7, 1 | DSM__PAGE_REQ_MID, 1, 10, 0 };
  CHECK(!req_ok(mid, sizeof mid), "a faulting index outside the run accepted");
  mid[2] = 0;
  CHECK(req_ok(mid, sizeof mid), "a faulting index 0 with MID refused");
}

static int rep_ok(const void *m, size_t len, uint32_t count, uint32_t fault_k)
{
  dsm__page_ans_t ans[DSM__RUN_MAX];
  return dsm__page_reply_read(ans, m, len, count, fault_k, HOME, NPROCS);
}

static void known_bad_replies(void)
{
  /* two pages: pv (NPROCS words), kind[, word]; the first a page of zeros,
   * the second moved on to rank 1 */
  uint32_t r[32] = { 0 };
  size_t at = 0;
  at += NPROCS; r[at++] = DSM__PAGE_ZERO;
  at += NPROCS; r[at++] = DSM__PAGE_MOVED; r[at++] = 1;
  CHECK(rep_ok(r, at * 4, 2, 0), "the base reply is refused");
  CHECK(!rep_ok(r, at * 4 - 1, 2, 0), "a cut reply accepted");
  CHECK(!rep_ok(r, at * 4 + 4, 2, 0), "bytes left over accepted");
  r[at - 1] = HOME;
  CHECK(!rep_ok(r, at * 4, 2, 0), "a move to the home that answered accepted");
  r[at - 1] = NPROCS;
  CHECK(!rep_ok(r, at * 4, 2, 0), "a move to a rank past the job accepted");
  r[at - 2] = DSM__PAGE_GIVEN; r[at - 1] = 0;
  CHECK(!rep_ok(r, at * 4, 2, 0), "a gift of generation 0 accepted");
  r[at - 1] = UINT16_MAX + 1;
  CHECK(!rep_ok(r, at * 4, 2, 0), "a gift generation over 16 bits accepted");
  r[at - 1] = 1;
  CHECK(rep_ok(r, at * 4, 2, 0), "a gift refused");
  r[NPROCS] = DSM__PAGE_SKIPPED;
  CHECK(!rep_ok(r, at * 4, 2, 0), "a skipped faulting page accepted");
  CHECK(rep_ok(r, at * 4, 2, 1), "a skipped page refused");
  r[NPROCS] = DSM__PAGE_KINDS;
  CHECK(!rep_ok(r, at * 4, 2, 1), "an unknown kind accepted");
  r[NPROCS] = DSM__PAGE_FULL;
  CHECK(!rep_ok(r, at * 4, 2, 1), "a full page without its bytes accepted");
}

/* ---- mutations ---- */

static unsigned accepted_req, accepted_rep;

static void mutate_req(void)
{
  struct req_spec s;
  random_req(&s);
  dsm__buf_t b = { 0 };
  encode_req(&s, &b);
  size_t n;
  uint8_t *m = mutate(b.p, b.len, &n);
  dsm__page_req_t q;
  if (dsm__page_req_read(&q, m, n, NPROCS, NPAGES)) {
    accepted_req++;
    check_req(&q, m, n);
  }
  free(m);
  dsm__buf_free(&b);
}

static void mutate_rep(void)
{
  struct rep_spec s;
  random_rep(&s);
  size_t len, n;
  uint8_t *msg = encode_rep(&s, &len);
  uint8_t *m = mutate(msg, len, &n);
  dsm__page_ans_t ans[DSM__RUN_MAX];
  if (dsm__page_reply_read(ans, m, n, s.count, s.fault_k, HOME, NPROCS)) {
    accepted_rep++;
    check_rep(ans, s.count, s.fault_k, m, n);
  }
  free(m);
  free(msg);
}

int main(int argc, char **argv)
{
  long iters = argc > 1 ? atol(argv[1]) : 20000;
  if (argc > 2)
    rng = strtoull(argv[2], NULL, 0) | 1;
  known_bad_requests();
  known_bad_replies();
  for (long i = 0; i < iters && failures < 20; i++) {
    round_trip_req();
    round_trip_rep();
    mutate_req();
    mutate_rep();
  }
  /* Mutations that keep a message valid (a flipped page number, need or
   * byte of data) must happen, or the checks above checked nothing. */
  CHECK(accepted_req > 0 && accepted_rep > 0, "no mutated message was accepted (%u, %u)",
        accepted_req, accepted_rep);
  printf("fuzz_page_msg: %ld rounds, %u mutated requests and %u replies accepted, %u failures\n",
         iters, accepted_req, accepted_rep, failures);
  return failures ? 1 : 0;
}
