/*
 * parser.y — C11 plus the GNU extensions glibc headers use.
 *
 * The parser builds no expression trees: every rule's location is its token
 * span (YYLTYPE holds first/last token indices), identifiers are resolved
 * to symbols when reduced, and only statements that the OpenMP lowering
 * needs (compound, for, directives, function definitions) become nodes.
 * Typedef names are told apart from identifiers by the lexer asking the
 * scope (scope_is_typedef), the classic "lexer hack".
 *
 * %expect 1: the dangling else (if (a) if (b) x; else y;), resolved by
 * shifting, which binds the else to the nearest if as C requires.
 */
%define api.pure full
%define parse.error verbose
%locations
%param {void *scanner}
%expect 1
%define api.prefix {cc_}

%code requires {
#include "ir.h"
#include "type.h"

#include <stdio.h>
typedef struct CC_LTYPE { int ft, lt, unused1_, unused2_; } CC_LTYPE;
#define CC_LTYPE_IS_DECLARED 1
#define CC_LTYPE_IS_TRIVIAL 1
#define YYLLOC_DEFAULT(Cur, Rhs, N) do { if (N) { (Cur).ft = YYRHSLOC(Rhs, 1).ft; (Cur).lt = YYRHSLOC(Rhs, N).lt; } \
  else { (Cur).ft = YYRHSLOC(Rhs, 0).lt + 1; (Cur).lt = YYRHSLOC(Rhs, 0).lt; } } while (0)
}

%code provides {
/* The unit read from in into the token array and nodes (ir.h); returns 0 on success. */
int parse_file(FILE *in);
}

%union {
  int t;
  Node *n;
  Decl *d;
  Spec spec;
  Param *p;
  DOp *op;
  Type *ty;
  int flag;
}

