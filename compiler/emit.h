/*
 * emit.h — the user's tokens printed back as C (emit.c), with #line
 * markers, substitutions (Ctx) and the lowering's text spliced in.
 */
#ifndef OMPDSMCC_EMIT_H
#define OMPDSMCC_EMIT_H

#include "lower.h"

#include <stdio.h>

void emit_tok(Out *o, int i, Ctx *ctx);
char *span_text(int a, int b, Ctx *ctx);
void emit_unit(FILE *out);

#endif
