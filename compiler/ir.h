/*
 * ir.h — the compiler's shared data: the token array, symbols, statement
 * nodes and OpenMP directives, and the diagnostics (ir.c).
 *
 * Why tokens are the IR's leaves: ompdsmcc is a source-to-source translator
 * whose output must be exactly the user's C except where OpenMP constructs
 * are lowered. Every node records the span of tokens it covers; the emitter
 * prints those tokens back (with #line markers) and splices generated code
 * in place of OpenMP constructs. Identifier tokens are resolved to symbols
 * during parsing, so the lowering knows which names are locals, globals or
 * shadows without a separate expression tree.
 *
 * The passes over this data each have their own header: scope.h (scopes),
 * type.h (C types), omp_parse.h (directives), the parser's parser.h,
 * lower.h (the lowering's core) and omp_lower.h (the constructs'
 * lowerings), capture.h, datasharing.h and loop.h (what those share),
 * emit.h (the C printed back).
 */
#ifndef OMPDSMCC_IR_H
#define OMPDSMCC_IR_H

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
  /* A spin loop on one word (omp_sync.c omp_sync_mark_spin): the tokens of the
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

/* ---- diagnostics ---- */
extern int nerrors;
extern int diag_quiet;      /* count errors without printing them */
void error_at(int tok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
extern int opt_verbose;     /* -v: notes about how constructs are implemented */
void note_at(int tok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);

/* The unit's top-level external declarations (the parser links them). */
extern Node *unit_first;
extern Node *unit_last;

#endif