%code {
#include "omp_lower.h"
#include "omp_parse.h"
#include "scope.h"

#include <stdlib.h>
#include <string.h>
#define YYLTYPE CC_LTYPE
#define YYSTYPE CC_STYPE
int cc_lex(YYSTYPE *lval, YYLTYPE *lloc, void *scanner);
static void cc_error(YYLTYPE *loc, void *scanner, const char *msg)
{
  (void)scanner;
  error_at(loc->ft, "%s", msg);
}

static Node *cur_func;
static int kr_decls;   /* between a K&R declarator and its body: the parameters' declarations */

static Spec spec_merge(Spec a, Spec b)
{
  Spec r = a;
  if (b.storage) r.storage = b.storage;
  r.is_thread |= b.is_thread;
  r.kw |= b.kw;
  r.nlong += b.nlong;
  r.qual |= b.qual;
  if (b.ty) r.ty = b.ty;
  return r;
}

static Spec spec_of(int storage, int is_thread)
{
  Spec s = { 0 };
  s.storage = storage;
  s.is_thread = is_thread;
  return s;
}

static Spec spec_kw(int kw)
{
  Spec s = { 0 };
  if (kw < 0) s.nlong = 1; else s.kw = kw;
  return s;
}

static Spec spec_qual(int qual) { Spec s = { 0 }; s.qual = qual; return s; }
static Spec spec_ty(Type *t) { Spec s = { 0 }; s.ty = t; return s; }

static Decl *decl_new(int ident, int kind)
{
  Decl *d = xcalloc(1, sizeof *d);
  d->ident = ident;
  d->kind = kind;
  return d;
}

static DOp *dop_new(int kind, int qual, int ft, int lt)
{
  DOp *o = xcalloc(1, sizeof *o);
  o->kind = kind; o->qual = qual; o->ft = ft; o->lt = lt;
  return o;
}

/* Derivations are kept from the name outward; a list of them (a pointer
   chain) goes after those already bound closer to the name. */
static void decl_append(Decl *d, DOp *ops)
{
  if (!ops) return;
  if (d->last_op) d->last_op->next = ops; else d->ops = ops;
  for (d->last_op = ops; d->last_op->next; d->last_op = d->last_op->next) {}
}

/* "[static const n]" in a parameter: the qualifiers go to the adjusted
   pointer, the rest is the bound. A bound that names a variable (or calls
   something) makes a variable-length array. */
static DOp *array_op(int ft, int lt)
{
  int qual = 0;
  for (;;) {
    if (ft > lt) break;
    int k = toks[ft].kind;
    if (k == CONST) qual |= Q_CONST; else if (k == VOLATILE) qual |= Q_VOLATILE;
    else if (k == RESTRICT) qual |= Q_RESTRICT; else if (k == ATOMIC) qual |= Q_ATOMIC;
    else if (k != STATIC) break;
    ft++;
  }
  DOp *o = dop_new(DO_ARRAY, qual, ft, lt);
  for (int i = ft; i <= lt; i++)
    if (toks[i].kind == IDENTIFIER && toks[i].is_use && !toks[i].is_member &&
        (!toks[i].sym || toks[i].sym->kind == SYM_VAR || toks[i].sym->kind == SYM_FUNC))
      o->is_vla = 1;
  return o;
}

static Type *tag_type(int kind_tok, int name, int def_ft, int def_lt)
{
  int kind = toks[kind_tok].kind == STRUCT ? TY_STRUCT : toks[kind_tok].kind == UNION ? TY_UNION : TY_ENUM;
  Tag *g = NULL;
  if (name >= 0) g = tag_lookup(toks[name].text, def_ft >= 0);
  if (!g) g = tag_declare(name >= 0 ? toks[name].text : NULL, kind, name >= 0 ? name : kind_tok);
  if (def_ft >= 0) { g->def_ft = def_ft; g->def_lt = def_lt; }
  if (name >= 0) toks[name].tag = g;
  toks[kind_tok].tag = g;
  Type *t = xcalloc(1, sizeof *t);
  t->kind = kind;
  t->tag = g;
  t->bound_lt = t->params_lt = t->spell_lt = -1;
  return t;
}

static Sym *declare(Spec *s, Decl *d, int spec_ft, int spec_lt)
{
  if (!d || d->ident < 0) return NULL;
  int kind = s->storage == ST_TYPEDEF ? SYM_TYPEDEF : d->kind == DK_FUNC ? SYM_FUNC : SYM_VAR;
  Sym *y = scope_declare(toks[d->ident].text, kind, d->ident);
  y->is_static = s->storage == ST_STATIC;
  y->is_extern = s->storage == ST_EXTERN;
  y->is_thread = s->is_thread;
  y->type = decl_type(spec_type(s, d->ident), d);
  if (kr_decls && kind != SYM_TYPEDEF) { y->type = param_adjust(y->type); y->is_param = 1; y->kind = SYM_VAR; }
  y->spec_ft = spec_ft;
  y->spec_lt = spec_lt;
  y->decl_ft = d->ft;
  y->decl_lt = d->lt;
  toks[d->ident].sym = y;
  return y;
}

static void use_ident(int t)
{
  toks[t].sym = scope_lookup(toks[t].text);
  toks[t].is_use = 1;
}

static Node *omp_node(int t, int ft, int lt, Node *body)
{
  Node *n = node_new(N_OMP, ft, lt);
  n->body = body;
  n->omp = omp_parse(t);
  toks[t].node = n;
  return n;
}

static void begin_function(Spec *s, Decl *d, int sft, int slt, int ft)
{
  Sym *f = NULL;
  if (d && d->ident >= 0) {
    Decl tmp = *d;
    tmp.kind = DK_FUNC;
    f = declare(s, &tmp, sft, slt);
  }
  cur_func = node_new(N_FUNC, ft, ft);
  cur_func->fsym = f;
  cur_func->nparams = d ? d->nparams : 0;
  Type *ft_type = f ? f->type : NULL;
  cur_func->spec_void = ft_type && ft_type->kind == TY_FUNC && type_is_void(ft_type->base);
  scope_push();
  for (Param *p = d ? d->params : NULL; p; p = p->next) {
    Sym *y = declare(&p->spec, p->d, p->spec.ft, p->spec.lt);
    /* a parameter of function type is a pointer object (C11 6.7.6.3p8) */
    if (y) { y->is_param = 1; y->type = param_adjust(y->type); y->kind = SYM_VAR; }
  }
  kr_decls = d && d->kr;
  cur_func->kr_first = d && d->kr ? d->kr_first : -1;
}

/* After a K&R definition's declaration list: a name in the identifier list
   that no declaration gave a type is an int (C90 6.7.1). */
static void end_kr_decls(void)
{
  if (!kr_decls) return;
  kr_decls = 0;
  for (int i = cur_func->kr_first, n = 0; n < cur_func->nparams; i += 2, n++) {
    Sym *y = scope_lookup(toks[i].text);
    if (y && y->depth == scope_depth() && y->is_param) continue;
    Spec none = { 0 };
    Decl *d = decl_new(i, DK_IDENT);
    d->ft = d->lt = i;
    y = declare(&none, d, i, i - 1);
    if (y) y->is_param = 1;
  }
}

static void add_top(Node *n)
{
  if (!n) return;
  if (unit_last) unit_last->next = n; else unit_first = n;
  unit_last = n;
}
}

