/*
 * ir.h — the compiler's shared data: the token array, symbols, scopes,
 * statement nodes and OpenMP directives.
 *
 * Why tokens are the IR's leaves: ompdsmcc is a source-to-source translator
 * whose output must be exactly the user's C except where OpenMP constructs
 * are lowered. Every node records the span of tokens it covers; the emitter
 * prints those tokens back (with #line markers) and splices generated code
 * in place of OpenMP constructs. Identifier tokens are resolved to symbols
 * during parsing, so the lowering knows which names are locals, globals or
 * shadows without a separate expression tree.
 */
#ifndef OMPDSMCC_IR_H
#define OMPDSMCC_IR_H

#include <stdio.h>
#include <stddef.h>

typedef struct Sym Sym;
typedef struct Node Node;
typedef struct Omp Omp;
typedef struct HaloSub HaloSub;
typedef struct HaloRead HaloRead;
typedef struct Type Type;
typedef struct Tag Tag;

typedef struct Token {
  int kind;          /* bison token number */
  char *text;
  int file, line, col;
  /* From a system header, or a system header's macro expanded in the
     user's code (cc -E marks `stderr` so, with flag 3, for that token only). */
  int sys;
  Sym *sym;          /* resolved symbol for identifier uses/declarations */
  char *pre;         /* text printed on its own line before the token (pragmas) */
  char *post;        /* text glued after the token (__attribute__, __asm__) */
  char *attr;        /* section attribute inserted after post (placement) */
  Sym *attr_sym;     /* the symbol that attr belongs to */
  Node *node;        /* an OpenMP node starting at this token */
  int omp_end;       /* for a directive token: last token of its clauses */
  int is_use;        /* identifier in expression position */
  int is_member;     /* identifier after . or -> */
  Tag *tag;          /* the tag a struct/union/enum name token refers to */
  int thread_before; /* print _Thread_local before it: the first specifier of a
                        declaration whose first declarator is threadprivate */
  Sym *split_sym;    /* a comma between declarators where one side is threadprivate
                        and the other is not: the declaration is split here (emit.c) */
  int tp_prev, tp_next; /* ... and which side of that comma is threadprivate */
  /* A statement the lowering follows with a call (a spin loop's end, the
     barrier of loops made nowait): "{" before its first token, and the
     call and "}" after its last, so it stays one statement wherever it is. */
  int wrap_open;
  const char *wrap_open_text;   /* after that "{", if set */
  const char *wrap_close;
  /* A spin loop on one word (omp_sync.c omp_mark_spin): the tokens of the
     lvalue its condition reads, whose address and size emit.c passes to
     __ompdsm_spin_watch after the "{" (lt 0: none). */
  int spin_watch_ft, spin_watch_lt;
} Token;

extern Token *toks;
extern int ntoks;
/* A new token, from a system header if lex_sys (the lexer's last line
   marker had flag 3). */
int tok_new(int kind, const char *text, int len, int file, int line, int col);
extern int lex_sys;
/* "=" or a compound assignment ("+=", "<<=", ...): a token kind that writes
   what stands before it. */
int is_assign_kind(int kind);

/* Files named by line markers. */
extern char **files;
extern int nfiles;
int file_intern(const char *name);

enum { SYM_VAR, SYM_TYPEDEF, SYM_FUNC, SYM_ENUMC };

struct Sym {
  char *name;
  int kind;
  int depth;            /* 0: file scope */
  int is_static, is_extern, is_thread, is_param, has_init;
  int spec_ft, spec_lt; /* declaration-specifier tokens */
  int decl_ft, decl_lt; /* declarator tokens */
  int ident;            /* token of the declared name */
  Type *type;           /* from type.c; parameters already adjusted */
  int threadprivate;
  int team_value;       /* holds (a variable) or returns (a function) a value
                           computed from the team's size or a thread number
                           (omp_outline.c, team_values) */
  Sym *next;            /* in its scope */
};

