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
typedef struct CC_LTYPE { int ft, lt, unused1_, unused2_; } CC_LTYPE;
#define CC_LTYPE_IS_DECLARED 1
#define CC_LTYPE_IS_TRIVIAL 1
#define YYLLOC_DEFAULT(Cur, Rhs, N) do { if (N) { (Cur).ft = YYRHSLOC(Rhs, 1).ft; (Cur).lt = YYRHSLOC(Rhs, N).lt; } \
  else { (Cur).ft = YYRHSLOC(Rhs, 0).lt + 1; (Cur).lt = YYRHSLOC(Rhs, 0).lt; } } while (0)
enum { ST_NONE, ST_TYPEDEF, ST_EXTERN, ST_STATIC, ST_AUTO, ST_REGISTER };
enum { DK_IDENT, DK_FUNC, DK_OBJ };
typedef struct Spec { int storage, is_const, is_thread, is_void, ft, lt; } Spec;
typedef struct Param Param;
typedef struct Decl { int ident, kind, ft, lt, ptr, const_ptr, nparams; Param *params; } Decl;
struct Param { Spec spec; Decl *d; Param *next; };
}

%union {
  int t;
  Node *n;
  Decl *d;
  Spec spec;
  Param *p;
  int flag;
}

%code {
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

static Spec spec_merge(Spec a, Spec b)
{
  Spec r = a;
  if (b.storage) r.storage = b.storage;
  r.is_const |= b.is_const;
  r.is_thread |= b.is_thread;
  r.is_void |= b.is_void;
  return r;
}

static Spec spec_of(int storage, int is_const, int is_thread, int is_void)
{
  Spec s = { storage, is_const, is_thread, is_void, 0, 0 };
  return s;
}

static Decl *decl_new(int ident, int kind)
{
  Decl *d = xcalloc(1, sizeof *d);
  d->ident = ident;
  d->kind = kind;
  return d;
}

static Sym *declare(Spec *s, Decl *d, int spec_ft, int spec_lt)
{
  if (!d || d->ident < 0) return NULL;
  int kind = s->storage == ST_TYPEDEF ? SYM_TYPEDEF : d->kind == DK_FUNC ? SYM_FUNC : SYM_VAR;
  Sym *y = scope_declare(toks[d->ident].text, kind, d->ident);
  y->is_static = s->storage == ST_STATIC;
  y->is_extern = s->storage == ST_EXTERN;
  y->is_thread = s->is_thread;
  y->is_const = (s->is_const && !d->ptr) || d->const_ptr;
  y->is_ptr_or_array = d->ptr || d->kind == DK_OBJ;
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
  cur_func->spec_void = s->is_void && d && !d->ptr;
  scope_push();
  for (Param *p = d ? d->params : NULL; p; p = p->next) {
    Sym *y = declare(&p->spec, p->d, p->spec.ft, p->spec.lt);
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
%type <flag> pointer
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
  | ALIGNAS '(' type_name ')'            { $$ = spec_of(0, 0, 0, 0); }
  | ALIGNAS '(' constant_expression ')'  { $$ = spec_of(0, 0, 0, 0); }
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
  : TYPEDEF        { $$ = spec_of(ST_TYPEDEF, 0, 0, 0); }
  | EXTERN         { $$ = spec_of(ST_EXTERN, 0, 0, 0); }
  | STATIC         { $$ = spec_of(ST_STATIC, 0, 0, 0); }
  | THREAD_LOCAL   { $$ = spec_of(0, 0, 1, 0); }
  | AUTO           { $$ = spec_of(ST_AUTO, 0, 0, 0); }
  | REGISTER       { $$ = spec_of(ST_REGISTER, 0, 0, 0); }
  ;

type_specifier
  : VOID           { $$ = spec_of(0, 0, 0, 1); }
  | CHAR           { $$ = spec_of(0, 0, 0, 0); }
  | SHORT          { $$ = spec_of(0, 0, 0, 0); }
  | INT            { $$ = spec_of(0, 0, 0, 0); }
  | LONG           { $$ = spec_of(0, 0, 0, 0); }
  | FLOAT          { $$ = spec_of(0, 0, 0, 0); }
  | DOUBLE         { $$ = spec_of(0, 0, 0, 0); }
  | SIGNED         { $$ = spec_of(0, 0, 0, 0); }
  | UNSIGNED       { $$ = spec_of(0, 0, 0, 0); }
  | BOOL           { $$ = spec_of(0, 0, 0, 0); }
  | COMPLEX        { $$ = spec_of(0, 0, 0, 0); }
  | EXTTYPE        { $$ = spec_of(0, 0, 0, 0); }
  | struct_or_union_specifier { $$ = spec_of(0, 0, 0, 0); }
  | enum_specifier { $$ = spec_of(0, 0, 0, 0); }
  | TYPE_NAME      { $$ = spec_of(0, 0, 0, 0); }
  | TYPEOF '(' expression ')'  { $$ = spec_of(0, 0, 0, 0); }
  | TYPEOF '(' type_name ')'   { $$ = spec_of(0, 0, 0, 0); }
  ;

struct_or_union_specifier
  : struct_or_union '{' struct_declaration_list_opt '}'
  | struct_or_union IDENTIFIER '{' struct_declaration_list_opt '}'
  | struct_or_union TYPE_NAME '{' struct_declaration_list_opt '}'
  | struct_or_union IDENTIFIER
  | struct_or_union TYPE_NAME
  ;

struct_or_union : STRUCT | UNION ;

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
  : ENUM '{' enumerator_list '}'
  | ENUM '{' enumerator_list ',' '}'
  | ENUM IDENTIFIER '{' enumerator_list '}'
  | ENUM IDENTIFIER '{' enumerator_list ',' '}'
  | ENUM TYPE_NAME '{' enumerator_list '}'
  | ENUM TYPE_NAME '{' enumerator_list ',' '}'
  | ENUM IDENTIFIER
  | ENUM TYPE_NAME
  ;

enumerator_list : enumerator | enumerator_list ',' enumerator ;

enumerator
  : IDENTIFIER                          { Sym *y = scope_declare(toks[$1].text, SYM_ENUMC, $1); toks[$1].sym = y; }
  | IDENTIFIER '=' constant_expression  { Sym *y = scope_declare(toks[$1].text, SYM_ENUMC, $1); toks[$1].sym = y; }
  ;

type_qualifier
  : CONST     { $$ = spec_of(0, 1, 0, 0); }
  | RESTRICT  { $$ = spec_of(0, 0, 0, 0); }
  | VOLATILE  { $$ = spec_of(0, 0, 0, 0); }
  | ATOMIC    { $$ = spec_of(0, 0, 0, 0); }
  ;

function_specifier : INLINE { $$ = spec_of(0, 0, 0, 0); } ;

declarator
  : pointer direct_declarator {
      $$ = $2; $$->ft = @$.ft; $$->lt = @$.lt;
      if ($$->kind == DK_IDENT) { $$->kind = DK_OBJ; $$->ptr = 1; $$->const_ptr = $1; }
    }
  | direct_declarator  { $$ = $1; $$->ft = @$.ft; $$->lt = @$.lt; }
  ;

direct_declarator
  : IDENTIFIER                 { $$ = decl_new($1, DK_IDENT); }
  | '(' declarator ')'         { $$ = $2; }
  | direct_declarator '[' array_size ']'  { $$ = $1; if ($$->kind == DK_IDENT) $$->kind = DK_OBJ; }
  | direct_declarator '(' parameter_type_list ')' {
      $$ = $1;
      if ($$->kind == DK_IDENT) {
        $$->kind = DK_FUNC; $$->params = $3;
        int n = 0; for (Param *p = $3; p; p = p->next) n++;
        $$->nparams = n;
      }
    }
  | direct_declarator '(' ')'  { $$ = $1; if ($$->kind == DK_IDENT) $$->kind = DK_FUNC; }
  | direct_declarator '(' identifier_list ')' { $$ = $1; if ($$->kind == DK_IDENT) $$->kind = DK_FUNC; }
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

pointer
  : '*'                                { $$ = 0; }
  | '*' type_qualifier_list            { $$ = $2.is_const; }
  | '*' pointer                        { $$ = $2; }
  | '*' type_qualifier_list pointer    { $$ = $3; }
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
  : WHILE '(' expression ')' statement              { $$ = node_new(N_OTHER, @$.ft, @$.lt); node_add($$, $5); }
  | DO statement WHILE '(' expression ')' ';'       { $$ = node_new(N_OTHER, @$.ft, @$.lt); node_add($$, $2); }
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
    declaration_list_opt compound_statement {
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