%token <t> IDENTIFIER TYPE_NAME CONSTANT STRING_LITERAL SIZEOF
%token <t> PTR_OP INC_OP DEC_OP LEFT_OP RIGHT_OP LE_OP GE_OP EQ_OP NE_OP
%token <t> AND_OP OR_OP MUL_ASSIGN DIV_ASSIGN MOD_ASSIGN ADD_ASSIGN
%token <t> SUB_ASSIGN LEFT_ASSIGN RIGHT_ASSIGN AND_ASSIGN XOR_ASSIGN OR_ASSIGN
%token <t> TYPEDEF EXTERN STATIC AUTO REGISTER INLINE THREAD_LOCAL
%token <t> CHAR SHORT INT LONG SIGNED UNSIGNED FLOAT DOUBLE VOID BOOL COMPLEX EXTTYPE
%token <t> CONST RESTRICT VOLATILE ATOMIC
%token <t> STRUCT UNION ENUM ELLIPSIS
%token <t> CASE DEFAULT IF ELSE SWITCH WHILE DO FOR GOTO CONTINUE BREAK RETURN
%token <t> ALIGNAS ALIGNOF GENERIC STATIC_ASSERT TYPEOF
%token <t> BUILTIN_VA_ARG BUILTIN_OFFSETOF BUILTIN_TYPES_COMPAT REALIMAG
%token <t> OMP_CONSTRUCT OMP_STANDALONE
%token <t> ';' '{' '}' ',' ':' '=' '(' ')' '[' ']' '.' '&' '!' '~' '-' '+' '*' '/' '%' '<' '>' '^' '|' '?'

%type <spec> declaration_specifiers declaration_specifier storage_class_specifier type_specifier
%type <spec> init_declarator_list
%type <spec> type_qualifier specifier_qualifier_list type_qualifier_list function_specifier
%type <d> declarator direct_declarator declarator_decl
%type <op> pointer
%type <ty> struct_or_union_specifier enum_specifier
%type <t> struct_or_union
%type <p> parameter_type_list parameter_list parameter_declaration
%type <n> statement compound_statement block_item_list block_item labeled_statement
%type <n> expression_statement selection_statement iteration_statement jump_statement
%type <n> omp_statement for_open

%initial-action { @$.ft = 0; @$.lt = -1; }

%start translation_unit

%%

/* ---------------- expressions ---------------- */
primary_expression
  : IDENTIFIER                       { use_ident($1); }
  | CONSTANT
  | string
  | '(' expression ')'
  | '(' compound_statement ')'       /* GNU statement expression */
  | generic_selection
  | BUILTIN_VA_ARG '(' assignment_expression ',' type_name ')'
  | BUILTIN_OFFSETOF '(' type_name ',' offsetof_designator ')'
  | BUILTIN_TYPES_COMPAT '(' type_name ',' type_name ')'
  ;

string : STRING_LITERAL | string STRING_LITERAL ;

member_name
  : IDENTIFIER  { toks[$1].is_member = 1; }
  | TYPE_NAME   { toks[$1].is_member = 1; }
  ;

offsetof_designator
  : member_name
  | offsetof_designator '.' member_name
  | offsetof_designator '[' expression ']'
  ;

generic_selection : GENERIC '(' assignment_expression ',' generic_assoc_list ')' ;
generic_assoc_list : generic_association | generic_assoc_list ',' generic_association ;
generic_association : type_name ':' assignment_expression | DEFAULT ':' assignment_expression ;