void scope_push(void);
void scope_pop(void);
int  scope_depth(void);
Sym *scope_declare(const char *name, int kind, int ident);
Sym *scope_lookup(const char *name);
/* The declaration of name visible at token position pos (ignores later ones). */
Sym *scope_lookup_before(const char *name, int pos);
int  scope_is_typedef(const char *name);
/* Tags (struct, union, enum names) have block scope like symbols. */
Tag *tag_lookup(const char *name, int this_scope_only);
Tag *tag_declare(const char *name, int kind, int tok);

/* ---- type.c: C types from declaration specifiers and declarators ---- */
enum { TY_VOID, TY_BOOL, TY_CHAR, TY_SHORT, TY_INT, TY_LONG, TY_LLONG, TY_FLOAT,
       TY_DOUBLE, TY_LDOUBLE, TY_OTHER, TY_STRUCT, TY_UNION, TY_ENUM,
       TY_PTR, TY_ARRAY, TY_FUNC };
enum { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4, Q_ATOMIC = 8 };

struct Type {
  int kind;
  int is_unsigned;
  int qual;               /* Q_*, of this type itself (a pointer's own const) */
  Type *base;             /* PTR: pointee; ARRAY: element; FUNC: return type */
  int bound_ft, bound_lt; /* ARRAY: the bound's tokens (empty: []) */
  int is_vla;             /* ARRAY: the bound is not a constant expression */
  int params_ft, params_lt; /* FUNC: "(" ... ")" as written */
  int spell_ft, spell_lt; /* OTHER: the specifier tokens that spell it */
  Tag *tag;               /* STRUCT, UNION, ENUM */
  Sym *tdef;              /* written as this typedef name (printing keeps it) */
};

struct Tag {
  char *name;             /* NULL: anonymous */
  int kind;               /* TY_STRUCT, TY_UNION, TY_ENUM */
  int depth;              /* 0: file scope */
  int tok;                /* where it was first named */
  int def_ft, def_lt;     /* "struct S { ... }" when defined, else -1 */
  Tag *next;              /* in its scope */
};

/* Declaration specifiers as the parser collects them. */
enum { ST_NONE, ST_TYPEDEF, ST_EXTERN, ST_STATIC, ST_AUTO, ST_REGISTER };
enum { K_VOID = 1, K_BOOL = 2, K_CHAR = 4, K_SHORT = 8, K_INT = 16, K_FLOAT = 32,
       K_DOUBLE = 64, K_SIGNED = 128, K_UNSIGNED = 256, K_COMPLEX = 512, K_OTHER = 1024 };
typedef struct Spec { int storage, is_thread, kw, nlong, qual, ft, lt; Type *ty; } Spec;

/* A declarator: the derivations from the name outward ("*a[3]": array,
   then pointer), applied to the specifiers' type in reverse. */
enum { DK_IDENT, DK_FUNC, DK_OBJ };
enum { DO_PTR, DO_ARRAY, DO_FUNC };
typedef struct Param Param;
typedef struct DOp { int kind, qual, ft, lt, is_vla; struct DOp *next; } DOp;
typedef struct Decl {
  int ident, kind, ft, lt, nparams;
  int kr, kr_first;       /* K&R "f(a, b)": the first name of the list */
  Param *params;
  DOp *ops, *last_op;
} Decl;
struct Param { Spec spec; Decl *d; Param *next; };

Type *spec_type(Spec *s, int report_tok);
Type *decl_type(Type *base, Decl *d);
Type *param_adjust(Type *t);
Type *type_of_typedef(Sym *td, int qual);
int  type_is_const_object(Type *t);   /* const-qualified, or an array of such */
int  type_is_scalar(Type *t);         /* arithmetic, enum or pointer */
int  type_is_void(Type *t);
int  type_has_vla(Type *t);
/* A declaration of name with type t, as C text. dims, when not NULL, give
   the text of each variable array bound, outermost first (see vla_dims). */
char *type_decl(Type *t, const char *name, char **dims);
/* The expressions, over the object expression x, that compute each
   variable bound of t at run time (sizeof ratios); returns their count. */
int  vla_dims(Type *t, const char *x, char **out, int max);
/* Replays, into o, the block-scope typedefs and tags that t needs, in
   source order, skipping those already in *done (a list it extends). */
