/*
 * page_states.c — the page-state rules (dsm/page_state.c) in one process,
 * without a job: a page entry built in each state must read as that
 * state, each combination of fields that a rule forbids must read as no
 * state and name that rule, and every move between two states must be
 * allowed or refused as the table below says.
 */
#include <stdio.h>
#include <string.h>

#include "lrc.h"
#include "page_state.h"

enum { ME = 1, OTHER = 0 };

static unsigned failures;
static uint8_t twin[DSM__PAGE];
static dsm__need_t a_need = { 0, 7, NULL };

static dsm__page_t page(unsigned home, int valid, int prot)
{
  dsm__page_t p;
  memset(&p, 0, sizeof p);
  p.inited = 1;
  p.home = (uint16_t)home;
  p.valid = (uint8_t)valid;
  p.prot = (uint8_t)prot;
  return p;
}

static void expect(const char *what, const dsm__page_t *p, dsm__pstate_t want, const char *rule)
{
  const char *broken = NULL;
  dsm__pstate_t got = dsm__page_state(p, ME, &broken);
  int ok = got == want && (want != DSM__PS_COUNT ? broken == NULL
                                                  : broken && strstr(broken, rule) != NULL);
  if (!ok) {
    failures++;
    fprintf(stderr, "page_states: %s: %s (%s), expected %s%s%s\n", what, dsm__page_state_name(got),
            broken ? broken : "no rule broken", dsm__page_state_name(want), rule ? ": " : "",
            rule ? rule : "");
  }
}

static void legal(void)
{
  dsm__page_t p = page(OTHER, 0, DSM__PROT_NONE);
  expect("never held", &p, DSM__PS_NO_COPY, NULL);
  p.need = &a_need;
  expect("out of date", &p, DSM__PS_NO_COPY, NULL);
  p.fetching = 1;
  expect("fetched by another thread", &p, DSM__PS_FETCHING, NULL);

  p = page(OTHER, 1, DSM__PROT_NONE);
  p.pushed = DSM__PUSHED_COPY;
  expect("a pushed copy", &p, DSM__PS_HELD, NULL);
  p.pushed = DSM__PUSHED_RUN;
  expect("a cold run's page", &p, DSM__PS_HELD, NULL);

  p = page(OTHER, 1, DSM__PROT_READ);
  expect("a read copy", &p, DSM__PS_READ_COPY, NULL);
  p.twin = twin;     /* a diff made at the release and held across a collective */
  expect("a read copy whose held diff keeps the twin", &p, DSM__PS_READ_COPY, NULL);
  p = page(OTHER, 1, DSM__PROT_WRITE);
  p.dirty = 1;
  p.twin = twin;
  expect("a written copy", &p, DSM__PS_WRITE_COPY, NULL);

  p = page(ME, 1, DSM__PROT_WRITE);
  p.excl = 1;
  expect("an exclusive home page", &p, DSM__PS_HOME_EXCL, NULL);
  p.twin = twin;
  expect("an exclusive home page with a held diff's twin", &p, DSM__PS_HOME_EXCL, NULL);
  p = page(ME, 1, DSM__PROT_NONE);
  p.excl = 1;
  expect("an exclusive page closed to be given away", &p, DSM__PS_HOME_CLOSED, NULL);
  p = page(ME, 1, DSM__PROT_READ);
  expect("a shared home page", &p, DSM__PS_HOME_SHARED, NULL);
  p = page(ME, 1, DSM__PROT_WRITE);
  p.dirty = 1;
  p.twin = twin;
  expect("a shared home page written", &p, DSM__PS_HOME_WRITTEN, NULL);
  p.hot = 1;
  expect("a hot home page", &p, DSM__PS_HOME_WRITTEN, NULL);
  p = page(ME, 1, DSM__PROT_NONE);
  p.need = &a_need;
  expect("a home page behind a diff", &p, DSM__PS_HOME_BEHIND, NULL);
}