postfix_expression
  : primary_expression
  | postfix_expression '[' expression ']'
  | postfix_expression '(' ')'
  | postfix_expression '(' argument_expression_list ')'
  | postfix_expression '.' member_name
  | postfix_expression PTR_OP member_name
  | postfix_expression INC_OP
  | postfix_expression DEC_OP
  | '(' type_name ')' '{' initializer_list '}'
  | '(' type_name ')' '{' initializer_list ',' '}'
  | '(' type_name ')' '{' '}'
  ;

argument_expression_list : assignment_expression | argument_expression_list ',' assignment_expression ;

unary_expression
  : postfix_expression
  | INC_OP unary_expression
  | DEC_OP unary_expression
  | unary_operator cast_expression
  | SIZEOF unary_expression
  | SIZEOF '(' type_name ')'
  | ALIGNOF '(' type_name ')'
  | ALIGNOF unary_expression
  | REALIMAG cast_expression
  | AND_OP IDENTIFIER   { error_at($1, "labels as values (&&label) are not supported"); }
  ;

unary_operator : '&' | '*' | '+' | '-' | '~' | '!' ;

cast_expression : unary_expression | '(' type_name ')' cast_expression ;

multiplicative_expression
  : cast_expression
  | multiplicative_expression '*' cast_expression
  | multiplicative_expression '/' cast_expression
  | multiplicative_expression '%' cast_expression
  ;
additive_expression
  : multiplicative_expression
  | additive_expression '+' multiplicative_expression
  | additive_expression '-' multiplicative_expression
  ;
shift_expression
  : additive_expression
  | shift_expression LEFT_OP additive_expression
  | shift_expression RIGHT_OP additive_expression
  ;
relational_expression
  : shift_expression
  | relational_expression '<' shift_expression
  | relational_expression '>' shift_expression
  | relational_expression LE_OP shift_expression
  | relational_expression GE_OP shift_expression
  ;
equality_expression
  : relational_expression
  | equality_expression EQ_OP relational_expression
  | equality_expression NE_OP relational_expression
  ;
and_expression : equality_expression | and_expression '&' equality_expression ;
exclusive_or_expression : and_expression | exclusive_or_expression '^' and_expression ;
inclusive_or_expression : exclusive_or_expression | inclusive_or_expression '|' exclusive_or_expression ;
logical_and_expression : inclusive_or_expression | logical_and_expression AND_OP inclusive_or_expression ;
logical_or_expression : logical_and_expression | logical_or_expression OR_OP logical_and_expression ;
conditional_expression
  : logical_or_expression
  | logical_or_expression '?' expression ':' conditional_expression
  | logical_or_expression '?' ':' conditional_expression
  ;
assignment_expression
  : conditional_expression
  | unary_expression assignment_operator assignment_expression
  ;
assignment_operator
  : '=' | MUL_ASSIGN | DIV_ASSIGN | MOD_ASSIGN | ADD_ASSIGN | SUB_ASSIGN
  | LEFT_ASSIGN | RIGHT_ASSIGN | AND_ASSIGN | XOR_ASSIGN | OR_ASSIGN
  ;
expression : assignment_expression | expression ',' assignment_expression ;
constant_expression : conditional_expression ;
expression_opt : %empty | expression ;

/* ---------------- declarations ---------------- */
declaration
  : declaration_specifiers ';'
  | declaration_specifiers init_declarator_list ';'
  | static_assert_declaration
  ;

static_assert_declaration
  : STATIC_ASSERT '(' constant_expression ',' string ')' ';'
  | STATIC_ASSERT '(' constant_expression ')' ';'
  ;

declaration_specifiers
  : declaration_specifier                         { $$ = $1; $$.ft = @$.ft; $$.lt = @$.lt; }
  | declaration_specifiers declaration_specifier  { $$ = spec_merge($1, $2); $$.ft = @$.ft; $$.lt = @$.lt; }
  ;

declaration_specifier
  : storage_class_specifier
  | type_specifier
  | type_qualifier
  | function_specifier
  | ALIGNAS '(' type_name ')'            { $$ = spec_of(0, 0); }
  | ALIGNAS '(' constant_expression ')'  { $$ = spec_of(0, 0); }
  ;

/* The declarators of one declaration need its specifiers: bison's $0 reaches
   them because init_declarator_list always follows declaration_specifiers. */