typedef struct Replayed { int ft; struct Replayed *next; } Replayed;
void type_replay_deps(FILE *o, Type *t, Replayed **done);
/* The same for the names used in tokens a..b but declared before a. */
void type_replay_span_deps(FILE *o, int a, int b, Replayed **done);
int  type_needs_block_scope(Type *t); /* names a block-scope typedef or tag */

enum { N_OTHER, N_COMPOUND, N_FOR, N_OMP, N_FUNC, N_DECL };

struct Node {
  int kind;
  int ft, lt;            /* token span */
  Node *kids, *next;     /* children, in order */
  Node *last_kid;
  /* N_FOR: init, cond, incr spans (ft > lt when empty), init is a declaration */
  int ift, ilt, cft, clt, sft, slt, init_decl;
  Node *body;            /* N_FOR, N_OMP: the statement; N_FUNC: the compound */
  Omp *omp;              /* N_OMP */
  Sym *fsym;             /* N_FUNC: the function; params in fparams */
  int nparams;
  int spec_void;         /* N_FUNC: return type is void */
  int kr_first;          /* N_FUNC, K&R: first token of the identifier list, else -1 */
  char *lowered;         /* N_OMP (outermost): its C text, from lower.c */
  char *outlined;        /* N_FUNC: the regions outlined from it, from lower.c */
};

Node *node_new(int kind, int ft, int lt);
void node_add(Node *parent, Node *kid);

/* ---- OpenMP directives ---- */
enum { OMP_PARALLEL, OMP_FOR, OMP_PARALLEL_FOR, OMP_SECTIONS, OMP_PARALLEL_SECTIONS,
       OMP_SECTION, OMP_SINGLE, OMP_MASTER, OMP_CRITICAL, OMP_ATOMIC, OMP_BARRIER,
       OMP_FLUSH, OMP_ORDERED, OMP_THREADPRIVATE, OMP_TASKWAIT,
       OMP_SEMA_INIT, OMP_SEMA_WAIT, OMP_SEMA_SIGNAL,
       OMP_COND_WAIT, OMP_COND_SIGNAL, OMP_COND_BROADCAST,
       OMP_SERIAL,    /* simd, target, teams, distribute: the body runs as is */
       OMP_NOP,       /* declare simd/target, target update/enter/exit data */
       OMP_TASK, OMP_TASKLOOP, OMP_TASKGROUP, OMP_TASKYIELD,
       OMP_MASTER_TASKLOOP, OMP_PARALLEL_MASTER_TASKLOOP, OMP_PARALLEL_MASTER };

enum { DS_SHARED, DS_PRIVATE, DS_FIRSTPRIVATE, DS_LASTPRIVATE, DS_REDUCTION,
       DS_COPYIN, DS_COPYPRIVATE, DS_FIRSTLAST, DS_LINEAR };

typedef struct Span { int ft, lt; } Span;

typedef struct VarClause {
  Sym *sym;
  int kind;          /* DS_* */
  int op;            /* OMPDSM_RED_* for reductions */
  int tok;           /* where it was named */
  Span step;         /* DS_LINEAR: the step (empty: 1) */
  struct VarClause *next;
} VarClause;


/* A depend clause's list item: kind is OMPDSM_DEP_*; item is the whole
   locator; for an array section base[lo:len], sect is set and base, lo,
   len are its parts (lo or len empty: omitted). */
typedef struct Dep {
  int kind, tok, sect;
  Span item, base, lo, len;
  struct Dep *next;
} Dep;