static void illegal(void)
{
  dsm__page_t p = page(OTHER, 0, DSM__PROT_READ);
  expect("readable, out of date", &p, DSM__PS_COUNT, "out-of-date copy the program can access");
  p = page(OTHER, 0, DSM__PROT_WRITE);
  p.dirty = 1;
  p.twin = twin;
  expect("writable, out of date", &p, DSM__PS_COUNT, "out-of-date copy the program can access");
  p = page(OTHER, 1, DSM__PROT_READ);
  p.need = &a_need;
  expect("valid with a notice outstanding", &p, DSM__PS_COUNT, "write notice outstanding");
  p = page(OTHER, 1, DSM__PROT_WRITE);
  p.twin = twin;
  expect("writable copy not recorded as written", &p, DSM__PS_COUNT, "no twin records");
  p = page(OTHER, 1, DSM__PROT_WRITE);
  p.dirty = 1;
  expect("writable copy without its twin", &p, DSM__PS_COUNT, "no twin records");
  p = page(OTHER, 0, DSM__PROT_NONE);
  p.pushed = DSM__PUSHED_COPY;
  expect("held, not valid", &p, DSM__PS_COUNT, "held copy that is not valid");
  p = page(OTHER, 1, DSM__PROT_READ);
  p.pushed = DSM__PUSHED_RUN;
  expect("held, accessible", &p, DSM__PS_COUNT, "held copy the program can access");
  p = page(OTHER, 1, DSM__PROT_NONE);
  expect("valid, closed, not held", &p, DSM__PS_COUNT, "not held");
  p = page(OTHER, 1, DSM__PROT_WRITE);
  p.excl = 1;
  expect("a copy marked exclusive", &p, DSM__PS_COUNT, "only a home page can be exclusive");

  p = page(ME, 1, DSM__PROT_NONE);
  p.pushed = DSM__PUSHED_COPY;
  expect("a home page held", &p, DSM__PS_COUNT, "home page held");
  p = page(ME, 1, DSM__PROT_READ);
  p.need = &a_need;
  expect("a home page readable behind a diff", &p, DSM__PS_COUNT, "diff still to come");
  p = page(ME, 1, DSM__PROT_WRITE);
  p.excl = 1;
  p.dirty = 1;
  p.twin = twin;
  expect("an exclusive page recorded as written", &p, DSM__PS_COUNT, "recorded as written");
  p = page(ME, 1, DSM__PROT_WRITE);
  expect("a shared home page writable, no twin", &p, DSM__PS_COUNT, "without a twin");
  p = page(ME, 1, 3);
  expect("an unknown protection", &p, DSM__PS_COUNT, "unknown protection");
}

/* The moves from one check to the next (dsm__page_move_rule), every pair
 * of states: 1 where some sequence of events leads from the row's state
 * to the column's, 0 where none does, and the rule says why. Columns in
 * the order of the rows. A 0 is what protocol.md's table of states
 * forbids: a home moving away keeps no copy; a home moving here starts
 * shared or exclusive; a home page is written with a twin only after it
 * was shared; an exclusive page has no other writer; a page behind waits
 * for its diff; a copy written in the open interval is released first. */
static const char *const allowed[DSM__PS_COUNT] = {
  /*                 nc fe he rc wc hb hc hx hs hw */
  /* no copy     */ "1  1  1  1  1  0  0  1  1  0",
  /* fetching    */ "1  1  1  1  1  0  0  1  1  0",
  /* held        */ "1  1  1  1  1  0  0  1  1  0",
  /* read copy   */ "1  1  1  1  1  0  0  1  1  0",
  /* write copy  */ "1  1  0  1  1  0  0  1  1  0",
  /* home behind */ "1  0  0  1  0  1  1  0  1  0",
  /* home closed */ "1  0  0  1  0  1  1  1  1  1",
  /* home excl   */ "1  0  0  1  0  0  1  1  1  0",
  /* home shared */ "1  0  0  1  0  1  1  1  1  1",
  /* home written*/ "1  0  0  1  0  1  1  1  1  1",
};

static void moves(void)
{
  unsigned legal_n = 0, illegal_n = 0;
  for (int a = 0; a < DSM__PS_COUNT; a++)
    for (int b = 0; b < DSM__PS_COUNT; b++) {
      int want = allowed[a][3 * b] == '1';
      const char *rule = dsm__page_move_rule((dsm__pstate_t)a, (dsm__pstate_t)b);
      if (want == (rule == NULL)) {
        want ? legal_n++ : illegal_n++;
        continue;
      }
      failures++;
      fprintf(stderr, "page_states: %s -> %s: %s, expected %s\n", dsm__page_state_name(a),
              dsm__page_state_name(b), rule ? rule : "allowed", want ? "allowed" : "refused");
    }
  /* Out of range either way is no move at all. */
  if (!dsm__page_move_rule(DSM__PS_COUNT, DSM__PS_NO_COPY) ||
      !dsm__page_move_rule(DSM__PS_NO_COPY, DSM__PS_COUNT)) {
    failures++;
    fprintf(stderr, "page_states: a move from or to no state was allowed\n");
  }
  printf("page_states: %u moves allowed, %u refused\n", legal_n, illegal_n);
}

int main(void)
{
  legal();
  illegal();
  moves();
  for (int s = 0; s <= DSM__PS_COUNT; s++)
    if (!dsm__page_state_name((dsm__pstate_t)s)[0]) {
      failures++;
      fprintf(stderr, "page_states: state %d has no name\n", s);
    }
  printf("page_states: %u failures\n", failures);
  return failures != 0;
}
