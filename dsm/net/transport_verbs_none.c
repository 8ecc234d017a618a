/*
 * transport_verbs_none.c — the verbs backend of a libdsm built without
 * libibverbs' headers (-Dverbs=disabled, or no libibverbs-dev): selecting
 * it is a clear error at init, and nothing else of it can be reached.
 */
#include "dsm_internal.h"
#include "transport_impl.h"

static void nov_init(unsigned rank, unsigned size)
{
  (void)rank; (void)size;
  dsm__fatal(DSM__EXIT_FATAL, "DSM_TRANSPORT=verbs: this libdsm was built without the verbs "
             "transport (no libibverbs-dev at build time, or -Dverbs=disabled); rebuild with "
             "-Dverbs=enabled, or run with --transport udp");
}
static void nov_shutdown(void) {}
static void nov_handle(unsigned type, dsm__handler_t fn) { (void)type; (void)fn; }
static void nov_call_many(dsm__call_t *c, unsigned n) { (void)c; (void)n; DSM__ASSERT(0); }
static void nov_send(unsigned d, unsigned t, const void *p, size_t l)
{ (void)d; (void)t; (void)p; (void)l; DSM__ASSERT(0); }
static void nov_replyv(dsm__reqh_t h, const void *const *b, const size_t *l, unsigned n)
{ (void)h; (void)b; (void)l; (void)n; DSM__ASSERT(0); }
static void nov_forward(dsm__reqh_t h, unsigned d, const void *p, size_t l)
{ (void)h; (void)d; (void)p; (void)l; DSM__ASSERT(0); }
static void nov_abort(const char *r) { (void)r; }

static void nov_event(dsm__tp_event_t *e) { (void)e; DSM__ASSERT(0); }

const struct dsm__tp_ops dsm__tp_verbs_ops = {
  "verbs", nov_init, nov_shutdown, nov_handle, nov_call_many, nov_send, nov_replyv,
  nov_forward, nov_abort, nov_event, nov_event, NULL, NULL, NULL,
};