init_declarator_list
  : init_declarator                                               { $$ = $<spec>0; }
  | init_declarator_list ',' { $<spec>$ = $1; } init_declarator  { $$ = $1; (void)$<spec>3; }
  ;

init_declarator
  : declarator_decl
  | declarator_decl '=' initializer   { Sym *y = toks[$1->ident].sym; if (y) y->has_init = 1; }
  ;

declarator_decl
  : declarator {
      Spec *s = &$<spec>0;
      $$ = $1;
      /* $<spec>0 is the declaration's specifiers: either the
         declaration_specifiers themselves or the copy init_declarator_list
         leaves in front of each later declarator. */
      Sym *y = declare(s, $1, s->ft, s->lt);
      if (y && y->kind == SYM_VAR && (y->depth == 0 || y->is_static))
        { toks[$1->lt].attr_sym = y; }
    }
  ;

storage_class_specifier
  : TYPEDEF        { $$ = spec_of(ST_TYPEDEF, 0); }
  | EXTERN         { $$ = spec_of(ST_EXTERN, 0); }
  | STATIC         { $$ = spec_of(ST_STATIC, 0); }
  | THREAD_LOCAL   { $$ = spec_of(0, 1); }
  | AUTO           { $$ = spec_of(ST_AUTO, 0); }
  | REGISTER       { $$ = spec_of(ST_REGISTER, 0); }
  ;

type_specifier
  : VOID           { $$ = spec_kw(K_VOID); }
  | CHAR           { $$ = spec_kw(K_CHAR); }
  | SHORT          { $$ = spec_kw(K_SHORT); }
  | INT            { $$ = spec_kw(K_INT); }
  | LONG           { $$ = spec_kw(-1); }
  | FLOAT          { $$ = spec_kw(K_FLOAT); }
  | DOUBLE         { $$ = spec_kw(K_DOUBLE); }
  | SIGNED         { $$ = spec_kw(K_SIGNED); }
  | UNSIGNED       { $$ = spec_kw(K_UNSIGNED); }
  | BOOL           { $$ = spec_kw(K_BOOL); }
  | COMPLEX        { $$ = spec_kw(K_COMPLEX); }
  | EXTTYPE        { $$ = spec_kw(K_OTHER); }
  | struct_or_union_specifier { $$ = spec_ty($1); }
  | enum_specifier { $$ = spec_ty($1); }
  | TYPE_NAME      { Sym *td = scope_lookup(toks[$1].text); toks[$1].sym = td;
                     $$ = td ? spec_ty(type_of_typedef(td, 0)) : spec_kw(K_INT); }
  | TYPEOF '(' expression ')'  { $$ = spec_kw(K_OTHER); }
  | TYPEOF '(' type_name ')'   { $$ = spec_kw(K_OTHER); }
  ;

struct_or_union_specifier
  : struct_or_union '{' struct_declaration_list_opt '}'                 { $$ = tag_type($1, -1, @$.ft, @$.lt); }
  | struct_or_union IDENTIFIER '{' struct_declaration_list_opt '}'      { $$ = tag_type($1, $2, @$.ft, @$.lt); }
  | struct_or_union TYPE_NAME '{' struct_declaration_list_opt '}'       { $$ = tag_type($1, $2, @$.ft, @$.lt); }
  | struct_or_union IDENTIFIER                                          { $$ = tag_type($1, $2, -1, -1); }
  | struct_or_union TYPE_NAME                                           { $$ = tag_type($1, $2, -1, -1); }
  ;

struct_or_union : STRUCT { $$ = $1; } | UNION { $$ = $1; } ;

struct_declaration_list_opt : %empty | struct_declaration_list_opt struct_declaration ;

struct_declaration
  : specifier_qualifier_list ';'
  | specifier_qualifier_list struct_declarator_list ';'
  | static_assert_declaration
  | ';'
  ;

specifier_qualifier_list
  : type_specifier specifier_qualifier_list   { $$ = spec_merge($1, $2); }
  | type_specifier
  | type_qualifier specifier_qualifier_list   { $$ = spec_merge($1, $2); }
  | type_qualifier
  ;

struct_declarator_list : struct_declarator | struct_declarator_list ',' struct_declarator ;

struct_declarator
  : declarator                          { }
  | ':' constant_expression
  | declarator ':' constant_expression  { }
  ;

