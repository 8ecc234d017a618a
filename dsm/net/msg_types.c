/*
 * msg_types.c — names of the message types, from the one table in msg_types.h.
 */
#include "msg_types.h"

static const char *const names[] = {
#define DSM__MSG_NAME(name, desc) #name,
  DSM__MSG_TABLE(DSM__MSG_NAME)
#undef DSM__MSG_NAME
};

const char *dsm__msg_name(unsigned type)
{
  return type < DSM__MSG_COUNT ? names[type] : "?";
}