struct Omp {
  int kind;
  int tok;                       /* the directive token */
  VarClause *vars;
  int deflt;                     /* -1 unset, 0 none, 1 shared, 2 private, 3 firstprivate */
  Span num_threads, if_expr, chunk;
  int sched;                     /* OMPDSM_SCHED_*, -1 unset */
  int collapse, ordered, nowait;
  int sched_nonmonotonic;        /* schedule(nonmonotonic: ...): a hint */
  int order_concurrent;          /* order(concurrent): any order will do, as here */
  int ends_region;               /* the worksharing half of a combined construct: its
                                    end is the region's join, which carries reductions */
  char *name;                    /* critical name; sema/cond name */
  char *spelled;                 /* the directive's words, for notes */
  int ext;                       /* has simd/target/teams/distribute/loop words */
  int spin;                      /* flush: in a loop whose body is only flushes */
  int nowait_inferred;           /* for: its barrier is not needed (omp_nowait.c) */
  /* omp_nowait.c's halo vectors: the arrays whose uses in this loop are
     of each thread's own copy, __ompdsm_halo_NAME; in the loop that writes
     them, the loops that read them and how far from their own index. */
  struct HaloSub { Sym *arr; int written; struct HaloSub *next; } *halo_subs;
  struct HaloRead { Node *loop; int lo, hi; struct HaloRead *next; } *halo_reads;
  int halo_writer;
  Span index, value;             /* sema/cond index and sema_init value */
  Span hint;                     /* critical, atomic: hint(expr) */
  /* tasks */
  Span final_expr, priority, grainsize, num_tasks;
  int untied, mergeable, nogroup, grain_strict;
  int simd_words;                /* taskloop simd */
  Dep *deps;
};

Omp *omp_parse(int tok);         /* parse the directive at token tok */