enum_specifier
  : ENUM '{' enumerator_list '}'                   { $$ = tag_type($1, -1, @$.ft, @$.lt); }
  | ENUM '{' enumerator_list ',' '}'               { $$ = tag_type($1, -1, @$.ft, @$.lt); }
  | ENUM IDENTIFIER '{' enumerator_list '}'        { $$ = tag_type($1, $2, @$.ft, @$.lt); }
  | ENUM IDENTIFIER '{' enumerator_list ',' '}'    { $$ = tag_type($1, $2, @$.ft, @$.lt); }
  | ENUM TYPE_NAME '{' enumerator_list '}'         { $$ = tag_type($1, $2, @$.ft, @$.lt); }
  | ENUM TYPE_NAME '{' enumerator_list ',' '}'     { $$ = tag_type($1, $2, @$.ft, @$.lt); }
  | ENUM IDENTIFIER                                { $$ = tag_type($1, $2, -1, -1); }
  | ENUM TYPE_NAME                                 { $$ = tag_type($1, $2, -1, -1); }
  ;

enumerator_list : enumerator | enumerator_list ',' enumerator ;

enumerator
  : IDENTIFIER                          { Sym *y = scope_declare(toks[$1].text, SYM_ENUMC, $1); toks[$1].sym = y; }
  | IDENTIFIER '=' constant_expression  { Sym *y = scope_declare(toks[$1].text, SYM_ENUMC, $1); toks[$1].sym = y; }
  ;

type_qualifier
  : CONST     { $$ = spec_qual(Q_CONST); }
  | RESTRICT  { $$ = spec_qual(Q_RESTRICT); }
  | VOLATILE  { $$ = spec_qual(Q_VOLATILE); }
  | ATOMIC    { $$ = spec_qual(Q_ATOMIC); }
  ;

function_specifier : INLINE { $$ = spec_of(0, 0); } ;

declarator
  : pointer direct_declarator {
      $$ = $2; $$->ft = @$.ft; $$->lt = @$.lt;
      if ($$->kind == DK_IDENT) $$->kind = DK_OBJ;
      decl_append($$, $1);
    }
  | direct_declarator  { $$ = $1; $$->ft = @$.ft; $$->lt = @$.lt; }
  ;

direct_declarator
  : IDENTIFIER                 { $$ = decl_new($1, DK_IDENT); }
  | '(' declarator ')'         { $$ = $2; }
  | direct_declarator '[' array_size ']'  {
      $$ = $1; if ($$->kind == DK_IDENT) $$->kind = DK_OBJ;
      decl_append($$, array_op(@3.ft, @3.lt));
    }
  | direct_declarator '(' parameter_type_list ')' {
      $$ = $1;
      if ($$->kind == DK_IDENT) {
        $$->kind = DK_FUNC; $$->params = $3;
        int n = 0; for (Param *p = $3; p; p = p->next) n++;
        $$->nparams = n;
      }
      decl_append($$, dop_new(DO_FUNC, 0, @2.ft, @4.lt));
    }
  | direct_declarator '(' ')'  {
      $$ = $1; if ($$->kind == DK_IDENT) $$->kind = DK_FUNC;
      decl_append($$, dop_new(DO_FUNC, 0, @2.ft, @3.lt));
    }
  | direct_declarator '(' identifier_list ')' {
      $$ = $1;
      if ($$->kind == DK_IDENT) {
        $$->kind = DK_FUNC; $$->kr = 1; $$->kr_first = @3.ft;
        $$->nparams = (@3.lt - @3.ft) / 2 + 1;
      }
      decl_append($$, dop_new(DO_FUNC, 0, @2.ft, @4.lt));
    }
  ;

array_size
  : %empty
  | '*'
  | assignment_expression
  | type_qualifier_list assignment_expression
  | type_qualifier_list
  | STATIC assignment_expression
  | STATIC type_qualifier_list assignment_expression
  | type_qualifier_list STATIC assignment_expression
  ;

/* A pointer chain, as derivations from the name outward: in "* const * p"
   the '*' next to p comes first. */
