/*
 * transport_verbs_lib.c — libibverbs, opened with dlopen() at run time.
 *
 * libdsm is a static library so that programs built against it run on
 * hosts with nothing but glibc and libsigsegv; linking libibverbs would
 * break that for every program, RDMA or not. So the ~20 entry points the
 * backend calls are resolved into a table when the verbs transport is
 * selected (DSM_VERBS_LIB names another file: the tests' stand-in). The
 * data-path calls (post send/recv, poll and arm the CQ) are inline in
 * verbs.h and jump through the device context, so they need no symbol.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "transport_verbs.h"

struct dsm__ibv dsm__ibv;

void dsm__verbs_load(void)
{
  const char *lib;
  void *h = dsm__lib_open("DSM_VERBS_LIB", "libibverbs.so.1", RTLD_NOW | RTLD_LOCAL, &lib);
  if (!h)
    dsm__fatal(DSM__EXIT_FATAL, "the verbs transport cannot load %s (%s); install rdma-core's "
               "libibverbs1, or run with --transport udp", lib, dlerror());
#define SYM(field, name) (*(void **)&IBV.field = dsm__lib_sym(h, lib, name, "libibverbs"))
  SYM(get_device_list, "ibv_get_device_list");
  SYM(free_device_list, "ibv_free_device_list");
  SYM(get_device_name, "ibv_get_device_name");
  SYM(open_device, "ibv_open_device");
  SYM(close_device, "ibv_close_device");
  SYM(query_device, "ibv_query_device");
  SYM(query_port, "ibv_query_port");
  SYM(query_gid, "ibv_query_gid");
  SYM(alloc_pd, "ibv_alloc_pd");
  SYM(dealloc_pd, "ibv_dealloc_pd");
  SYM(reg_mr, "ibv_reg_mr");
  SYM(dereg_mr, "ibv_dereg_mr");
  SYM(create_comp_channel, "ibv_create_comp_channel");
  SYM(destroy_comp_channel, "ibv_destroy_comp_channel");
  SYM(create_cq, "ibv_create_cq");
  SYM(destroy_cq, "ibv_destroy_cq");
  SYM(get_cq_event, "ibv_get_cq_event");
  SYM(ack_cq_events, "ibv_ack_cq_events");
  SYM(create_qp, "ibv_create_qp");
  SYM(modify_qp, "ibv_modify_qp");
  SYM(destroy_qp, "ibv_destroy_qp");
  SYM(wc_status_str, "ibv_wc_status_str");
#undef SYM
}

/* ibv_query_port is an inline wrapper in verbs.h that prefers the provider's
 * extended entry point; the same logic, with the exported symbol as the
 * fallback. */
int dsm__verbs_query_port(struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *a)
{
  struct verbs_context *vctx = verbs_get_ctx_op(ctx, query_port);
  memset(a, 0, sizeof *a);
  if (vctx)
    return vctx->query_port(ctx, port, a, sizeof *a);
  return IBV.query_port(ctx, port, (struct _compat_ibv_port_attr *)a);
}