/* ---- diagnostics ---- */
extern int nerrors;
extern int diag_quiet;      /* count errors without printing them */
void error_at(int tok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
extern int opt_verbose;     /* -v: notes about how constructs are implemented */
void note_at(int tok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);

/* ---- parser.y ---- */
extern Node *unit_first;          /* top-level external declarations */
extern Node *unit_last;
int  parse_file(FILE *in);        /* returns 0 on success */

/* ---- lower_context.c: output buffers, substitution contexts, the construct stack ---- */
/* Where printed C goes. col: the column the next character lands in when
 * only the user's tokens were printed since the line began (0: unknown),
 * tok_end the stream's position after the last of them, and last its
 * last character (emit.c). */
typedef struct Out { FILE *f; char *buf; size_t len; int file, line, sys, need_mark, col, last; long tok_end; } Out;
typedef struct Ctx { Sym *sym; char *repl; struct Ctx *up; } Ctx;
typedef struct Frame { int kind; const char *name; char it[48]; struct Frame *up; } Frame;
extern Frame *frames;             /* lexically enclosing constructs being lowered */
extern int uid;                   /* numbers generated names */
extern Out *prelude;              /* outlined functions of the current function */
extern Node *cur_function;        /* the function being lowered */
/* Once per site, the call text of a name for the sharing profiler:
   "{ static int flag; if (!flag) { flag = 1; call; } }" (omp_outline.c). */
void gen_once(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as a C string literal's contents (quotes and backslashes escaped). */
char *c_escape(const char *s);
Out *out_mem(void);
char *out_take(Out *o);
void gen(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
Ctx *ctx_add(Ctx *up, Sym *s, const char *repl);
const char *sym_text(Ctx *ctx, Sym *s);
int  frame_find(int kind, int stop_at_parallel);
void push(int kind, const char *name);
void pop(void);

/* ---- lower.c: the walk over constructs ---- */
void lower_unit(void);            /* fills Node.lowered and Node.outlined */
void lower_range(Out *o, int a, int b, Ctx *ctx);

/* ---- emit.c: the user's tokens back as C ---- */
void emit_tok(Out *o, int i, Ctx *ctx);
char *span_text(int a, int b, Ctx *ctx);
void emit_unit(FILE *out);

/* ---- omp_datasharing.c ---- */
/* A variable a worksharing construct privatizes: ptr names a pointer to
   the original; a linear one also has its value at the construct (base)
   and its step, evaluated once (omp_worksharing.c adds base + it * step
   at each iteration). */
typedef struct Priv { VarClause *v; char ptr[48], base[48], step[48]; } Priv;
char *captured_decl(Sym *s, const char *name, char **dims);
const char *red_identity(int op, const char *orig_ptr, const char *name);
int  privs_open(Out *o, Omp *om, Ctx **ctx, Priv *pv, int max);
void privs_close(Out *o, Priv *pv, int n, const char *last_flag, int at_join);

/* ---- omp_worksharing.c ---- */
typedef struct Loop { Sym *var; int var_tok; Span lb, ub, step; int op; int step_neg; Node *body; int decl; } Loop;
int  loop_canonical(Node *f, Loop *L);
int  loop_nest(Node *n, Omp *om, Loop *L);
void loop_bounds(Out *o, Loop *L, int depth, int id, Ctx *ctx);
void omp_lower_for(Out *o, Node *n, Omp *om, Ctx *ctx);
void omp_lower_sections(Out *o, Node *n, Omp *om, Ctx *ctx);
void omp_lower_single(Out *o, Node *n, Omp *om, Ctx *ctx);
void omp_lower_master(Out *o, Node *n, Omp *om, Ctx *ctx);
void omp_lower_serial(Out *o, Node *n, Omp *om, Ctx *ctx);

/* ---- omp_outline.c ---- */
void omp_lower_parallel(Out *o, Node *n, Omp *om, Ctx *ctx);
/* What an outlined body (region or task) captures, and the code that
   moves it through the argument block struct __ompdsm_args_<id>. */
#define MAX_DIMS 8
typedef struct Cap {
  Sym *sym;
  int kind, op, tok;
  int by_ref;              /* the struct holds the original's address */
  int ndims;               /* variable array bounds passed by value */
  int vla_ptr;             /* a task's firstprivate pointer to a VLA, as a void * field */
  const char *red_init;    /* a reduction copy's first value, if not the identity */
  char *dims[MAX_DIMS];
  struct Cap *next;
} Cap;
Cap *cap_find(Cap *l, Sym *s);
Cap *cap_add(Cap **l, Sym *s, int kind, int op, int tok);
int  cap_is_local(Sym *s);
void caps_layout(Cap *caps, int for_task);
void caps_fields(Out *R, Cap *caps);
Ctx *caps_unpack(Out *R, Cap *caps, Node *body);   /* caps_replay, then caps_unpack_vars */
void caps_replay(Out *R, Cap *caps, Node *body);
Ctx *caps_unpack_vars(Out *R, Cap *caps);
void caps_pack(Out *o, Cap *caps, int id, Ctx *ctx);

/* ---- omp_task.c ---- */
extern int unit_uses_tasks;       /* emit.c registers the unit with __ompdsm_tasks_used */
void omp_lower_task(Out *o, Node *n, Omp *om, Ctx *ctx);
void omp_lower_taskloop(Out *o, Node *n, Omp *om, Ctx *ctx);
void omp_lower_taskgroup(Out *o, Node *n, Omp *om, Ctx *ctx);

/* ---- lower_context.c: what is shared where, for a task's defaults ----
   While a construct's body is lowered, its data environment is on this
   stack: a parallel region or task (a "boundary", with its body's span)
   and, inside it, the variables it or an inline construct made shared or
   private. A task asks it whether a local it names is shared. */
typedef struct DsEnv { int boundary, ft, lt; Sym *sym; int shared; struct DsEnv *up; } DsEnv;
extern DsEnv *dsenv;
void ds_boundary(int ft, int lt);
void ds_var(Sym *s, int shared);
/* 1: s is shared where the task is; 0: private there (a task makes it firstprivate) */
int  ds_is_shared(Sym *s);
int  ds_private_here(Sym *s);
/* error for each reduction of a worksharing construct on such a variable */
void check_ws_reductions(Omp *om);

/* ---- omp_sync.c ---- */
void omp_lower_sync(Out *o, Node *n, Omp *om, Ctx *ctx);
/* A while or do loop (tokens ft..lt) whose body (bft..blt) holds nothing but
   flush directives and empty statements waits for a flag: its flushes
   become waits for news, and the loop is followed by an acquire of what
   the flag's read may have shown (sync/flush.c). */
void omp_mark_spin(int ft, int lt, int bft, int blt);
/* omp_nowait.c: the barriers of fn's worksharing loops that a static
   schedule makes unnecessary (marked nowait_inferred, one barrier after). */
void nowait_infer(Node *fn);

#endif