pointer
  : '*'                                { $$ = dop_new(DO_PTR, 0, @1.ft, @1.lt); }
  | '*' type_qualifier_list            { $$ = dop_new(DO_PTR, $2.qual, @1.ft, @2.lt); }
  | '*' pointer                        { $$ = $2; DOp *o = $2; while (o->next) o = o->next; o->next = dop_new(DO_PTR, 0, @1.ft, @1.lt); }
  | '*' type_qualifier_list pointer    { $$ = $3; DOp *o = $3; while (o->next) o = o->next; o->next = dop_new(DO_PTR, $2.qual, @1.ft, @2.lt); }
  ;

type_qualifier_list
  : type_qualifier
  | type_qualifier_list type_qualifier { $$ = spec_merge($1, $2); }
  ;

parameter_type_list
  : parameter_list
  | parameter_list ',' ELLIPSIS
  ;

parameter_list
  : parameter_declaration
  | parameter_list ',' parameter_declaration {
      $$ = $1; Param *p = $1; while (p && p->next) p = p->next;
      if (p) p->next = $3; else $$ = $3;
    }
  ;

parameter_declaration
  : declaration_specifiers declarator {
      $$ = xcalloc(1, sizeof *$$); $$->spec = $1; $$->spec.ft = @1.ft; $$->spec.lt = @1.lt; $$->d = $2;
    }
  | declaration_specifiers abstract_declarator { $$ = NULL; }
  | declaration_specifiers                     { $$ = NULL; }
  ;

identifier_list : IDENTIFIER | identifier_list ',' IDENTIFIER ;

type_name
  : specifier_qualifier_list
  | specifier_qualifier_list abstract_declarator
  ;

abstract_declarator
  : pointer
  | direct_abstract_declarator
  | pointer direct_abstract_declarator
  ;

direct_abstract_declarator
  : '(' abstract_declarator ')'
  | '[' array_size ']'
  | direct_abstract_declarator '[' array_size ']'
  | '(' ')'
  | '(' parameter_type_list ')'
  | direct_abstract_declarator '(' ')'
  | direct_abstract_declarator '(' parameter_type_list ')'
  ;

initializer
  : '{' initializer_list '}'
  | '{' initializer_list ',' '}'
  | '{' '}'
  | assignment_expression
  ;

initializer_list
  : designation initializer
  | initializer
  | initializer_list ',' designation initializer
  | initializer_list ',' initializer
  ;

designation : designator_list '=' | member_name ':' ;

designator_list : designator | designator_list designator ;

designator
  : '[' constant_expression ']'
  | '[' constant_expression ELLIPSIS constant_expression ']'
  | '.' member_name
  ;

/* ---------------- statements ---------------- */
statement
  : labeled_statement
  | compound_statement
  | expression_statement
  | selection_statement
  | iteration_statement
  | jump_statement
  | omp_statement
  ;

omp_statement
  : OMP_CONSTRUCT statement  { $$ = omp_node($1, @$.ft, @$.lt, $2); }
  | OMP_STANDALONE           { $$ = omp_node($1, @$.ft, @$.lt, NULL); }
  ;

labeled_statement
  : IDENTIFIER ':' statement                  { $$ = node_new(N_OTHER, @$.ft, @$.lt); node_add($$, $3); }
  | TYPE_NAME ':' statement                   { $$ = node_new(N_OTHER, @$.ft, @$.lt); node_add($$, $3); }
  | CASE constant_expression ':' statement    { $$ = node_new(N_OTHER, @$.ft, @$.lt); node_add($$, $4); }
  | CASE constant_expression ELLIPSIS constant_expression ':' statement { $$ = node_new(N_OTHER, @$.ft, @$.lt); node_add($$, $6); }
  | DEFAULT ':' statement                     { $$ = node_new(N_OTHER, @$.ft, @$.lt); node_add($$, $3); }
  ;

compound_statement
  : '{' { scope_push(); } block_item_list '}'  { scope_pop(); $$ = $3; $$->kind = N_COMPOUND; $$->ft = @$.ft; $$->lt = @$.lt; }
  ;

block_item_list
  : %empty                      { $$ = node_new(N_COMPOUND, @$.ft, @$.lt); }
  | block_item_list block_item  { $$ = $1; node_add($$, $2); }
  ;

block_item
  : declaration   { $$ = NULL; }
  | statement
  ;

expression_statement
  : ';'             { $$ = node_new(N_OTHER, @$.ft, @$.lt); }
  | expression ';'  { $$ = node_new(N_OTHER, @$.ft, @$.lt); }
  ;

