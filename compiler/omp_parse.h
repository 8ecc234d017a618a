/*
 * omp_parse.h — the directives' parser (omp_parse.c), which the parser
 * calls for each "#pragma omp" token.
 */
#ifndef OMPDSMCC_OMP_PARSE_H
#define OMPDSMCC_OMP_PARSE_H

#include "ir.h"

Omp *omp_parse(int tok);         /* parse the directive at token tok */

#endif