selection_statement
  : IF '(' expression ')' statement                 { $$ = node_new(N_OTHER, @$.ft, @$.lt); node_add($$, $5); }
  | IF '(' expression ')' statement ELSE statement  { $$ = node_new(N_OTHER, @$.ft, @$.lt); node_add($$, $5); node_add($$, $7); }
  | SWITCH '(' expression ')' statement             { $$ = node_new(N_OTHER, @$.ft, @$.lt); node_add($$, $5); }
  ;

for_open : FOR '(' { scope_push(); $$ = NULL; } ;

iteration_statement
  : WHILE '(' expression ')' statement              { $$ = node_new(N_OTHER, @$.ft, @$.lt); node_add($$, $5);
                                                      omp_sync_mark_spin(@$.ft, @$.lt, @5.ft, @5.lt); }
  | DO statement WHILE '(' expression ')' ';'       { $$ = node_new(N_OTHER, @$.ft, @$.lt); node_add($$, $2);
                                                      omp_sync_mark_spin(@$.ft, @$.lt, @2.ft, @2.lt); }
  | for_open expression_opt ';' expression_opt ';' expression_opt ')' statement {
      scope_pop();
      $$ = node_new(N_FOR, @$.ft, @$.lt);
      $$->ift = @2.ft; $$->ilt = @2.lt; $$->cft = @4.ft; $$->clt = @4.lt; $$->sft = @6.ft; $$->slt = @6.lt;
      $$->body = $8; node_add($$, $8);
    }
  | for_open declaration expression_opt ';' expression_opt ')' statement {
      scope_pop();
      $$ = node_new(N_FOR, @$.ft, @$.lt);
      $$->ift = @2.ft; $$->ilt = @2.lt - 1; $$->init_decl = 1;
      $$->cft = @3.ft; $$->clt = @3.lt; $$->sft = @5.ft; $$->slt = @5.lt;
      $$->body = $7; node_add($$, $7);
    }
  ;

jump_statement
  : GOTO IDENTIFIER ';'     { $$ = node_new(N_OTHER, @$.ft, @$.lt); }
  | GOTO '*' expression ';' { error_at($1, "computed goto is not supported"); $$ = node_new(N_OTHER, @$.ft, @$.lt); }
  | CONTINUE ';'            { $$ = node_new(N_OTHER, @$.ft, @$.lt); }
  | BREAK ';'               { $$ = node_new(N_OTHER, @$.ft, @$.lt); }
  | RETURN ';'              { $$ = node_new(N_OTHER, @$.ft, @$.lt); }
  | RETURN expression ';'   { $$ = node_new(N_OTHER, @$.ft, @$.lt); }
  ;

/* ---------------- top level ---------------- */
translation_unit : %empty | translation_unit external_declaration ;

external_declaration
  : function_definition
  | declaration
  | OMP_STANDALONE   { add_top(omp_node($1, @$.ft, @$.lt, NULL)); }
  | OMP_CONSTRUCT    { error_at($1, "'#pragma omp %s' is not allowed at file scope", toks[$1].text); }
  | ';'
  ;

function_definition
  : declaration_specifiers declarator { begin_function(&$1, $2, @1.ft, @1.lt, @1.ft); }
    declaration_list_opt { end_kr_decls(); } compound_statement {
      scope_pop();
      cur_func->lt = @$.lt;
      cur_func->body = $6;
      add_top(cur_func);
      cur_func = NULL;
    }
  /* implicit int: "main(argc, argv) int argc; char **argv; { ... }" */
  | declarator { Spec none = { 0 }; none.ft = @1.ft; none.lt = @1.ft - 1; begin_function(&none, $1, @1.ft, @1.ft - 1, @1.ft); }
    declaration_list_opt { end_kr_decls(); } compound_statement {
      scope_pop();
      cur_func->lt = @$.lt;
      cur_func->body = $5;
      add_top(cur_func);
      cur_func = NULL;
    }
  ;

declaration_list_opt : %empty | declaration_list_opt declaration ;

%%

int parse_file(FILE *in)
{
  void *lex_open(FILE *in);
  void lex_close(void *scanner);
  void *s = lex_open(in);
  int r = cc_parse(s);
  lex_close(s);
  return r || nerrors;
}
