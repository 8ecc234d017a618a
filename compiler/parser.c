/* A Bison parser, made by GNU Bison 3.8.2.  */

/* Bison implementation for Yacc-like parsers in C

   Copyright (C) 1984, 1989-1990, 2000-2015, 2018-2021 Free Software Foundation,
   Inc.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.

   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.

   You should have received a copy of the GNU General Public License
   along with this program.  If not, see <https://www.gnu.org/licenses/>.  */

/* As a special exception, you may create a larger work that contains
   part or all of the Bison parser skeleton and distribute that work
   under terms of your choice, so long as that work isn't itself a
   parser generator using the skeleton or a modified version thereof
   as a parser skeleton.  Alternatively, if you modify or redistribute
   the parser skeleton itself, you may (at your option) remove this
   special exception, which will cause the skeleton and the resulting
   Bison output files to be licensed under the GNU General Public
   License without this special exception.

   This special exception was added by the Free Software Foundation in
   version 2.2 of Bison.  */

/* C LALR(1) parser skeleton written by Richard Stallman, by
   simplifying the original so-called "semantic" parser.  */

/* DO NOT RELY ON FEATURES THAT ARE NOT DOCUMENTED in the manual,
   especially those whose name start with YY_ or yy_.  They are
   private implementation details that can be changed or removed.  */

/* All symbols defined below should begin with yy or YY, to avoid
   infringing on user name space.  This should be done even for local
   variables, as they might otherwise be expanded by user macros.
   There are some unavoidable exceptions within include files to
   define necessary library symbols; they are noted "INFRINGES ON
   USER NAME SPACE" below.  */

/* Identify Bison output, and Bison version.  */
#define YYBISON 30802

/* Bison version string.  */
#define YYBISON_VERSION "3.8.2"

/* Skeleton name.  */
#define YYSKELETON_NAME "yacc.c"

/* Pure parsers.  */
#define YYPURE 2

/* Push parsers.  */
#define YYPUSH 0

/* Pull parsers.  */
#define YYPULL 1

/* Substitute the type names.  */
#define YYSTYPE         CC_STYPE
#define YYLTYPE         CC_LTYPE
/* Substitute the variable and function names.  */
#define yyparse         cc_parse
#define yylex           cc_lex
#define yyerror         cc_error
#define yydebug         cc_debug
#define yynerrs         cc_nerrs


# ifndef YY_CAST
#  ifdef __cplusplus
#   define YY_CAST(Type, Val) static_cast<Type> (Val)
#   define YY_REINTERPRET_CAST(Type, Val) reinterpret_cast<Type> (Val)
#  else
#   define YY_CAST(Type, Val) ((Type) (Val))
#   define YY_REINTERPRET_CAST(Type, Val) ((Type) (Val))
#  endif
# endif
# ifndef YY_NULLPTR
#  if defined __cplusplus
#   if 201103L <= __cplusplus
#    define YY_NULLPTR nullptr
#   else
#    define YY_NULLPTR 0
#   endif
#  else
#   define YY_NULLPTR ((void*)0)
#  endif
# endif

#include "parser.h"
/* Symbol kind.  */
enum yysymbol_kind_t
{
  YYSYMBOL_YYEMPTY = -2,
  YYSYMBOL_YYEOF = 0,                      /* "end of file"  */
  YYSYMBOL_YYerror = 1,                    /* error  */
  YYSYMBOL_YYUNDEF = 2,                    /* "invalid token"  */
  YYSYMBOL_IDENTIFIER = 3,                 /* IDENTIFIER  */
  YYSYMBOL_TYPE_NAME = 4,                  /* TYPE_NAME  */
  YYSYMBOL_CONSTANT = 5,                   /* CONSTANT  */
  YYSYMBOL_STRING_LITERAL = 6,             /* STRING_LITERAL  */
  YYSYMBOL_SIZEOF = 7,                     /* SIZEOF  */
  YYSYMBOL_PTR_OP = 8,                     /* PTR_OP  */
  YYSYMBOL_INC_OP = 9,                     /* INC_OP  */
  YYSYMBOL_DEC_OP = 10,                    /* DEC_OP  */
  YYSYMBOL_LEFT_OP = 11,                   /* LEFT_OP  */
  YYSYMBOL_RIGHT_OP = 12,                  /* RIGHT_OP  */
  YYSYMBOL_LE_OP = 13,                     /* LE_OP  */
  YYSYMBOL_GE_OP = 14,                     /* GE_OP  */
  YYSYMBOL_EQ_OP = 15,                     /* EQ_OP  */
  YYSYMBOL_NE_OP = 16,                     /* NE_OP  */
  YYSYMBOL_AND_OP = 17,                    /* AND_OP  */
  YYSYMBOL_OR_OP = 18,                     /* OR_OP  */
  YYSYMBOL_MUL_ASSIGN = 19,                /* MUL_ASSIGN  */
  YYSYMBOL_DIV_ASSIGN = 20,                /* DIV_ASSIGN  */
  YYSYMBOL_MOD_ASSIGN = 21,                /* MOD_ASSIGN  */
  YYSYMBOL_ADD_ASSIGN = 22,                /* ADD_ASSIGN  */
  YYSYMBOL_SUB_ASSIGN = 23,                /* SUB_ASSIGN  */
  YYSYMBOL_LEFT_ASSIGN = 24,               /* LEFT_ASSIGN  */
  YYSYMBOL_RIGHT_ASSIGN = 25,              /* RIGHT_ASSIGN  */
  YYSYMBOL_AND_ASSIGN = 26,                /* AND_ASSIGN  */
  YYSYMBOL_XOR_ASSIGN = 27,                /* XOR_ASSIGN  */
  YYSYMBOL_OR_ASSIGN = 28,                 /* OR_ASSIGN  */
  YYSYMBOL_TYPEDEF = 29,                   /* TYPEDEF  */
  YYSYMBOL_EXTERN = 30,                    /* EXTERN  */
  YYSYMBOL_STATIC = 31,                    /* STATIC  */
  YYSYMBOL_AUTO = 32,                      /* AUTO  */
  YYSYMBOL_REGISTER = 33,                  /* REGISTER  */
  YYSYMBOL_INLINE = 34,                    /* INLINE  */
  YYSYMBOL_THREAD_LOCAL = 35,              /* THREAD_LOCAL  */
  YYSYMBOL_CHAR = 36,                      /* CHAR  */
  YYSYMBOL_SHORT = 37,                     /* SHORT  */
  YYSYMBOL_INT = 38,                       /* INT  */
  YYSYMBOL_LONG = 39,                      /* LONG  */
  YYSYMBOL_SIGNED = 40,                    /* SIGNED  */
  YYSYMBOL_UNSIGNED = 41,                  /* UNSIGNED  */
  YYSYMBOL_FLOAT = 42,                     /* FLOAT  */
  YYSYMBOL_DOUBLE = 43,                    /* DOUBLE  */
  YYSYMBOL_VOID = 44,                      /* VOID  */
  YYSYMBOL_BOOL = 45,                      /* BOOL  */
  YYSYMBOL_COMPLEX = 46,                   /* COMPLEX  */
  YYSYMBOL_EXTTYPE = 47,                   /* EXTTYPE  */
  YYSYMBOL_CONST = 48,                     /* CONST  */
  YYSYMBOL_RESTRICT = 49,                  /* RESTRICT  */
  YYSYMBOL_VOLATILE = 50,                  /* VOLATILE  */
  YYSYMBOL_ATOMIC = 51,                    /* ATOMIC  */
  YYSYMBOL_STRUCT = 52,                    /* STRUCT  */
  YYSYMBOL_UNION = 53,                     /* UNION  */
  YYSYMBOL_ENUM = 54,                      /* ENUM  */
  YYSYMBOL_ELLIPSIS = 55,                  /* ELLIPSIS  */
  YYSYMBOL_CASE = 56,                      /* CASE  */
  YYSYMBOL_DEFAULT = 57,                   /* DEFAULT  */
  YYSYMBOL_IF = 58,                        /* IF  */
  YYSYMBOL_ELSE = 59,                      /* ELSE  */
  YYSYMBOL_SWITCH = 60,                    /* SWITCH  */
  YYSYMBOL_WHILE = 61,                     /* WHILE  */
  YYSYMBOL_DO = 62,                        /* DO  */
  YYSYMBOL_FOR = 63,                       /* FOR  */
  YYSYMBOL_GOTO = 64,                      /* GOTO  */
  YYSYMBOL_CONTINUE = 65,                  /* CONTINUE  */
  YYSYMBOL_BREAK = 66,                     /* BREAK  */
  YYSYMBOL_RETURN = 67,                    /* RETURN  */
  YYSYMBOL_ALIGNAS = 68,                   /* ALIGNAS  */
  YYSYMBOL_ALIGNOF = 69,                   /* ALIGNOF  */
  YYSYMBOL_GENERIC = 70,                   /* GENERIC  */
  YYSYMBOL_STATIC_ASSERT = 71,             /* STATIC_ASSERT  */
  YYSYMBOL_TYPEOF = 72,                    /* TYPEOF  */
  YYSYMBOL_BUILTIN_VA_ARG = 73,            /* BUILTIN_VA_ARG  */
  YYSYMBOL_BUILTIN_OFFSETOF = 74,          /* BUILTIN_OFFSETOF  */
  YYSYMBOL_BUILTIN_TYPES_COMPAT = 75,      /* BUILTIN_TYPES_COMPAT  */
  YYSYMBOL_REALIMAG = 76,                  /* REALIMAG  */
  YYSYMBOL_OMP_CONSTRUCT = 77,             /* OMP_CONSTRUCT  */
  YYSYMBOL_OMP_STANDALONE = 78,            /* OMP_STANDALONE  */
  YYSYMBOL_79_ = 79,                       /* ';'  */
  YYSYMBOL_80_ = 80,                       /* '{'  */
  YYSYMBOL_81_ = 81,                       /* '}'  */
  YYSYMBOL_82_ = 82,                       /* ','  */
  YYSYMBOL_83_ = 83,                       /* ':'  */
  YYSYMBOL_84_ = 84,                       /* '='  */
  YYSYMBOL_85_ = 85,                       /* '('  */
  YYSYMBOL_86_ = 86,                       /* ')'  */
  YYSYMBOL_87_ = 87,                       /* '['  */
  YYSYMBOL_88_ = 88,                       /* ']'  */
  YYSYMBOL_89_ = 89,                       /* '.'  */
  YYSYMBOL_90_ = 90,                       /* '&'  */
  YYSYMBOL_91_ = 91,                       /* '!'  */
  YYSYMBOL_92_ = 92,                       /* '~'  */
  YYSYMBOL_93_ = 93,                       /* '-'  */
  YYSYMBOL_94_ = 94,                       /* '+'  */
  YYSYMBOL_95_ = 95,                       /* '*'  */
  YYSYMBOL_96_ = 96,                       /* '/'  */
  YYSYMBOL_97_ = 97,                       /* '%'  */
  YYSYMBOL_98_ = 98,                       /* '<'  */
  YYSYMBOL_99_ = 99,                       /* '>'  */
  YYSYMBOL_100_ = 100,                     /* '^'  */
  YYSYMBOL_101_ = 101,                     /* '|'  */
  YYSYMBOL_102_ = 102,                     /* '?'  */
  YYSYMBOL_YYACCEPT = 103,                 /* $accept  */
  YYSYMBOL_primary_expression = 104,       /* primary_expression  */
  YYSYMBOL_string = 105,                   /* string  */
  YYSYMBOL_member_name = 106,              /* member_name  */
  YYSYMBOL_offsetof_designator = 107,      /* offsetof_designator  */
  YYSYMBOL_generic_selection = 108,        /* generic_selection  */
  YYSYMBOL_generic_assoc_list = 109,       /* generic_assoc_list  */
  YYSYMBOL_generic_association = 110,      /* generic_association  */
  YYSYMBOL_postfix_expression = 111,       /* postfix_expression  */
  YYSYMBOL_argument_expression_list = 112, /* argument_expression_list  */
  YYSYMBOL_unary_expression = 113,         /* unary_expression  */
  YYSYMBOL_unary_operator = 114,           /* unary_operator  */
  YYSYMBOL_cast_expression = 115,          /* cast_expression  */
  YYSYMBOL_multiplicative_expression = 116, /* multiplicative_expression  */
  YYSYMBOL_additive_expression = 117,      /* additive_expression  */
  YYSYMBOL_shift_expression = 118,         /* shift_expression  */
  YYSYMBOL_relational_expression = 119,    /* relational_expression  */
  YYSYMBOL_equality_expression = 120,      /* equality_expression  */
  YYSYMBOL_and_expression = 121,           /* and_expression  */
  YYSYMBOL_exclusive_or_expression = 122,  /* exclusive_or_expression  */
  YYSYMBOL_inclusive_or_expression = 123,  /* inclusive_or_expression  */
  YYSYMBOL_logical_and_expression = 124,   /* logical_and_expression  */
  YYSYMBOL_logical_or_expression = 125,    /* logical_or_expression  */
  YYSYMBOL_conditional_expression = 126,   /* conditional_expression  */
  YYSYMBOL_assignment_expression = 127,    /* assignment_expression  */
  YYSYMBOL_assignment_operator = 128,      /* assignment_operator  */
  YYSYMBOL_expression = 129,               /* expression  */
  YYSYMBOL_constant_expression = 130,      /* constant_expression  */
  YYSYMBOL_expression_opt = 131,           /* expression_opt  */
  YYSYMBOL_declaration = 132,              /* declaration  */
  YYSYMBOL_static_assert_declaration = 133, /* static_assert_declaration  */
  YYSYMBOL_declaration_specifiers = 134,   /* declaration_specifiers  */
  YYSYMBOL_declaration_specifier = 135,    /* declaration_specifier  */
  YYSYMBOL_init_declarator_list = 136,     /* init_declarator_list  */
  YYSYMBOL_137_1 = 137,                    /* @1  */
  YYSYMBOL_init_declarator = 138,          /* init_declarator  */
  YYSYMBOL_declarator_decl = 139,          /* declarator_decl  */
  YYSYMBOL_storage_class_specifier = 140,  /* storage_class_specifier  */
  YYSYMBOL_type_specifier = 141,           /* type_specifier  */
  YYSYMBOL_struct_or_union_specifier = 142, /* struct_or_union_specifier  */
  YYSYMBOL_struct_or_union = 143,          /* struct_or_union  */
  YYSYMBOL_struct_declaration_list_opt = 144, /* struct_declaration_list_opt  */
  YYSYMBOL_struct_declaration = 145,       /* struct_declaration  */
  YYSYMBOL_specifier_qualifier_list = 146, /* specifier_qualifier_list  */
  YYSYMBOL_struct_declarator_list = 147,   /* struct_declarator_list  */
  YYSYMBOL_struct_declarator = 148,        /* struct_declarator  */
  YYSYMBOL_enum_specifier = 149,           /* enum_specifier  */
  YYSYMBOL_enumerator_list = 150,          /* enumerator_list  */
  YYSYMBOL_enumerator = 151,               /* enumerator  */
  YYSYMBOL_type_qualifier = 152,           /* type_qualifier  */
  YYSYMBOL_function_specifier = 153,       /* function_specifier  */
  YYSYMBOL_declarator = 154,               /* declarator  */
  YYSYMBOL_direct_declarator = 155,        /* direct_declarator  */
  YYSYMBOL_array_size = 156,               /* array_size  */
  YYSYMBOL_pointer = 157,                  /* pointer  */
  YYSYMBOL_type_qualifier_list = 158,      /* type_qualifier_list  */
  YYSYMBOL_parameter_type_list = 159,      /* parameter_type_list  */
  YYSYMBOL_parameter_list = 160,           /* parameter_list  */
  YYSYMBOL_parameter_declaration = 161,    /* parameter_declaration  */
  YYSYMBOL_identifier_list = 162,          /* identifier_list  */
  YYSYMBOL_type_name = 163,                /* type_name  */
  YYSYMBOL_abstract_declarator = 164,      /* abstract_declarator  */
  YYSYMBOL_direct_abstract_declarator = 165, /* direct_abstract_declarator  */
  YYSYMBOL_initializer = 166,              /* initializer  */
  YYSYMBOL_initializer_list = 167,         /* initializer_list  */
  YYSYMBOL_designation = 168,              /* designation  */
  YYSYMBOL_designator_list = 169,          /* designator_list  */
  YYSYMBOL_designator = 170,               /* designator  */
  YYSYMBOL_statement = 171,                /* statement  */
  YYSYMBOL_omp_statement = 172,            /* omp_statement  */
  YYSYMBOL_labeled_statement = 173,        /* labeled_statement  */
  YYSYMBOL_compound_statement = 174,       /* compound_statement  */
  YYSYMBOL_175_2 = 175,                    /* $@2  */
  YYSYMBOL_block_item_list = 176,          /* block_item_list  */
  YYSYMBOL_block_item = 177,               /* block_item  */
  YYSYMBOL_expression_statement = 178,     /* expression_statement  */
  YYSYMBOL_selection_statement = 179,      /* selection_statement  */
  YYSYMBOL_for_open = 180,                 /* for_open  */
  YYSYMBOL_iteration_statement = 181,      /* iteration_statement  */
  YYSYMBOL_jump_statement = 182,           /* jump_statement  */
  YYSYMBOL_translation_unit = 183,         /* translation_unit  */
  YYSYMBOL_external_declaration = 184,     /* external_declaration  */
  YYSYMBOL_function_definition = 185,      /* function_definition  */
  YYSYMBOL_186_3 = 186,                    /* $@3  */
  YYSYMBOL_declaration_list_opt = 187      /* declaration_list_opt  */
};
typedef enum yysymbol_kind_t yysymbol_kind_t;



/* Unqualified %code blocks.  */
#line 45 "parser.y"

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

#line 396 "parser.c"

#ifdef short
# undef short
#endif

/* On compilers that do not define __PTRDIFF_MAX__ etc., make sure
   <limits.h> and (if available) <stdint.h> are included
   so that the code can choose integer types of a good width.  */

#ifndef __PTRDIFF_MAX__
# include <limits.h> /* INFRINGES ON USER NAME SPACE */
# if defined __STDC_VERSION__ && 199901 <= __STDC_VERSION__
#  include <stdint.h> /* INFRINGES ON USER NAME SPACE */
#  define YY_STDINT_H
# endif
#endif

/* Narrow types that promote to a signed type and that can represent a
   signed or unsigned integer of at least N bits.  In tables they can
   save space and decrease cache pressure.  Promoting to a signed type
   helps avoid bugs in integer arithmetic.  */

#ifdef __INT_LEAST8_MAX__
typedef __INT_LEAST8_TYPE__ yytype_int8;
#elif defined YY_STDINT_H
typedef int_least8_t yytype_int8;
#else
typedef signed char yytype_int8;
#endif

#ifdef __INT_LEAST16_MAX__
typedef __INT_LEAST16_TYPE__ yytype_int16;
#elif defined YY_STDINT_H
typedef int_least16_t yytype_int16;
#else
typedef short yytype_int16;
#endif

/* Work around bug in HP-UX 11.23, which defines these macros
   incorrectly for preprocessor constants.  This workaround can likely
   be removed in 2023, as HPE has promised support for HP-UX 11.23
   (aka HP-UX 11i v2) only through the end of 2022; see Table 2 of
   <https://h20195.www2.hpe.com/V2/getpdf.aspx/4AA4-7673ENW.pdf>.  */
#ifdef __hpux
# undef UINT_LEAST8_MAX
# undef UINT_LEAST16_MAX
# define UINT_LEAST8_MAX 255
# define UINT_LEAST16_MAX 65535
#endif

#if defined __UINT_LEAST8_MAX__ && __UINT_LEAST8_MAX__ <= __INT_MAX__
typedef __UINT_LEAST8_TYPE__ yytype_uint8;
#elif (!defined __UINT_LEAST8_MAX__ && defined YY_STDINT_H \
       && UINT_LEAST8_MAX <= INT_MAX)
typedef uint_least8_t yytype_uint8;
#elif !defined __UINT_LEAST8_MAX__ && UCHAR_MAX <= INT_MAX
typedef unsigned char yytype_uint8;
#else
typedef short yytype_uint8;
#endif

#if defined __UINT_LEAST16_MAX__ && __UINT_LEAST16_MAX__ <= __INT_MAX__
typedef __UINT_LEAST16_TYPE__ yytype_uint16;
#elif (!defined __UINT_LEAST16_MAX__ && defined YY_STDINT_H \
       && UINT_LEAST16_MAX <= INT_MAX)
typedef uint_least16_t yytype_uint16;
#elif !defined __UINT_LEAST16_MAX__ && USHRT_MAX <= INT_MAX
typedef unsigned short yytype_uint16;
#else
typedef int yytype_uint16;
#endif

#ifndef YYPTRDIFF_T
# if defined __PTRDIFF_TYPE__ && defined __PTRDIFF_MAX__
#  define YYPTRDIFF_T __PTRDIFF_TYPE__
#  define YYPTRDIFF_MAXIMUM __PTRDIFF_MAX__
# elif defined PTRDIFF_MAX
#  ifndef ptrdiff_t
#   include <stddef.h> /* INFRINGES ON USER NAME SPACE */
#  endif
#  define YYPTRDIFF_T ptrdiff_t
#  define YYPTRDIFF_MAXIMUM PTRDIFF_MAX
# else
#  define YYPTRDIFF_T long
#  define YYPTRDIFF_MAXIMUM LONG_MAX
# endif
#endif

#ifndef YYSIZE_T
# ifdef __SIZE_TYPE__
#  define YYSIZE_T __SIZE_TYPE__
# elif defined size_t
#  define YYSIZE_T size_t
# elif defined __STDC_VERSION__ && 199901 <= __STDC_VERSION__
#  include <stddef.h> /* INFRINGES ON USER NAME SPACE */
#  define YYSIZE_T size_t
# else
#  define YYSIZE_T unsigned
# endif
#endif

#define YYSIZE_MAXIMUM                                  \
  YY_CAST (YYPTRDIFF_T,                                 \
           (YYPTRDIFF_MAXIMUM < YY_CAST (YYSIZE_T, -1)  \
            ? YYPTRDIFF_MAXIMUM                         \
            : YY_CAST (YYSIZE_T, -1)))

#define YYSIZEOF(X) YY_CAST (YYPTRDIFF_T, sizeof (X))


/* Stored state numbers (used for stacks). */
typedef yytype_int16 yy_state_t;

/* State numbers in computations.  */
typedef int yy_state_fast_t;

#ifndef YY_
# if defined YYENABLE_NLS && YYENABLE_NLS
#  if ENABLE_NLS
#   include <libintl.h> /* INFRINGES ON USER NAME SPACE */
#   define YY_(Msgid) dgettext ("bison-runtime", Msgid)
#  endif
# endif
# ifndef YY_
#  define YY_(Msgid) Msgid
# endif
#endif


#ifndef YY_ATTRIBUTE_PURE
# if defined __GNUC__ && 2 < __GNUC__ + (96 <= __GNUC_MINOR__)
#  define YY_ATTRIBUTE_PURE __attribute__ ((__pure__))
# else
#  define YY_ATTRIBUTE_PURE
# endif
#endif

#ifndef YY_ATTRIBUTE_UNUSED
# if defined __GNUC__ && 2 < __GNUC__ + (7 <= __GNUC_MINOR__)
#  define YY_ATTRIBUTE_UNUSED __attribute__ ((__unused__))
# else
#  define YY_ATTRIBUTE_UNUSED
# endif
#endif

/* Suppress unused-variable warnings by "using" E.  */
#if ! defined lint || defined __GNUC__
# define YY_USE(E) ((void) (E))
#else
# define YY_USE(E) /* empty */
#endif

/* Suppress an incorrect diagnostic about yylval being uninitialized.  */
#if defined __GNUC__ && ! defined __ICC && 406 <= __GNUC__ * 100 + __GNUC_MINOR__
# if __GNUC__ * 100 + __GNUC_MINOR__ < 407
#  define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN                           \
    _Pragma ("GCC diagnostic push")                                     \
    _Pragma ("GCC diagnostic ignored \"-Wuninitialized\"")
# else
#  define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN                           \
    _Pragma ("GCC diagnostic push")                                     \
    _Pragma ("GCC diagnostic ignored \"-Wuninitialized\"")              \
    _Pragma ("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
# endif
# define YY_IGNORE_MAYBE_UNINITIALIZED_END      \
    _Pragma ("GCC diagnostic pop")
#else
# define YY_INITIAL_VALUE(Value) Value
#endif
#ifndef YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
# define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
# define YY_IGNORE_MAYBE_UNINITIALIZED_END
#endif
#ifndef YY_INITIAL_VALUE
# define YY_INITIAL_VALUE(Value) /* Nothing. */
#endif

#if defined __cplusplus && defined __GNUC__ && ! defined __ICC && 6 <= __GNUC__
# define YY_IGNORE_USELESS_CAST_BEGIN                          \
    _Pragma ("GCC diagnostic push")                            \
    _Pragma ("GCC diagnostic ignored \"-Wuseless-cast\"")
# define YY_IGNORE_USELESS_CAST_END            \
    _Pragma ("GCC diagnostic pop")
#endif
#ifndef YY_IGNORE_USELESS_CAST_BEGIN
# define YY_IGNORE_USELESS_CAST_BEGIN
# define YY_IGNORE_USELESS_CAST_END
#endif


#define YY_ASSERT(E) ((void) (0 && (E)))

#if 1

/* The parser invokes alloca or malloc; define the necessary symbols.  */

# ifdef YYSTACK_USE_ALLOCA
#  if YYSTACK_USE_ALLOCA
#   ifdef __GNUC__
#    define YYSTACK_ALLOC __builtin_alloca
#   elif defined __BUILTIN_VA_ARG_INCR
#    include <alloca.h> /* INFRINGES ON USER NAME SPACE */
#   elif defined _AIX
#    define YYSTACK_ALLOC __alloca
#   elif defined _MSC_VER
#    include <malloc.h> /* INFRINGES ON USER NAME SPACE */
#    define alloca _alloca
#   else
#    define YYSTACK_ALLOC alloca
#    if ! defined _ALLOCA_H && ! defined EXIT_SUCCESS
#     include <stdlib.h> /* INFRINGES ON USER NAME SPACE */
      /* Use EXIT_SUCCESS as a witness for stdlib.h.  */
#     ifndef EXIT_SUCCESS
#      define EXIT_SUCCESS 0
#     endif
#    endif
#   endif
#  endif
# endif

# ifdef YYSTACK_ALLOC
   /* Pacify GCC's 'empty if-body' warning.  */
#  define YYSTACK_FREE(Ptr) do { /* empty */; } while (0)
#  ifndef YYSTACK_ALLOC_MAXIMUM
    /* The OS might guarantee only one guard page at the bottom of the stack,
       and a page size can be as small as 4096 bytes.  So we cannot safely
       invoke alloca (N) if N exceeds 4096.  Use a slightly smaller number
       to allow for a few compiler-allocated temporary stack slots.  */
#   define YYSTACK_ALLOC_MAXIMUM 4032 /* reasonable circa 2006 */
#  endif
# else
#  define YYSTACK_ALLOC YYMALLOC
#  define YYSTACK_FREE YYFREE
#  ifndef YYSTACK_ALLOC_MAXIMUM
#   define YYSTACK_ALLOC_MAXIMUM YYSIZE_MAXIMUM
#  endif
#  if (defined __cplusplus && ! defined EXIT_SUCCESS \
       && ! ((defined YYMALLOC || defined malloc) \
             && (defined YYFREE || defined free)))
#   include <stdlib.h> /* INFRINGES ON USER NAME SPACE */
#   ifndef EXIT_SUCCESS
#    define EXIT_SUCCESS 0
#   endif
#  endif
#  ifndef YYMALLOC
#   define YYMALLOC malloc
#   if ! defined malloc && ! defined EXIT_SUCCESS
void *malloc (YYSIZE_T); /* INFRINGES ON USER NAME SPACE */
#   endif
#  endif
#  ifndef YYFREE
#   define YYFREE free
#   if ! defined free && ! defined EXIT_SUCCESS
void free (void *); /* INFRINGES ON USER NAME SPACE */
#   endif
#  endif
# endif
#endif /* 1 */

#if (! defined yyoverflow \
     && (! defined __cplusplus \
         || (defined CC_LTYPE_IS_TRIVIAL && CC_LTYPE_IS_TRIVIAL \
             && defined CC_STYPE_IS_TRIVIAL && CC_STYPE_IS_TRIVIAL)))

/* A type that is properly aligned for any stack member.  */
union yyalloc
{
  yy_state_t yyss_alloc;
  YYSTYPE yyvs_alloc;
  YYLTYPE yyls_alloc;
};

/* The size of the maximum gap between one aligned stack and the next.  */
# define YYSTACK_GAP_MAXIMUM (YYSIZEOF (union yyalloc) - 1)

/* The size of an array large to enough to hold all stacks, each with
   N elements.  */
# define YYSTACK_BYTES(N) \
     ((N) * (YYSIZEOF (yy_state_t) + YYSIZEOF (YYSTYPE) \
             + YYSIZEOF (YYLTYPE)) \
      + 2 * YYSTACK_GAP_MAXIMUM)

# define YYCOPY_NEEDED 1

/* Relocate STACK from its old location to the new one.  The
   local variables YYSIZE and YYSTACKSIZE give the old and new number of
   elements in the stack, and YYPTR gives the new location of the
   stack.  Advance YYPTR to a properly aligned location for the next
   stack.  */
# define YYSTACK_RELOCATE(Stack_alloc, Stack)                           \
    do                                                                  \
      {                                                                 \
        YYPTRDIFF_T yynewbytes;                                         \
        YYCOPY (&yyptr->Stack_alloc, Stack, yysize);                    \
        Stack = &yyptr->Stack_alloc;                                    \
        yynewbytes = yystacksize * YYSIZEOF (*Stack) + YYSTACK_GAP_MAXIMUM; \
        yyptr += yynewbytes / YYSIZEOF (*yyptr);                        \
      }                                                                 \
    while (0)

#endif

#if defined YYCOPY_NEEDED && YYCOPY_NEEDED
/* Copy COUNT objects from SRC to DST.  The source and destination do
   not overlap.  */
# ifndef YYCOPY
#  if defined __GNUC__ && 1 < __GNUC__
#   define YYCOPY(Dst, Src, Count) \
      __builtin_memcpy (Dst, Src, YY_CAST (YYSIZE_T, (Count)) * sizeof (*(Src)))
#  else
#   define YYCOPY(Dst, Src, Count)              \
      do                                        \
        {                                       \
          YYPTRDIFF_T yyi;                      \
          for (yyi = 0; yyi < (Count); yyi++)   \
            (Dst)[yyi] = (Src)[yyi];            \
        }                                       \
      while (0)
#  endif
# endif
#endif /* !YYCOPY_NEEDED */

/* YYFINAL -- State number of the termination state.  */
#define YYFINAL  2
/* YYLAST -- Last index in YYTABLE.  */
#define YYLAST   2362

/* YYNTOKENS -- Number of terminals.  */
#define YYNTOKENS  103
/* YYNNTS -- Number of nonterminals.  */
#define YYNNTS  85
/* YYNRULES -- Number of rules.  */
#define YYNRULES  288
/* YYNSTATES -- Number of states.  */
#define YYNSTATES  505

/* YYMAXUTOK -- Last valid token kind.  */
#define YYMAXUTOK   333


/* YYTRANSLATE(TOKEN-NUM) -- Symbol number corresponding to TOKEN-NUM
   as returned by yylex, with out-of-bounds checking.  */
#define YYTRANSLATE(YYX)                                \
  (0 <= (YYX) && (YYX) <= YYMAXUTOK                     \
   ? YY_CAST (yysymbol_kind_t, yytranslate[YYX])        \
   : YYSYMBOL_YYUNDEF)

/* YYTRANSLATE[TOKEN-NUM] -- Symbol number corresponding to TOKEN-NUM
   as returned by yylex.  */
static const yytype_int8 yytranslate[] =
{
       0,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,    91,     2,     2,     2,    97,    90,     2,
      85,    86,    95,    94,    82,    93,    89,    96,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,    83,    79,
      98,    84,    99,   102,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,    87,     2,    88,   100,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,    80,   101,    81,    92,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     1,     2,     3,     4,
       5,     6,     7,     8,     9,    10,    11,    12,    13,    14,
      15,    16,    17,    18,    19,    20,    21,    22,    23,    24,
      25,    26,    27,    28,    29,    30,    31,    32,    33,    34,
      35,    36,    37,    38,    39,    40,    41,    42,    43,    44,
      45,    46,    47,    48,    49,    50,    51,    52,    53,    54,
      55,    56,    57,    58,    59,    60,    61,    62,    63,    64,
      65,    66,    67,    68,    69,    70,    71,    72,    73,    74,
      75,    76,    77,    78
};

#if CC_DEBUG
/* YYRLINE[YYN] -- Source line where rule number YYN was defined.  */
static const yytype_int16 yyrline[] =
{
       0,   175,   175,   176,   177,   178,   179,   180,   181,   182,
     183,   186,   186,   189,   190,   194,   195,   196,   199,   200,
     200,   201,   201,   204,   205,   206,   207,   208,   209,   210,
     211,   212,   213,   214,   217,   217,   220,   221,   222,   223,
     224,   225,   226,   227,   228,   229,   232,   232,   232,   232,
     232,   232,   234,   234,   237,   238,   239,   240,   243,   244,
     245,   248,   249,   250,   253,   254,   255,   256,   257,   260,
     261,   262,   264,   264,   265,   265,   266,   266,   267,   267,
     268,   268,   270,   271,   272,   275,   276,   279,   279,   279,
     279,   279,   279,   280,   280,   280,   280,   280,   282,   282,
     283,   284,   284,   288,   289,   290,   294,   295,   299,   300,
     304,   305,   306,   307,   308,   309,   315,   316,   316,   320,
     321,   325,   338,   339,   340,   341,   342,   343,   347,   348,
     349,   350,   351,   352,   353,   354,   355,   356,   357,   358,
     359,   360,   361,   362,   363,   367,   368,   369,   370,   371,
     374,   374,   376,   376,   379,   380,   381,   382,   386,   387,
     388,   389,   392,   392,   395,   396,   397,   401,   402,   403,
     404,   405,   406,   407,   408,   411,   411,   414,   415,   419,
     420,   421,   422,   425,   428,   432,   436,   437,   438,   439,
     447,   448,   452,   453,   454,   455,   456,   457,   458,   459,
     463,   464,   465,   466,   470,   471,   475,   476,   480,   481,
     488,   491,   492,   495,   495,   498,   499,   503,   504,   505,
     509,   510,   511,   512,   513,   514,   515,   519,   520,   521,
     522,   526,   527,   528,   529,   532,   532,   534,   534,   537,
     538,   539,   544,   545,   546,   547,   548,   549,   550,   554,
     555,   559,   560,   561,   562,   563,   567,   567,   571,   572,
     576,   577,   581,   582,   586,   587,   588,   591,   594,   595,
     596,   602,   612,   613,   614,   615,   616,   617,   621,   621,
     624,   625,   626,   627,   628,   632,   632,   642,   642
};
#endif

/** Accessing symbol of state STATE.  */
#define YY_ACCESSING_SYMBOL(State) YY_CAST (yysymbol_kind_t, yystos[State])

#if 1
/* The user-facing name of the symbol whose (internal) number is
   YYSYMBOL.  No bounds checking.  */
static const char *yysymbol_name (yysymbol_kind_t yysymbol) YY_ATTRIBUTE_UNUSED;

/* YYTNAME[SYMBOL-NUM] -- String name of the symbol SYMBOL-NUM.
   First, the terminals, then, starting at YYNTOKENS, nonterminals.  */
static const char *const yytname[] =
{
  "\"end of file\"", "error", "\"invalid token\"", "IDENTIFIER",
  "TYPE_NAME", "CONSTANT", "STRING_LITERAL", "SIZEOF", "PTR_OP", "INC_OP",
  "DEC_OP", "LEFT_OP", "RIGHT_OP", "LE_OP", "GE_OP", "EQ_OP", "NE_OP",
  "AND_OP", "OR_OP", "MUL_ASSIGN", "DIV_ASSIGN", "MOD_ASSIGN",
  "ADD_ASSIGN", "SUB_ASSIGN", "LEFT_ASSIGN", "RIGHT_ASSIGN", "AND_ASSIGN",
  "XOR_ASSIGN", "OR_ASSIGN", "TYPEDEF", "EXTERN", "STATIC", "AUTO",
  "REGISTER", "INLINE", "THREAD_LOCAL", "CHAR", "SHORT", "INT", "LONG",
  "SIGNED", "UNSIGNED", "FLOAT", "DOUBLE", "VOID", "BOOL", "COMPLEX",
  "EXTTYPE", "CONST", "RESTRICT", "VOLATILE", "ATOMIC", "STRUCT", "UNION",
  "ENUM", "ELLIPSIS", "CASE", "DEFAULT", "IF", "ELSE", "SWITCH", "WHILE",
  "DO", "FOR", "GOTO", "CONTINUE", "BREAK", "RETURN", "ALIGNAS", "ALIGNOF",
  "GENERIC", "STATIC_ASSERT", "TYPEOF", "BUILTIN_VA_ARG",
  "BUILTIN_OFFSETOF", "BUILTIN_TYPES_COMPAT", "REALIMAG", "OMP_CONSTRUCT",
  "OMP_STANDALONE", "';'", "'{'", "'}'", "','", "':'", "'='", "'('", "')'",
  "'['", "']'", "'.'", "'&'", "'!'", "'~'", "'-'", "'+'", "'*'", "'/'",
  "'%'", "'<'", "'>'", "'^'", "'|'", "'?'", "$accept",
  "primary_expression", "string", "member_name", "offsetof_designator",
  "generic_selection", "generic_assoc_list", "generic_association",
  "postfix_expression", "argument_expression_list", "unary_expression",
  "unary_operator", "cast_expression", "multiplicative_expression",
  "additive_expression", "shift_expression", "relational_expression",
  "equality_expression", "and_expression", "exclusive_or_expression",
  "inclusive_or_expression", "logical_and_expression",
  "logical_or_expression", "conditional_expression",
  "assignment_expression", "assignment_operator", "expression",
  "constant_expression", "expression_opt", "declaration",
  "static_assert_declaration", "declaration_specifiers",
  "declaration_specifier", "init_declarator_list", "@1", "init_declarator",
  "declarator_decl", "storage_class_specifier", "type_specifier",
  "struct_or_union_specifier", "struct_or_union",
  "struct_declaration_list_opt", "struct_declaration",
  "specifier_qualifier_list", "struct_declarator_list",
  "struct_declarator", "enum_specifier", "enumerator_list", "enumerator",
  "type_qualifier", "function_specifier", "declarator",
  "direct_declarator", "array_size", "pointer", "type_qualifier_list",
  "parameter_type_list", "parameter_list", "parameter_declaration",
  "identifier_list", "type_name", "abstract_declarator",
  "direct_abstract_declarator", "initializer", "initializer_list",
  "designation", "designator_list", "designator", "statement",
  "omp_statement", "labeled_statement", "compound_statement", "$@2",
  "block_item_list", "block_item", "expression_statement",
  "selection_statement", "for_open", "iteration_statement",
  "jump_statement", "translation_unit", "external_declaration",
  "function_definition", "$@3", "declaration_list_opt", YY_NULLPTR
};

static const char *
yysymbol_name (yysymbol_kind_t yysymbol)
{
  return yytname[yysymbol];
}
#endif

#define YYPACT_NINF (-330)

#define yypact_value_is_default(Yyn) \
  ((Yyn) == YYPACT_NINF)

#define YYTABLE_NINF (-194)

#define yytable_value_is_error(Yyn) \
  0

/* YYPACT[STATE-NUM] -- Index in YYTABLE of the portion describing
   STATE-NUM.  */
static const yytype_int16 yypact[] =
{
    -330,  1980,  -330,  -330,  -330,  -330,  -330,  -330,  -330,  -330,
    -330,  -330,  -330,  -330,  -330,  -330,  -330,  -330,  -330,  -330,
    -330,  -330,  -330,  -330,  -330,  -330,  -330,  -330,  -330,    46,
     -61,   -49,   -40,  -330,  -330,  -330,  -330,  -330,   921,  -330,
    -330,  -330,  -330,   173,  -330,  -330,  -330,  -330,  -330,   -22,
      21,    89,   732,  1597,   732,  -330,  -330,    71,   146,  -330,
      -9,  -330,   -44,   -13,    -4,    28,    31,    78,  -330,    89,
      89,    97,   179,  -330,  -330,  -330,  -330,  1690,  1703,  1703,
     159,  1730,   104,   114,   143,   182,  1597,   639,  -330,  -330,
    -330,  -330,  -330,  -330,  -330,   231,  -330,   151,  -330,  1597,
    -330,   176,    35,   271,    73,   272,   185,   186,   188,   277,
       7,  -330,   210,  2290,   -32,  2290,   240,   -25,   281,  -330,
    -330,    -2,   247,   249,  -330,  -330,   146,  -330,  -330,  1437,
    -330,  1864,  1040,    -4,  -330,  -330,  2031,   217,   229,  1597,
    -330,    19,   639,  -330,   639,  -330,  -330,  -330,   639,  -330,
    1597,  1597,  2290,  2290,  -330,  -330,    93,   265,   274,  -330,
     310,  -330,  -330,   745,  1597,   310,  -330,  1597,  1597,  1597,
    1597,  1597,  1597,  1597,  1597,  1597,  1597,  1597,  1597,  1597,
    1597,  1597,  1597,  1597,  1597,  1464,  -330,  -330,  1797,  1040,
     170,  -330,   189,  -330,  -330,   309,   288,  -330,  -330,  -330,
    -330,  -330,  -330,  -330,  -330,  -330,  -330,  -330,  1597,  1597,
    -330,  -330,  -330,  -330,  -330,    71,  1075,  -330,  -330,  2186,
    -330,  -330,   988,   283,   289,  -330,   116,  1410,   282,  -330,
     284,  1168,  2082,  2133,  -330,  -330,  -330,  -330,    29,  -330,
      49,  -330,    76,  -330,  -330,  -330,   287,   292,   293,   298,
     303,   304,   306,  -330,  -330,  1557,  -330,  -330,  -330,  -330,
    -330,   126,  -330,   -23,  -330,  -330,  -330,  -330,   176,   176,
      35,    35,   271,   271,   271,   271,    73,    73,   272,   185,
     186,   188,   277,  1597,   235,  -330,   305,   307,   302,   189,
    1922,  1040,    17,  -330,  -330,  -330,  -330,  -330,   313,  -330,
    1597,   310,   316,  -330,   238,  1437,   101,  -330,  -330,   921,
    -330,   854,  -330,    12,  -330,  -330,  2238,   389,  -330,  -330,
    1410,  -330,  1597,  -330,  -330,  -330,  -330,  1597,   142,  -330,
     317,  -330,  -330,   321,   321,   321,  1300,  2290,   310,  2290,
     453,  1197,  -330,  1597,  -330,  -330,  -330,  1597,  -330,  -330,
    -330,  -330,   318,   314,   324,   -28,  -330,  -330,  -330,  1290,
    -330,  -330,  -330,  -330,  -330,  -330,  -330,  -330,  -330,  -330,
      69,  1597,   322,   127,  -330,   325,   323,  -330,   158,   329,
     335,   336,  1597,   338,   337,   339,   341,   786,   342,    32,
     328,   344,  1584,   786,  -330,  -330,  -330,   160,  -330,  -330,
    -330,  -330,  -330,  -330,  -330,  -330,   546,  -330,  -330,  -330,
     243,  -330,  -330,  -330,  -330,  -330,  1597,  -330,  -330,  -330,
    1437,  -330,  -330,  1597,  1300,  -330,  1597,  -330,  -330,  1597,
     310,  -330,   786,   786,   -16,   786,  1597,  1597,  1597,   336,
     371,  -330,   355,  1597,  -330,  -330,  -330,   167,  -330,  -330,
     353,   357,  1597,  -330,  1317,   349,  -330,  -330,  -330,  -330,
     -20,  -330,  -330,  -330,  1597,   786,  -330,   128,   129,   136,
     356,  -330,   172,  -330,  1597,   359,  -330,  -330,  -330,   361,
    -330,   786,   786,   786,  1597,  -330,   363,  1597,   786,   381,
    -330,  -330,   141,  1597,   360,  -330,   786,   366,   362,   786,
    -330,  -330,   786,  -330,  -330
};

/* YYDEFACT[STATE-NUM] -- Default reduction number in state STATE-NUM.
   Performed when YYTABLE does not specify something else to do.  Zero
   means the default is an error.  */
static const yytype_int16 yydefact[] =
{
     278,     0,     1,   142,   122,   123,   124,   126,   127,   183,
     125,   129,   130,   131,   132,   135,   136,   133,   134,   128,
     137,   138,   139,   179,   180,   181,   182,   150,   151,     0,
       0,     0,     0,   283,   282,   284,   281,   105,     0,   108,
     110,   111,   140,     0,   141,   112,   113,   279,   280,   173,
     174,     0,     0,     0,     0,   186,   103,     0,   200,   109,
       0,   116,   119,   285,   185,     0,   148,   149,   152,     0,
       0,   177,     0,   175,     2,     3,    11,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,    46,    51,
      50,    49,    48,    47,    23,     4,     7,    36,    52,     0,
      54,    58,    61,    64,    69,    72,    74,    76,    78,    80,
      82,   100,     0,   159,   215,   161,     0,     0,    52,    85,
      98,     0,     0,     0,   204,   202,   201,   104,   117,     0,
     287,     0,   192,   184,   152,   152,     0,     0,     0,     0,
     167,     0,     0,    40,     0,    37,    38,    45,     0,    43,
       0,     0,     0,     0,    44,   256,     0,     0,     0,    12,
       0,    29,    30,     0,     0,     0,    39,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,   115,   158,     0,   192,
     217,   216,   218,   160,   114,     0,     0,    88,    89,    90,
      91,    92,    93,    94,    95,    96,    97,    87,     0,     0,
     143,   144,   187,   205,   203,     0,     0,   230,   120,     0,
     213,   190,   212,     0,   206,   208,     0,     0,    47,   194,
       0,   196,     0,     0,   157,   145,   156,   153,     0,   169,
       0,   171,     0,   178,   168,   176,     0,     0,     0,     0,
       0,     0,     0,   258,     5,     0,     6,    13,    14,    28,
      25,     0,    34,     0,    27,    55,    56,    57,    60,    59,
      62,    63,    67,    68,    65,    66,    70,    71,    73,    75,
      77,    79,    81,     0,     0,   223,     0,     0,     0,   219,
       0,   192,     0,   107,    86,    99,   118,   121,     2,   229,
       0,     0,     0,   232,     0,     0,     0,   237,   288,     0,
     286,     0,   210,   217,   211,   189,     0,     0,   191,   197,
       0,   188,     0,   195,   146,   147,   154,     0,     0,   162,
     164,   170,   172,    41,     0,    42,     0,     0,     0,     0,
       0,     0,    53,     0,    26,    24,    84,     0,   224,   220,
     221,   225,     0,     0,     0,     0,   241,   236,   227,     0,
     231,   235,   238,   207,   209,   214,   198,   199,   165,   155,
       0,     0,     0,     0,    19,     0,     0,    15,     0,     0,
       2,   142,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,   250,   262,   257,     0,   260,   261,
     248,   242,   243,   259,   244,   245,   101,   246,   247,    33,
       0,    35,    83,   226,   222,   106,     0,   239,   228,   234,
       0,   163,   166,     0,     0,    18,     0,     8,     9,     0,
       0,    10,     0,     0,     0,     0,     0,     0,     0,     0,
       0,   267,     0,     0,   274,   275,   276,     0,   249,   263,
     102,     0,   101,    31,     0,     0,   233,    22,    20,    21,
       0,    16,   251,   252,     0,     0,   255,     0,     0,     0,
       0,   272,     0,   277,   101,     0,    32,   240,    17,     0,
     253,     0,     0,     0,     0,   273,     0,   101,     0,   264,
     266,   268,     0,   101,     0,   254,     0,     0,     0,     0,
     265,   269,     0,   271,   270
};

/* YYPGOTO[NTERM-NUM].  */
static const yytype_int16 yypgoto[] =
{
    -330,  -330,   252,  -146,  -330,  -330,  -330,    25,  -330,  -330,
     -35,  -330,   -52,   171,   177,    55,   152,   270,   273,   269,
     278,   268,  -330,   -50,    54,  -330,   -54,   -48,  -287,  -190,
    -110,     0,   -29,  -330,  -330,   250,  -330,  -330,    47,  -330,
    -330,   209,  -330,   -59,  -330,    85,  -330,   285,  -121,    37,
    -330,   -31,   -55,  -173,   -21,   -45,  -120,  -330,   148,  -330,
     -46,  -102,  -162,  -125,   125,  -329,  -330,   161,   -71,  -330,
    -330,   -66,  -330,  -330,  -330,  -330,  -330,  -330,  -330,  -330,
    -330,  -330,  -330,  -330,  -330
};

/* YYDEFGOTO[NTERM-NUM].  */
static const yytype_int16 yydefgoto[] =
{
       0,    94,    95,   302,   378,    96,   373,   374,    97,   261,
     118,    99,   100,   101,   102,   103,   104,   105,   106,   107,
     108,   109,   110,   119,   120,   208,   397,   112,   451,    36,
      37,   222,    39,    60,   215,    61,    62,    40,   113,    42,
      43,   136,   237,   114,   328,   329,    44,    72,    73,   115,
      46,   123,    64,   230,    65,   231,   286,   224,   225,   226,
     375,   287,   192,   303,   304,   305,   306,   307,   399,   400,
     401,   402,   253,   340,   403,   404,   405,   406,   407,   408,
       1,    47,    48,   130,   219
};

/* YYTABLE[YYPACT[STATE-NUM]] -- What to do in state STATE-NUM.  If
   positive, shift that token.  If negative, reduce the rule whose
   number is the opposite.  If YYTABLE_NINF, syntax error.  */
static const yytype_int16 yytable[] =
{
     121,    38,   111,   111,   218,   117,   116,    63,   122,    59,
     133,   223,   191,   126,   259,    55,   288,    98,    98,   264,
     245,   158,    71,   159,    52,   184,   236,   416,   289,   308,
     420,    55,    55,   156,   154,   442,    53,   125,    45,   464,
     129,   157,   143,   145,   146,    54,   149,   166,    41,    49,
      50,    98,    71,   188,   187,   189,   193,   195,    69,   209,
     417,   196,   209,    58,    98,   345,  -121,   465,   478,  -121,
     127,  -121,    55,   128,    55,    45,   158,   238,   158,    71,
     209,   131,   158,   132,   210,    41,   174,   175,   156,   111,
     156,   243,    71,   190,   156,   124,   246,   311,   247,   189,
     244,    70,   248,   354,    98,   214,   251,   252,   326,   185,
     263,   134,   327,    57,    57,   265,   266,   267,   353,   245,
     314,   245,   236,   236,    58,   420,    51,   443,   170,   171,
     331,   284,    98,    98,    98,    98,    98,    98,    98,    98,
      98,    98,    98,    98,    98,    98,    98,    98,    98,    98,
     398,   289,   327,   310,    57,   356,    57,   332,   135,   160,
     161,   162,   147,   213,    58,   475,    58,   190,    45,   124,
     352,   176,   177,   238,   238,   209,    66,    67,    41,   254,
     360,   139,   320,   217,   297,   361,   229,   486,   300,   150,
     301,   312,   377,    59,    23,    24,    25,    26,   317,   151,
     494,   313,   318,   342,   249,   250,   498,   330,   343,   424,
     209,   209,   344,   425,   481,   482,   452,   262,   209,   309,
      98,   369,   483,   209,   370,    45,   124,   497,   152,   272,
     273,   274,   275,   346,   419,    41,   163,   159,   164,   449,
     165,    58,   209,   229,   428,   429,   473,   430,    98,   209,
     111,   485,   355,    68,   209,   188,    45,   189,   133,    45,
     140,   141,   294,   295,   124,    98,    41,   153,   213,    41,
     217,   167,   168,   169,   290,   180,   291,   111,   297,   368,
      59,   319,   172,   173,   461,   323,   181,   178,   179,   182,
     313,   376,    98,   379,   183,   456,   186,   412,   239,   240,
     197,   198,   199,   200,   201,   202,   203,   204,   205,   206,
     241,   242,    98,   257,   258,    76,   440,   209,   347,   358,
     359,   111,   448,   422,   453,   454,   194,    45,   124,   419,
     276,   277,   111,   211,   434,   212,    98,    41,   447,   330,
     309,   268,   269,   232,   233,   229,    45,    98,    45,   270,
     271,   255,   450,    45,   137,   138,    41,   213,    41,   217,
     256,   462,   463,    41,   466,   207,   111,   293,   455,   315,
    -193,   316,   321,   333,   366,   460,   367,    45,   334,   335,
     336,    98,   467,   468,   469,   337,   338,    41,   339,   472,
     350,   348,   365,   349,   480,   217,   -13,   411,   450,   357,
     371,   341,   414,   415,   413,   423,   309,   444,   426,   427,
     489,   490,   491,   217,   111,   431,   479,   495,   432,   433,
     450,   435,   436,   445,   437,   500,   438,   441,   503,    98,
     492,   504,   470,   450,   471,   209,   474,   477,   487,   450,
     496,   484,   493,    45,   488,   501,   499,   292,   502,   458,
     278,   280,   282,    41,   279,   421,   380,   381,    75,    76,
      77,   281,    78,    79,   364,   296,   410,   362,     0,     0,
      80,     0,     0,     0,   217,     0,     0,   457,     0,     0,
     459,     0,     4,     5,     6,     7,     8,     9,    10,    11,
      12,    13,    14,    15,    16,    17,    18,    19,    20,    21,
      22,    23,    24,    25,    26,    27,    28,    29,   217,   382,
     383,   384,     0,   385,   386,   387,   388,   389,   390,   391,
     392,    30,    81,    82,    31,    32,    83,    84,    85,    86,
     393,   394,   395,   155,   396,     0,     0,     0,    87,     0,
       0,     0,     0,    88,    89,    90,    91,    92,    93,    74,
       3,    75,    76,    77,     0,    78,    79,     0,     0,     0,
       0,     0,     0,    80,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     4,     5,     6,     7,     8,
       9,    10,    11,    12,    13,    14,    15,    16,    17,    18,
      19,    20,    21,    22,    23,    24,    25,    26,    27,    28,
      29,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,    30,    81,    82,    31,    32,    83,
      84,    85,    86,     0,     0,     0,     0,     0,     0,     0,
       0,    87,     0,     0,     0,     0,    88,    89,    90,    91,
      92,    93,    74,     3,    75,    76,    77,     0,    78,    79,
       0,     0,     0,     0,     0,     0,    80,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,    11,    12,    13,    14,    15,
      16,    17,    18,    19,    20,    21,    22,    23,    24,    25,
      26,    27,    28,    29,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,    81,    82,
       0,    32,    83,    84,    85,    86,     0,     0,     0,   155,
       0,     0,     0,     0,    87,     0,     0,     0,     0,    88,
      89,    90,    91,    92,    93,    74,     3,    75,    76,    77,
       0,    78,    79,     0,     0,     0,     0,     0,    74,    80,
      75,    76,    77,     0,    78,    79,     0,     0,     0,     0,
       0,     0,    80,     0,     0,     0,     0,     0,    11,    12,
      13,    14,    15,    16,    17,    18,    19,    20,    21,    22,
      23,    24,    25,    26,    27,    28,    29,     0,     0,   380,
     439,    75,    76,    77,     0,    78,    79,     0,     0,     0,
       0,    81,    82,    80,    32,    83,    84,    85,    86,     0,
       0,     0,     0,     0,    81,    82,     0,    87,    83,    84,
      85,    86,    88,    89,    90,    91,    92,    93,     0,     0,
      87,   260,     0,     0,     0,    88,    89,    90,    91,    92,
      93,     0,   382,   383,   384,     0,   385,   386,   387,   388,
     389,   390,   391,   392,     0,    81,    82,    55,     3,    83,
      84,    85,    86,   393,   394,   395,   155,     0,     0,     0,
       0,    87,     0,     0,     0,     0,    88,    89,    90,    91,
      92,    93,     0,     4,     5,     6,     7,     8,     9,    10,
      11,    12,    13,    14,    15,    16,    17,    18,    19,    20,
      21,    22,    23,    24,    25,    26,    27,    28,    29,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,    30,     0,    55,     3,    32,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,   311,
     285,   189,     0,     0,     0,     0,     0,     0,     0,    58,
       4,     5,     6,     7,     8,     9,    10,    11,    12,    13,
      14,    15,    16,    17,    18,    19,    20,    21,    22,    23,
      24,    25,    26,    27,    28,    29,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,    30,
       0,    55,     3,    32,     0,     0,     0,     0,     0,     0,
      56,     0,     0,     0,     0,     0,    57,     0,     0,     0,
       0,     0,     0,     0,     0,     0,    58,     4,     5,     6,
       7,     8,     9,    10,    11,    12,    13,    14,    15,    16,
      17,    18,    19,    20,    21,    22,    23,    24,    25,    26,
      27,    28,    29,    74,     0,    75,    76,    77,     0,    78,
      79,     0,     0,     0,     0,     0,    30,    80,     0,     0,
      32,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,   227,     0,   311,     0,   189,     0,     0,   298,   258,
      75,    76,    77,    58,    78,    79,     0,     0,    23,    24,
      25,    26,    80,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,    81,
      82,     0,     0,    83,    84,    85,    86,     0,     0,     0,
       0,     0,     0,     0,     0,    87,     0,     0,     0,     0,
      88,    89,    90,    91,    92,   228,     0,     0,     0,     0,
       0,     0,     0,     0,    81,    82,     0,     0,    83,    84,
      85,    86,     0,     0,     0,   216,   299,     0,     0,     0,
      87,     0,   300,     0,   301,    88,    89,    90,    91,    92,
      93,    74,     0,    75,    76,    77,     0,    78,    79,     0,
       0,     0,     0,     0,     0,    80,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,   322,
     298,   258,    75,    76,    77,     0,    78,    79,     0,     0,
       0,     0,     0,     0,    80,     0,    23,    24,    25,    26,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,    81,    82,     0,
       0,    83,    84,    85,    86,     0,     0,     0,     0,     0,
       0,     0,     0,    87,     0,     0,     0,     0,    88,    89,
      90,    91,    92,    93,     0,     0,    81,    82,     0,     0,
      83,    84,    85,    86,     0,     0,     0,   216,   409,     0,
       0,     0,    87,     0,   300,     0,   301,    88,    89,    90,
      91,    92,    93,   298,   258,    75,    76,    77,     0,    78,
      79,     0,     0,     0,     3,     0,     0,    80,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
     298,   258,    75,    76,    77,     0,    78,    79,     0,     0,
       0,     0,     0,     0,    80,     0,    11,    12,    13,    14,
      15,    16,    17,    18,    19,    20,    21,    22,    23,    24,
      25,    26,    27,    28,    29,     0,     0,   372,     0,    81,
      82,     0,     0,    83,    84,    85,    86,     0,     0,     0,
     216,   418,    32,     0,     0,    87,     0,   300,     0,   301,
      88,    89,    90,    91,    92,    93,    81,    82,     0,     0,
      83,    84,    85,    86,     0,     0,     0,   216,   476,     0,
       0,     0,    87,     0,   300,     0,   301,    88,    89,    90,
      91,    92,    93,    74,     0,    75,    76,    77,     0,    78,
      79,     0,     0,     0,     0,     0,     0,    80,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
      74,     0,    75,    76,    77,     0,    78,    79,     0,     0,
       0,     0,     0,     0,    80,     0,     0,     0,    23,    24,
      25,    26,     0,     0,     0,     0,     0,    74,     0,    75,
      76,    77,     0,    78,    79,     0,     0,     0,     0,    81,
      82,    80,     0,    83,    84,    85,    86,     0,     0,     0,
       0,     0,     0,     0,     0,    87,     0,     0,     0,     0,
      88,    89,    90,    91,    92,    93,    81,    82,     0,     0,
      83,    84,    85,    86,     0,     0,     0,   216,     0,     0,
       0,     0,    87,     0,     0,     0,     0,    88,    89,    90,
      91,    92,    93,    81,    82,     0,     0,    83,    84,    85,
      86,     0,     0,     0,     0,     0,     0,   283,     0,    87,
       0,     0,     0,     0,    88,    89,    90,    91,    92,    93,
      74,     0,    75,    76,    77,     0,    78,    79,     0,     0,
       0,     0,     0,     0,    80,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,    74,     0,    75,
      76,    77,     0,    78,    79,     0,     0,     0,     0,     0,
      74,    80,    75,    76,    77,     0,    78,    79,     0,     0,
       0,     0,     0,     0,    80,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,    81,    82,     0,     0,
      83,    84,    85,    86,     0,     0,     0,   341,     0,     0,
       0,     0,    87,     0,     0,     0,     0,    88,    89,    90,
      91,    92,    93,    81,    82,     0,     0,    83,    84,    85,
      86,     0,     0,   446,     0,     0,    81,    82,     0,    87,
      83,    84,    85,    86,    88,    89,    90,    91,    92,    93,
       0,     0,    87,     0,     0,     0,     0,    88,    89,    90,
      91,    92,    93,    74,     0,    75,    76,    77,     0,    78,
      79,     0,     0,     0,     0,     0,    74,    80,    75,    76,
      77,     0,    78,    79,     0,     0,     0,     0,     0,     0,
      80,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,    74,     0,    75,    76,    77,     0,    78,
      79,     0,     0,     0,     0,     0,     0,    80,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,    81,
      82,     0,     0,    83,    84,    85,    86,     0,     0,     0,
       0,     0,    81,    82,     0,   142,    83,    84,    85,    86,
      88,    89,    90,    91,    92,    93,     0,     0,   144,     0,
       0,     0,     0,    88,    89,    90,    91,    92,    93,    81,
      82,     3,     0,    83,    84,    85,    86,     0,     0,     0,
       0,     0,     0,     0,     0,   148,     0,     0,     0,     0,
      88,    89,    90,    91,    92,    93,     4,     5,     6,     7,
       8,     9,    10,    11,    12,    13,    14,    15,    16,    17,
      18,    19,    20,    21,    22,    23,    24,    25,    26,    27,
      28,    29,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,    30,     0,   220,     3,    32,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,   188,   285,   189,     0,     0,     0,     0,     0,
       0,     0,    58,     4,     5,     6,     7,     8,     9,    10,
      11,    12,    13,    14,    15,    16,    17,    18,    19,    20,
      21,    22,    23,    24,    25,    26,    27,    28,    29,     0,
       0,     0,     0,     0,     0,     0,     3,     0,     0,     0,
       0,     0,    30,     0,     0,     0,    32,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
     221,     4,     5,     6,     7,     8,     9,    10,    11,    12,
      13,    14,    15,    16,    17,    18,    19,    20,    21,    22,
      23,    24,    25,    26,    27,    28,    29,     0,     0,     0,
       2,     0,     0,     0,     3,     0,     0,     0,     0,     0,
      30,     0,     0,     0,    32,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,   351,     4,
       5,     6,     7,     8,     9,    10,    11,    12,    13,    14,
      15,    16,    17,    18,    19,    20,    21,    22,    23,    24,
      25,    26,    27,    28,    29,     3,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,    30,     0,
       0,    31,    32,     0,     0,     0,     0,    33,    34,    35,
       0,     0,     0,     0,     0,     0,     0,    11,    12,    13,
      14,    15,    16,    17,    18,    19,    20,    21,    22,    23,
      24,    25,    26,    27,    28,    29,     3,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,    31,    32,     0,     0,     0,     0,     0,     0,
     234,     0,   235,     0,     0,     0,     0,     0,    11,    12,
      13,    14,    15,    16,    17,    18,    19,    20,    21,    22,
      23,    24,    25,    26,    27,    28,    29,     3,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,    31,    32,     0,     0,     0,     0,     0,
       0,   234,     0,   324,     0,     0,     0,     0,     0,    11,
      12,    13,    14,    15,    16,    17,    18,    19,    20,    21,
      22,    23,    24,    25,    26,    27,    28,    29,     0,     0,
       3,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,    31,    32,     0,     0,     0,     0,
       0,     0,   234,     0,   325,     4,     5,     6,     7,     8,
       9,    10,    11,    12,    13,    14,    15,    16,    17,    18,
      19,    20,    21,    22,    23,    24,    25,    26,    27,    28,
      29,     0,     3,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,    30,     0,     0,    31,    32,     0,
       0,     0,     0,     0,     0,     0,   155,     4,     5,     6,
       7,     8,     9,    10,    11,    12,    13,    14,    15,    16,
      17,    18,    19,    20,    21,    22,    23,    24,    25,    26,
      27,    28,    29,   363,     3,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,    30,     0,     0,     0,
      32,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,    11,    12,    13,    14,
      15,    16,    17,    18,    19,    20,    21,    22,    23,    24,
      25,    26,    27,    28,    29,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,    32
};

static const yytype_int16 yycheck[] =
{
      54,     1,    52,    53,   129,    53,    52,    38,    54,    38,
      65,   131,   114,    58,   160,     3,   189,    52,    53,   165,
     141,    87,     3,     6,    85,    18,   136,    55,   190,   219,
     359,     3,     3,    87,    86,     3,    85,    58,     1,    55,
      84,    87,    77,    78,    79,    85,    81,    99,     1,     3,
       4,    86,     3,    85,   113,    87,   115,    82,    80,    82,
      88,    86,    82,    95,    99,    88,    79,    83,    88,    82,
      79,    84,     3,    82,     3,    38,   142,   136,   144,     3,
      82,    85,   148,    87,    86,    38,    13,    14,   142,   139,
     144,   139,     3,   114,   148,    58,   142,    85,   144,    87,
      81,    80,   148,    86,   139,   126,   152,   153,    79,   102,
     164,    80,    83,    85,    85,   167,   168,   169,   291,   240,
     222,   242,   232,   233,    95,   454,    80,    95,    93,    94,
      81,   185,   167,   168,   169,   170,   171,   172,   173,   174,
     175,   176,   177,   178,   179,   180,   181,   182,   183,   184,
     340,   313,    83,   219,    85,   301,    85,    81,    80,     8,
       9,    10,     3,   126,    95,   452,    95,   188,   131,   132,
     290,    98,    99,   232,   233,    82,     3,     4,   131,    86,
     305,    84,   227,   129,   215,    84,   132,   474,    87,    85,
      89,   222,   338,   222,    48,    49,    50,    51,    82,    85,
     487,   222,    86,   255,   150,   151,   493,   238,    82,    82,
      82,    82,    86,    86,    86,    86,   406,   163,    82,   219,
     255,    79,    86,    82,    82,   188,   189,    86,    85,   174,
     175,   176,   177,   283,   359,   188,    85,     6,    87,    79,
      89,    95,    82,   189,    86,    87,    79,    89,   283,    82,
     300,    79,   300,    80,    82,    85,   219,    87,   313,   222,
      81,    82,   208,   209,   227,   300,   219,    85,   231,   222,
     216,    95,    96,    97,    85,    90,    87,   327,   309,   327,
     309,   227,    11,    12,   430,   231,   100,    15,    16,   101,
     311,   337,   327,   339,    17,   420,    86,   347,    81,    82,
      19,    20,    21,    22,    23,    24,    25,    26,    27,    28,
      81,    82,   347,     3,     4,     6,   387,    82,    83,    81,
      82,   371,   393,   371,    81,    82,    86,   290,   291,   454,
     178,   179,   382,    86,   382,    86,   371,   290,   392,   370,
     340,   170,   171,   134,   135,   291,   309,   382,   311,   172,
     173,    86,   406,   316,    69,    70,   309,   320,   311,   305,
      86,   432,   433,   316,   435,    84,   416,    79,   416,    86,
      88,    82,    88,    86,   320,   429,   322,   340,    86,    86,
      82,   416,   436,   437,   438,    82,    82,   340,    82,   443,
      88,    86,     3,    86,   465,   341,    83,   343,   452,    83,
      83,    80,    88,    79,    86,    83,   406,    79,    83,    86,
     481,   482,   483,   359,   464,    86,   464,   488,    83,    83,
     474,    83,    85,    79,    85,   496,    85,    85,   499,   464,
     484,   502,    61,   487,    79,    82,    79,    88,    79,   493,
      59,    85,    79,   406,    83,    79,    86,   195,    86,   424,
     180,   182,   184,   406,   181,   370,     3,     4,     5,     6,
       7,   183,     9,    10,   316,   215,   341,   306,    -1,    -1,
      17,    -1,    -1,    -1,   420,    -1,    -1,   423,    -1,    -1,
     426,    -1,    29,    30,    31,    32,    33,    34,    35,    36,
      37,    38,    39,    40,    41,    42,    43,    44,    45,    46,
      47,    48,    49,    50,    51,    52,    53,    54,   454,    56,
      57,    58,    -1,    60,    61,    62,    63,    64,    65,    66,
      67,    68,    69,    70,    71,    72,    73,    74,    75,    76,
      77,    78,    79,    80,    81,    -1,    -1,    -1,    85,    -1,
      -1,    -1,    -1,    90,    91,    92,    93,    94,    95,     3,
       4,     5,     6,     7,    -1,     9,    10,    -1,    -1,    -1,
      -1,    -1,    -1,    17,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    29,    30,    31,    32,    33,
      34,    35,    36,    37,    38,    39,    40,    41,    42,    43,
      44,    45,    46,    47,    48,    49,    50,    51,    52,    53,
      54,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    68,    69,    70,    71,    72,    73,
      74,    75,    76,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    85,    -1,    -1,    -1,    -1,    90,    91,    92,    93,
      94,    95,     3,     4,     5,     6,     7,    -1,     9,    10,
      -1,    -1,    -1,    -1,    -1,    -1,    17,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    36,    37,    38,    39,    40,
      41,    42,    43,    44,    45,    46,    47,    48,    49,    50,
      51,    52,    53,    54,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    69,    70,
      -1,    72,    73,    74,    75,    76,    -1,    -1,    -1,    80,
      -1,    -1,    -1,    -1,    85,    -1,    -1,    -1,    -1,    90,
      91,    92,    93,    94,    95,     3,     4,     5,     6,     7,
      -1,     9,    10,    -1,    -1,    -1,    -1,    -1,     3,    17,
       5,     6,     7,    -1,     9,    10,    -1,    -1,    -1,    -1,
      -1,    -1,    17,    -1,    -1,    -1,    -1,    -1,    36,    37,
      38,    39,    40,    41,    42,    43,    44,    45,    46,    47,
      48,    49,    50,    51,    52,    53,    54,    -1,    -1,     3,
       4,     5,     6,     7,    -1,     9,    10,    -1,    -1,    -1,
      -1,    69,    70,    17,    72,    73,    74,    75,    76,    -1,
      -1,    -1,    -1,    -1,    69,    70,    -1,    85,    73,    74,
      75,    76,    90,    91,    92,    93,    94,    95,    -1,    -1,
      85,    86,    -1,    -1,    -1,    90,    91,    92,    93,    94,
      95,    -1,    56,    57,    58,    -1,    60,    61,    62,    63,
      64,    65,    66,    67,    -1,    69,    70,     3,     4,    73,
      74,    75,    76,    77,    78,    79,    80,    -1,    -1,    -1,
      -1,    85,    -1,    -1,    -1,    -1,    90,    91,    92,    93,
      94,    95,    -1,    29,    30,    31,    32,    33,    34,    35,
      36,    37,    38,    39,    40,    41,    42,    43,    44,    45,
      46,    47,    48,    49,    50,    51,    52,    53,    54,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    68,    -1,     3,     4,    72,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    85,
      86,    87,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    95,
      29,    30,    31,    32,    33,    34,    35,    36,    37,    38,
      39,    40,    41,    42,    43,    44,    45,    46,    47,    48,
      49,    50,    51,    52,    53,    54,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    68,
      -1,     3,     4,    72,    -1,    -1,    -1,    -1,    -1,    -1,
      79,    -1,    -1,    -1,    -1,    -1,    85,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    95,    29,    30,    31,
      32,    33,    34,    35,    36,    37,    38,    39,    40,    41,
      42,    43,    44,    45,    46,    47,    48,    49,    50,    51,
      52,    53,    54,     3,    -1,     5,     6,     7,    -1,     9,
      10,    -1,    -1,    -1,    -1,    -1,    68,    17,    -1,    -1,
      72,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    31,    -1,    85,    -1,    87,    -1,    -1,     3,     4,
       5,     6,     7,    95,     9,    10,    -1,    -1,    48,    49,
      50,    51,    17,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    69,
      70,    -1,    -1,    73,    74,    75,    76,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    85,    -1,    -1,    -1,    -1,
      90,    91,    92,    93,    94,    95,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    69,    70,    -1,    -1,    73,    74,
      75,    76,    -1,    -1,    -1,    80,    81,    -1,    -1,    -1,
      85,    -1,    87,    -1,    89,    90,    91,    92,    93,    94,
      95,     3,    -1,     5,     6,     7,    -1,     9,    10,    -1,
      -1,    -1,    -1,    -1,    -1,    17,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    31,
       3,     4,     5,     6,     7,    -1,     9,    10,    -1,    -1,
      -1,    -1,    -1,    -1,    17,    -1,    48,    49,    50,    51,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    69,    70,    -1,
      -1,    73,    74,    75,    76,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    85,    -1,    -1,    -1,    -1,    90,    91,
      92,    93,    94,    95,    -1,    -1,    69,    70,    -1,    -1,
      73,    74,    75,    76,    -1,    -1,    -1,    80,    81,    -1,
      -1,    -1,    85,    -1,    87,    -1,    89,    90,    91,    92,
      93,    94,    95,     3,     4,     5,     6,     7,    -1,     9,
      10,    -1,    -1,    -1,     4,    -1,    -1,    17,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
       3,     4,     5,     6,     7,    -1,     9,    10,    -1,    -1,
      -1,    -1,    -1,    -1,    17,    -1,    36,    37,    38,    39,
      40,    41,    42,    43,    44,    45,    46,    47,    48,    49,
      50,    51,    52,    53,    54,    -1,    -1,    57,    -1,    69,
      70,    -1,    -1,    73,    74,    75,    76,    -1,    -1,    -1,
      80,    81,    72,    -1,    -1,    85,    -1,    87,    -1,    89,
      90,    91,    92,    93,    94,    95,    69,    70,    -1,    -1,
      73,    74,    75,    76,    -1,    -1,    -1,    80,    81,    -1,
      -1,    -1,    85,    -1,    87,    -1,    89,    90,    91,    92,
      93,    94,    95,     3,    -1,     5,     6,     7,    -1,     9,
      10,    -1,    -1,    -1,    -1,    -1,    -1,    17,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
       3,    -1,     5,     6,     7,    -1,     9,    10,    -1,    -1,
      -1,    -1,    -1,    -1,    17,    -1,    -1,    -1,    48,    49,
      50,    51,    -1,    -1,    -1,    -1,    -1,     3,    -1,     5,
       6,     7,    -1,     9,    10,    -1,    -1,    -1,    -1,    69,
      70,    17,    -1,    73,    74,    75,    76,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    85,    -1,    -1,    -1,    -1,
      90,    91,    92,    93,    94,    95,    69,    70,    -1,    -1,
      73,    74,    75,    76,    -1,    -1,    -1,    80,    -1,    -1,
      -1,    -1,    85,    -1,    -1,    -1,    -1,    90,    91,    92,
      93,    94,    95,    69,    70,    -1,    -1,    73,    74,    75,
      76,    -1,    -1,    -1,    -1,    -1,    -1,    83,    -1,    85,
      -1,    -1,    -1,    -1,    90,    91,    92,    93,    94,    95,
       3,    -1,     5,     6,     7,    -1,     9,    10,    -1,    -1,
      -1,    -1,    -1,    -1,    17,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,     3,    -1,     5,
       6,     7,    -1,     9,    10,    -1,    -1,    -1,    -1,    -1,
       3,    17,     5,     6,     7,    -1,     9,    10,    -1,    -1,
      -1,    -1,    -1,    -1,    17,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    69,    70,    -1,    -1,
      73,    74,    75,    76,    -1,    -1,    -1,    80,    -1,    -1,
      -1,    -1,    85,    -1,    -1,    -1,    -1,    90,    91,    92,
      93,    94,    95,    69,    70,    -1,    -1,    73,    74,    75,
      76,    -1,    -1,    79,    -1,    -1,    69,    70,    -1,    85,
      73,    74,    75,    76,    90,    91,    92,    93,    94,    95,
      -1,    -1,    85,    -1,    -1,    -1,    -1,    90,    91,    92,
      93,    94,    95,     3,    -1,     5,     6,     7,    -1,     9,
      10,    -1,    -1,    -1,    -1,    -1,     3,    17,     5,     6,
       7,    -1,     9,    10,    -1,    -1,    -1,    -1,    -1,    -1,
      17,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,     3,    -1,     5,     6,     7,    -1,     9,
      10,    -1,    -1,    -1,    -1,    -1,    -1,    17,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    69,
      70,    -1,    -1,    73,    74,    75,    76,    -1,    -1,    -1,
      -1,    -1,    69,    70,    -1,    85,    73,    74,    75,    76,
      90,    91,    92,    93,    94,    95,    -1,    -1,    85,    -1,
      -1,    -1,    -1,    90,    91,    92,    93,    94,    95,    69,
      70,     4,    -1,    73,    74,    75,    76,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    85,    -1,    -1,    -1,    -1,
      90,    91,    92,    93,    94,    95,    29,    30,    31,    32,
      33,    34,    35,    36,    37,    38,    39,    40,    41,    42,
      43,    44,    45,    46,    47,    48,    49,    50,    51,    52,
      53,    54,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    68,    -1,     3,     4,    72,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    85,    86,    87,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    95,    29,    30,    31,    32,    33,    34,    35,
      36,    37,    38,    39,    40,    41,    42,    43,    44,    45,
      46,    47,    48,    49,    50,    51,    52,    53,    54,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,     4,    -1,    -1,    -1,
      -1,    -1,    68,    -1,    -1,    -1,    72,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      86,    29,    30,    31,    32,    33,    34,    35,    36,    37,
      38,    39,    40,    41,    42,    43,    44,    45,    46,    47,
      48,    49,    50,    51,    52,    53,    54,    -1,    -1,    -1,
       0,    -1,    -1,    -1,     4,    -1,    -1,    -1,    -1,    -1,
      68,    -1,    -1,    -1,    72,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    86,    29,
      30,    31,    32,    33,    34,    35,    36,    37,    38,    39,
      40,    41,    42,    43,    44,    45,    46,    47,    48,    49,
      50,    51,    52,    53,    54,     4,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    68,    -1,
      -1,    71,    72,    -1,    -1,    -1,    -1,    77,    78,    79,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    36,    37,    38,
      39,    40,    41,    42,    43,    44,    45,    46,    47,    48,
      49,    50,    51,    52,    53,    54,     4,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    71,    72,    -1,    -1,    -1,    -1,    -1,    -1,
      79,    -1,    81,    -1,    -1,    -1,    -1,    -1,    36,    37,
      38,    39,    40,    41,    42,    43,    44,    45,    46,    47,
      48,    49,    50,    51,    52,    53,    54,     4,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    71,    72,    -1,    -1,    -1,    -1,    -1,
      -1,    79,    -1,    81,    -1,    -1,    -1,    -1,    -1,    36,
      37,    38,    39,    40,    41,    42,    43,    44,    45,    46,
      47,    48,    49,    50,    51,    52,    53,    54,    -1,    -1,
       4,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    71,    72,    -1,    -1,    -1,    -1,
      -1,    -1,    79,    -1,    81,    29,    30,    31,    32,    33,
      34,    35,    36,    37,    38,    39,    40,    41,    42,    43,
      44,    45,    46,    47,    48,    49,    50,    51,    52,    53,
      54,    -1,     4,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    68,    -1,    -1,    71,    72,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    80,    29,    30,    31,
      32,    33,    34,    35,    36,    37,    38,    39,    40,    41,
      42,    43,    44,    45,    46,    47,    48,    49,    50,    51,
      52,    53,    54,    55,     4,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    68,    -1,    -1,    -1,
      72,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    36,    37,    38,    39,
      40,    41,    42,    43,    44,    45,    46,    47,    48,    49,
      50,    51,    52,    53,    54,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    72
};

/* YYSTOS[STATE-NUM] -- The symbol kind of the accessing symbol of
   state STATE-NUM.  */
static const yytype_uint8 yystos[] =
{
       0,   183,     0,     4,    29,    30,    31,    32,    33,    34,
      35,    36,    37,    38,    39,    40,    41,    42,    43,    44,
      45,    46,    47,    48,    49,    50,    51,    52,    53,    54,
      68,    71,    72,    77,    78,    79,   132,   133,   134,   135,
     140,   141,   142,   143,   149,   152,   153,   184,   185,     3,
       4,    80,    85,    85,    85,     3,    79,    85,    95,   135,
     136,   138,   139,   154,   155,   157,     3,     4,    80,    80,
      80,     3,   150,   151,     3,     5,     6,     7,     9,    10,
      17,    69,    70,    73,    74,    75,    76,    85,    90,    91,
      92,    93,    94,    95,   104,   105,   108,   111,   113,   114,
     115,   116,   117,   118,   119,   120,   121,   122,   123,   124,
     125,   126,   130,   141,   146,   152,   163,   130,   113,   126,
     127,   129,   163,   154,   152,   157,   158,    79,    82,    84,
     186,    85,    87,   155,    80,    80,   144,   150,   150,    84,
      81,    82,    85,   113,    85,   113,   113,     3,    85,   113,
      85,    85,    85,    85,   115,    80,   129,   163,   174,     6,
       8,     9,    10,    85,    87,    89,   115,    95,    96,    97,
      93,    94,    11,    12,    13,    14,    98,    99,    15,    16,
      90,   100,   101,    17,    18,   102,    86,   146,    85,    87,
     157,   164,   165,   146,    86,    82,    86,    19,    20,    21,
      22,    23,    24,    25,    26,    27,    28,    84,   128,    82,
      86,    86,    86,   152,   157,   137,    80,   127,   166,   187,
       3,    86,   134,   159,   160,   161,   162,    31,    95,   127,
     156,   158,   144,   144,    79,    81,   133,   145,   146,    81,
      82,    81,    82,   130,    81,   151,   163,   163,   163,   127,
     127,   163,   163,   175,    86,    86,    86,     3,     4,   106,
      86,   112,   127,   129,   106,   115,   115,   115,   116,   116,
     117,   117,   118,   118,   118,   118,   119,   119,   120,   121,
     122,   123,   124,    83,   129,    86,   159,   164,   156,   165,
      85,    87,   105,    79,   127,   127,   138,   154,     3,    81,
      87,    89,   106,   166,   167,   168,   169,   170,   132,   134,
     174,    85,   154,   157,   164,    86,    82,    82,    86,   127,
     158,    88,    31,   127,    81,    81,    79,    83,   147,   148,
     154,    81,    81,    86,    86,    86,    82,    82,    82,    82,
     176,    80,   115,    82,    86,    88,   126,    83,    86,    86,
      88,    86,   159,   156,    86,   130,   106,    83,    81,    82,
     166,    84,   170,    55,   161,     3,   127,   127,   130,    79,
      82,    83,    57,   109,   110,   163,   163,   106,   107,   163,
       3,     4,    56,    57,    58,    60,    61,    62,    63,    64,
      65,    66,    67,    77,    78,    79,    81,   129,   132,   171,
     172,   173,   174,   177,   178,   179,   180,   181,   182,    81,
     167,   127,   126,    86,    88,    79,    55,    88,    81,   166,
     168,   148,   130,    83,    82,    86,    83,    86,    86,    87,
      89,    86,    83,    83,   130,    83,    85,    85,    85,     4,
     171,    85,     3,    95,    79,    79,    79,   129,   171,    79,
     129,   131,   132,    81,    82,   130,   166,   127,   110,   127,
     129,   106,   171,   171,    55,    83,   171,   129,   129,   129,
      61,    79,   129,    79,    79,   131,    81,    88,    88,   130,
     171,    86,    86,    86,    85,    79,   131,    79,    83,   171,
     171,   171,   129,    79,   131,   171,    59,    86,   131,    86,
     171,    79,    86,   171,   171
};

/* YYR1[RULE-NUM] -- Symbol kind of the left-hand side of rule RULE-NUM.  */
static const yytype_uint8 yyr1[] =
{
       0,   103,   104,   104,   104,   104,   104,   104,   104,   104,
     104,   105,   105,   106,   106,   107,   107,   107,   108,   109,
     109,   110,   110,   111,   111,   111,   111,   111,   111,   111,
     111,   111,   111,   111,   112,   112,   113,   113,   113,   113,
     113,   113,   113,   113,   113,   113,   114,   114,   114,   114,
     114,   114,   115,   115,   116,   116,   116,   116,   117,   117,
     117,   118,   118,   118,   119,   119,   119,   119,   119,   120,
     120,   120,   121,   121,   122,   122,   123,   123,   124,   124,
     125,   125,   126,   126,   126,   127,   127,   128,   128,   128,
     128,   128,   128,   128,   128,   128,   128,   128,   129,   129,
     130,   131,   131,   132,   132,   132,   133,   133,   134,   134,
     135,   135,   135,   135,   135,   135,   136,   137,   136,   138,
     138,   139,   140,   140,   140,   140,   140,   140,   141,   141,
     141,   141,   141,   141,   141,   141,   141,   141,   141,   141,
     141,   141,   141,   141,   141,   142,   142,   142,   142,   142,
     143,   143,   144,   144,   145,   145,   145,   145,   146,   146,
     146,   146,   147,   147,   148,   148,   148,   149,   149,   149,
     149,   149,   149,   149,   149,   150,   150,   151,   151,   152,
     152,   152,   152,   153,   154,   154,   155,   155,   155,   155,
     155,   155,   156,   156,   156,   156,   156,   156,   156,   156,
     157,   157,   157,   157,   158,   158,   159,   159,   160,   160,
     161,   161,   161,   162,   162,   163,   163,   164,   164,   164,
     165,   165,   165,   165,   165,   165,   165,   166,   166,   166,
     166,   167,   167,   167,   167,   168,   168,   169,   169,   170,
     170,   170,   171,   171,   171,   171,   171,   171,   171,   172,
     172,   173,   173,   173,   173,   173,   175,   174,   176,   176,
     177,   177,   178,   178,   179,   179,   179,   180,   181,   181,
     181,   181,   182,   182,   182,   182,   182,   182,   183,   183,
     184,   184,   184,   184,   184,   186,   185,   187,   187
};

/* YYR2[RULE-NUM] -- Number of symbols on the right-hand side of rule RULE-NUM.  */
static const yytype_int8 yyr2[] =
{
       0,     2,     1,     1,     1,     3,     3,     1,     6,     6,
       6,     1,     2,     1,     1,     1,     3,     4,     6,     1,
       3,     3,     3,     1,     4,     3,     4,     3,     3,     2,
       2,     6,     7,     5,     1,     3,     1,     2,     2,     2,
       2,     4,     4,     2,     2,     2,     1,     1,     1,     1,
       1,     1,     1,     4,     1,     3,     3,     3,     1,     3,
       3,     1,     3,     3,     1,     3,     3,     3,     3,     1,
       3,     3,     1,     3,     1,     3,     1,     3,     1,     3,
       1,     3,     1,     5,     4,     1,     3,     1,     1,     1,
       1,     1,     1,     1,     1,     1,     1,     1,     1,     3,
       1,     0,     1,     2,     3,     1,     7,     5,     1,     2,
       1,     1,     1,     1,     4,     4,     1,     0,     4,     1,
       3,     1,     1,     1,     1,     1,     1,     1,     1,     1,
       1,     1,     1,     1,     1,     1,     1,     1,     1,     1,
       1,     1,     1,     4,     4,     4,     5,     5,     2,     2,
       1,     1,     0,     2,     2,     3,     1,     1,     2,     1,
       2,     1,     1,     3,     1,     2,     3,     4,     5,     5,
       6,     5,     6,     2,     2,     1,     3,     1,     3,     1,
       1,     1,     1,     1,     2,     1,     1,     3,     4,     4,
       3,     4,     0,     1,     1,     2,     1,     2,     3,     3,
       1,     2,     2,     3,     1,     2,     1,     3,     1,     3,
       2,     2,     1,     1,     3,     1,     2,     1,     1,     2,
       3,     3,     4,     2,     3,     3,     4,     3,     4,     2,
       1,     2,     1,     4,     3,     2,     2,     1,     2,     3,
       5,     2,     1,     1,     1,     1,     1,     1,     1,     2,
       1,     3,     3,     4,     6,     3,     0,     4,     0,     2,
       1,     1,     1,     2,     5,     7,     5,     2,     5,     7,
       8,     7,     3,     4,     2,     2,     2,     3,     0,     2,
       1,     1,     1,     1,     1,     0,     5,     0,     2
};


enum { YYENOMEM = -2 };

#define yyerrok         (yyerrstatus = 0)
#define yyclearin       (yychar = CC_EMPTY)

#define YYACCEPT        goto yyacceptlab
#define YYABORT         goto yyabortlab
#define YYERROR         goto yyerrorlab
#define YYNOMEM         goto yyexhaustedlab


#define YYRECOVERING()  (!!yyerrstatus)

#define YYBACKUP(Token, Value)                                    \
  do                                                              \
    if (yychar == CC_EMPTY)                                        \
      {                                                           \
        yychar = (Token);                                         \
        yylval = (Value);                                         \
        YYPOPSTACK (yylen);                                       \
        yystate = *yyssp;                                         \
        goto yybackup;                                            \
      }                                                           \
    else                                                          \
      {                                                           \
        yyerror (&yylloc, scanner, YY_("syntax error: cannot back up")); \
        YYERROR;                                                  \
      }                                                           \
  while (0)

/* Backward compatibility with an undocumented macro.
   Use CC_error or CC_UNDEF. */
#define YYERRCODE CC_UNDEF

/* YYLLOC_DEFAULT -- Set CURRENT to span from RHS[1] to RHS[N].
   If N is 0, then set CURRENT to the empty location which ends
   the previous symbol: RHS[0] (always defined).  */

#ifndef YYLLOC_DEFAULT
# define YYLLOC_DEFAULT(Current, Rhs, N)                                \
    do                                                                  \
      if (N)                                                            \
        {                                                               \
          (Current).first_line   = YYRHSLOC (Rhs, 1).first_line;        \
          (Current).first_column = YYRHSLOC (Rhs, 1).first_column;      \
          (Current).last_line    = YYRHSLOC (Rhs, N).last_line;         \
          (Current).last_column  = YYRHSLOC (Rhs, N).last_column;       \
        }                                                               \
      else                                                              \
        {                                                               \
          (Current).first_line   = (Current).last_line   =              \
            YYRHSLOC (Rhs, 0).last_line;                                \
          (Current).first_column = (Current).last_column =              \
            YYRHSLOC (Rhs, 0).last_column;                              \
        }                                                               \
    while (0)
#endif

#define YYRHSLOC(Rhs, K) ((Rhs)[K])


/* Enable debugging if requested.  */
#if CC_DEBUG

# ifndef YYFPRINTF
#  include <stdio.h> /* INFRINGES ON USER NAME SPACE */
#  define YYFPRINTF fprintf
# endif

# define YYDPRINTF(Args)                        \
do {                                            \
  if (yydebug)                                  \
    YYFPRINTF Args;                             \
} while (0)


/* YYLOCATION_PRINT -- Print the location on the stream.
   This macro was not mandated originally: define only if we know
   we won't break user code: when these are the locations we know.  */

# ifndef YYLOCATION_PRINT

#  if defined YY_LOCATION_PRINT

   /* Temporary convenience wrapper in case some people defined the
      undocumented and private YY_LOCATION_PRINT macros.  */
#   define YYLOCATION_PRINT(File, Loc)  YY_LOCATION_PRINT(File, *(Loc))

#  elif defined CC_LTYPE_IS_TRIVIAL && CC_LTYPE_IS_TRIVIAL

/* Print *YYLOCP on YYO.  Private, do not rely on its existence. */

YY_ATTRIBUTE_UNUSED
static int
yy_location_print_ (FILE *yyo, YYLTYPE const * const yylocp)
{
  int res = 0;
  int end_col = 0 != yylocp->last_column ? yylocp->last_column - 1 : 0;
  if (0 <= yylocp->first_line)
    {
      res += YYFPRINTF (yyo, "%d", yylocp->first_line);
      if (0 <= yylocp->first_column)
        res += YYFPRINTF (yyo, ".%d", yylocp->first_column);
    }
  if (0 <= yylocp->last_line)
    {
      if (yylocp->first_line < yylocp->last_line)
        {
          res += YYFPRINTF (yyo, "-%d", yylocp->last_line);
          if (0 <= end_col)
            res += YYFPRINTF (yyo, ".%d", end_col);
        }
      else if (0 <= end_col && yylocp->first_column < end_col)
        res += YYFPRINTF (yyo, "-%d", end_col);
    }
  return res;
}

#   define YYLOCATION_PRINT  yy_location_print_

    /* Temporary convenience wrapper in case some people defined the
       undocumented and private YY_LOCATION_PRINT macros.  */
#   define YY_LOCATION_PRINT(File, Loc)  YYLOCATION_PRINT(File, &(Loc))

#  else

#   define YYLOCATION_PRINT(File, Loc) ((void) 0)
    /* Temporary convenience wrapper in case some people defined the
       undocumented and private YY_LOCATION_PRINT macros.  */
#   define YY_LOCATION_PRINT  YYLOCATION_PRINT

#  endif
# endif /* !defined YYLOCATION_PRINT */


# define YY_SYMBOL_PRINT(Title, Kind, Value, Location)                    \
do {                                                                      \
  if (yydebug)                                                            \
    {                                                                     \
      YYFPRINTF (stderr, "%s ", Title);                                   \
      yy_symbol_print (stderr,                                            \
                  Kind, Value, Location, scanner); \
      YYFPRINTF (stderr, "\n");                                           \
    }                                                                     \
} while (0)


/*-----------------------------------.
| Print this symbol's value on YYO.  |
`-----------------------------------*/

static void
yy_symbol_value_print (FILE *yyo,
                       yysymbol_kind_t yykind, YYSTYPE const * const yyvaluep, YYLTYPE const * const yylocationp, void *scanner)
{
  FILE *yyoutput = yyo;
  YY_USE (yyoutput);
  YY_USE (yylocationp);
  YY_USE (scanner);
  if (!yyvaluep)
    return;
  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  YY_USE (yykind);
  YY_IGNORE_MAYBE_UNINITIALIZED_END
}


/*---------------------------.
| Print this symbol on YYO.  |
`---------------------------*/

static void
yy_symbol_print (FILE *yyo,
                 yysymbol_kind_t yykind, YYSTYPE const * const yyvaluep, YYLTYPE const * const yylocationp, void *scanner)
{
  YYFPRINTF (yyo, "%s %s (",
             yykind < YYNTOKENS ? "token" : "nterm", yysymbol_name (yykind));

  YYLOCATION_PRINT (yyo, yylocationp);
  YYFPRINTF (yyo, ": ");
  yy_symbol_value_print (yyo, yykind, yyvaluep, yylocationp, scanner);
  YYFPRINTF (yyo, ")");
}

/*------------------------------------------------------------------.
| yy_stack_print -- Print the state stack from its BOTTOM up to its |
| TOP (included).                                                   |
`------------------------------------------------------------------*/

static void
yy_stack_print (yy_state_t *yybottom, yy_state_t *yytop)
{
  YYFPRINTF (stderr, "Stack now");
  for (; yybottom <= yytop; yybottom++)
    {
      int yybot = *yybottom;
      YYFPRINTF (stderr, " %d", yybot);
    }
  YYFPRINTF (stderr, "\n");
}

# define YY_STACK_PRINT(Bottom, Top)                            \
do {                                                            \
  if (yydebug)                                                  \
    yy_stack_print ((Bottom), (Top));                           \
} while (0)


/*------------------------------------------------.
| Report that the YYRULE is going to be reduced.  |
`------------------------------------------------*/

static void
yy_reduce_print (yy_state_t *yyssp, YYSTYPE *yyvsp, YYLTYPE *yylsp,
                 int yyrule, void *scanner)
{
  int yylno = yyrline[yyrule];
  int yynrhs = yyr2[yyrule];
  int yyi;
  YYFPRINTF (stderr, "Reducing stack by rule %d (line %d):\n",
             yyrule - 1, yylno);
  /* The symbols being reduced.  */
  for (yyi = 0; yyi < yynrhs; yyi++)
    {
      YYFPRINTF (stderr, "   $%d = ", yyi + 1);
      yy_symbol_print (stderr,
                       YY_ACCESSING_SYMBOL (+yyssp[yyi + 1 - yynrhs]),
                       &yyvsp[(yyi + 1) - (yynrhs)],
                       &(yylsp[(yyi + 1) - (yynrhs)]), scanner);
      YYFPRINTF (stderr, "\n");
    }
}

# define YY_REDUCE_PRINT(Rule)          \
do {                                    \
  if (yydebug)                          \
    yy_reduce_print (yyssp, yyvsp, yylsp, Rule, scanner); \
} while (0)

/* Nonzero means print parse trace.  It is left uninitialized so that
   multiple parsers can coexist.  */
int yydebug;
#else /* !CC_DEBUG */
# define YYDPRINTF(Args) ((void) 0)
# define YY_SYMBOL_PRINT(Title, Kind, Value, Location)
# define YY_STACK_PRINT(Bottom, Top)
# define YY_REDUCE_PRINT(Rule)
#endif /* !CC_DEBUG */


/* YYINITDEPTH -- initial size of the parser's stacks.  */
#ifndef YYINITDEPTH
# define YYINITDEPTH 200
#endif

/* YYMAXDEPTH -- maximum size the stacks can grow to (effective only
   if the built-in stack extension method is used).

   Do not make this value too large; the results are undefined if
   YYSTACK_ALLOC_MAXIMUM < YYSTACK_BYTES (YYMAXDEPTH)
   evaluated with infinite-precision integer arithmetic.  */

#ifndef YYMAXDEPTH
# define YYMAXDEPTH 10000
#endif


/* Context of a parse error.  */
typedef struct
{
  yy_state_t *yyssp;
  yysymbol_kind_t yytoken;
  YYLTYPE *yylloc;
} yypcontext_t;

/* Put in YYARG at most YYARGN of the expected tokens given the
   current YYCTX, and return the number of tokens stored in YYARG.  If
   YYARG is null, return the number of expected tokens (guaranteed to
   be less than YYNTOKENS).  Return YYENOMEM on memory exhaustion.
   Return 0 if there are more than YYARGN expected tokens, yet fill
   YYARG up to YYARGN. */
static int
yypcontext_expected_tokens (const yypcontext_t *yyctx,
                            yysymbol_kind_t yyarg[], int yyargn)
{
  /* Actual size of YYARG. */
  int yycount = 0;
  int yyn = yypact[+*yyctx->yyssp];
  if (!yypact_value_is_default (yyn))
    {
      /* Start YYX at -YYN if negative to avoid negative indexes in
         YYCHECK.  In other words, skip the first -YYN actions for
         this state because they are default actions.  */
      int yyxbegin = yyn < 0 ? -yyn : 0;
      /* Stay within bounds of both yycheck and yytname.  */
      int yychecklim = YYLAST - yyn + 1;
      int yyxend = yychecklim < YYNTOKENS ? yychecklim : YYNTOKENS;
      int yyx;
      for (yyx = yyxbegin; yyx < yyxend; ++yyx)
        if (yycheck[yyx + yyn] == yyx && yyx != YYSYMBOL_YYerror
            && !yytable_value_is_error (yytable[yyx + yyn]))
          {
            if (!yyarg)
              ++yycount;
            else if (yycount == yyargn)
              return 0;
            else
              yyarg[yycount++] = YY_CAST (yysymbol_kind_t, yyx);
          }
    }
  if (yyarg && yycount == 0 && 0 < yyargn)
    yyarg[0] = YYSYMBOL_YYEMPTY;
  return yycount;
}




#ifndef yystrlen
# if defined __GLIBC__ && defined _STRING_H
#  define yystrlen(S) (YY_CAST (YYPTRDIFF_T, strlen (S)))
# else
/* Return the length of YYSTR.  */
static YYPTRDIFF_T
yystrlen (const char *yystr)
{
  YYPTRDIFF_T yylen;
  for (yylen = 0; yystr[yylen]; yylen++)
    continue;
  return yylen;
}
# endif
#endif

#ifndef yystpcpy
# if defined __GLIBC__ && defined _STRING_H && defined _GNU_SOURCE
#  define yystpcpy stpcpy
# else
/* Copy YYSRC to YYDEST, returning the address of the terminating '\0' in
   YYDEST.  */
static char *
yystpcpy (char *yydest, const char *yysrc)
{
  char *yyd = yydest;
  const char *yys = yysrc;

  while ((*yyd++ = *yys++) != '\0')
    continue;

  return yyd - 1;
}
# endif
#endif

#ifndef yytnamerr
/* Copy to YYRES the contents of YYSTR after stripping away unnecessary
   quotes and backslashes, so that it's suitable for yyerror.  The
   heuristic is that double-quoting is unnecessary unless the string
   contains an apostrophe, a comma, or backslash (other than
   backslash-backslash).  YYSTR is taken from yytname.  If YYRES is
   null, do not copy; instead, return the length of what the result
   would have been.  */
static YYPTRDIFF_T
yytnamerr (char *yyres, const char *yystr)
{
  if (*yystr == '"')
    {
      YYPTRDIFF_T yyn = 0;
      char const *yyp = yystr;
      for (;;)
        switch (*++yyp)
          {
          case '\'':
          case ',':
            goto do_not_strip_quotes;

          case '\\':
            if (*++yyp != '\\')
              goto do_not_strip_quotes;
            else
              goto append;

          append:
          default:
            if (yyres)
              yyres[yyn] = *yyp;
            yyn++;
            break;

          case '"':
            if (yyres)
              yyres[yyn] = '\0';
            return yyn;
          }
    do_not_strip_quotes: ;
    }

  if (yyres)
    return yystpcpy (yyres, yystr) - yyres;
  else
    return yystrlen (yystr);
}
#endif


static int
yy_syntax_error_arguments (const yypcontext_t *yyctx,
                           yysymbol_kind_t yyarg[], int yyargn)
{
  /* Actual size of YYARG. */
  int yycount = 0;
  /* There are many possibilities here to consider:
     - If this state is a consistent state with a default action, then
       the only way this function was invoked is if the default action
       is an error action.  In that case, don't check for expected
       tokens because there are none.
     - The only way there can be no lookahead present (in yychar) is if
       this state is a consistent state with a default action.  Thus,
       detecting the absence of a lookahead is sufficient to determine
       that there is no unexpected or expected token to report.  In that
       case, just report a simple "syntax error".
     - Don't assume there isn't a lookahead just because this state is a
       consistent state with a default action.  There might have been a
       previous inconsistent state, consistent state with a non-default
       action, or user semantic action that manipulated yychar.
     - Of course, the expected token list depends on states to have
       correct lookahead information, and it depends on the parser not
       to perform extra reductions after fetching a lookahead from the
       scanner and before detecting a syntax error.  Thus, state merging
       (from LALR or IELR) and default reductions corrupt the expected
       token list.  However, the list is correct for canonical LR with
       one exception: it will still contain any token that will not be
       accepted due to an error action in a later state.
  */
  if (yyctx->yytoken != YYSYMBOL_YYEMPTY)
    {
      int yyn;
      if (yyarg)
        yyarg[yycount] = yyctx->yytoken;
      ++yycount;
      yyn = yypcontext_expected_tokens (yyctx,
                                        yyarg ? yyarg + 1 : yyarg, yyargn - 1);
      if (yyn == YYENOMEM)
        return YYENOMEM;
      else
        yycount += yyn;
    }
  return yycount;
}

/* Copy into *YYMSG, which is of size *YYMSG_ALLOC, an error message
   about the unexpected token YYTOKEN for the state stack whose top is
   YYSSP.

   Return 0 if *YYMSG was successfully written.  Return -1 if *YYMSG is
   not large enough to hold the message.  In that case, also set
   *YYMSG_ALLOC to the required number of bytes.  Return YYENOMEM if the
   required number of bytes is too large to store.  */
static int
yysyntax_error (YYPTRDIFF_T *yymsg_alloc, char **yymsg,
                const yypcontext_t *yyctx)
{
  enum { YYARGS_MAX = 5 };
  /* Internationalized format string. */
  const char *yyformat = YY_NULLPTR;
  /* Arguments of yyformat: reported tokens (one for the "unexpected",
     one per "expected"). */
  yysymbol_kind_t yyarg[YYARGS_MAX];
  /* Cumulated lengths of YYARG.  */
  YYPTRDIFF_T yysize = 0;

  /* Actual size of YYARG. */
  int yycount = yy_syntax_error_arguments (yyctx, yyarg, YYARGS_MAX);
  if (yycount == YYENOMEM)
    return YYENOMEM;

  switch (yycount)
    {
#define YYCASE_(N, S)                       \
      case N:                               \
        yyformat = S;                       \
        break
    default: /* Avoid compiler warnings. */
      YYCASE_(0, YY_("syntax error"));
      YYCASE_(1, YY_("syntax error, unexpected %s"));
      YYCASE_(2, YY_("syntax error, unexpected %s, expecting %s"));
      YYCASE_(3, YY_("syntax error, unexpected %s, expecting %s or %s"));
      YYCASE_(4, YY_("syntax error, unexpected %s, expecting %s or %s or %s"));
      YYCASE_(5, YY_("syntax error, unexpected %s, expecting %s or %s or %s or %s"));
#undef YYCASE_
    }

  /* Compute error message size.  Don't count the "%s"s, but reserve
     room for the terminator.  */
  yysize = yystrlen (yyformat) - 2 * yycount + 1;
  {
    int yyi;
    for (yyi = 0; yyi < yycount; ++yyi)
      {
        YYPTRDIFF_T yysize1
          = yysize + yytnamerr (YY_NULLPTR, yytname[yyarg[yyi]]);
        if (yysize <= yysize1 && yysize1 <= YYSTACK_ALLOC_MAXIMUM)
          yysize = yysize1;
        else
          return YYENOMEM;
      }
  }

  if (*yymsg_alloc < yysize)
    {
      *yymsg_alloc = 2 * yysize;
      if (! (yysize <= *yymsg_alloc
             && *yymsg_alloc <= YYSTACK_ALLOC_MAXIMUM))
        *yymsg_alloc = YYSTACK_ALLOC_MAXIMUM;
      return -1;
    }

  /* Avoid sprintf, as that infringes on the user's name space.
     Don't have undefined behavior even if the translation
     produced a string with the wrong number of "%s"s.  */
  {
    char *yyp = *yymsg;
    int yyi = 0;
    while ((*yyp = *yyformat) != '\0')
      if (*yyp == '%' && yyformat[1] == 's' && yyi < yycount)
        {
          yyp += yytnamerr (yyp, yytname[yyarg[yyi++]]);
          yyformat += 2;
        }
      else
        {
          ++yyp;
          ++yyformat;
        }
  }
  return 0;
}


/*-----------------------------------------------.
| Release the memory associated to this symbol.  |
`-----------------------------------------------*/

static void
yydestruct (const char *yymsg,
            yysymbol_kind_t yykind, YYSTYPE *yyvaluep, YYLTYPE *yylocationp, void *scanner)
{
  YY_USE (yyvaluep);
  YY_USE (yylocationp);
  YY_USE (scanner);
  if (!yymsg)
    yymsg = "Deleting";
  YY_SYMBOL_PRINT (yymsg, yykind, yyvaluep, yylocationp);

  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  YY_USE (yykind);
  YY_IGNORE_MAYBE_UNINITIALIZED_END
}






/*----------.
| yyparse.  |
`----------*/

int
yyparse (void *scanner)
{
/* Lookahead token kind.  */
int yychar;


/* The semantic value of the lookahead symbol.  */
/* Default value used for initialization, for pacifying older GCCs
   or non-GCC compilers.  */
YY_INITIAL_VALUE (static YYSTYPE yyval_default;)
YYSTYPE yylval YY_INITIAL_VALUE (= yyval_default);

/* Location data for the lookahead symbol.  */
static YYLTYPE yyloc_default
# if defined CC_LTYPE_IS_TRIVIAL && CC_LTYPE_IS_TRIVIAL
  = { 1, 1, 1, 1 }
# endif
;
YYLTYPE yylloc = yyloc_default;

    /* Number of syntax errors so far.  */
    int yynerrs = 0;

    yy_state_fast_t yystate = 0;
    /* Number of tokens to shift before error messages enabled.  */
    int yyerrstatus = 0;

    /* Refer to the stacks through separate pointers, to allow yyoverflow
       to reallocate them elsewhere.  */

    /* Their size.  */
    YYPTRDIFF_T yystacksize = YYINITDEPTH;

    /* The state stack: array, bottom, top.  */
    yy_state_t yyssa[YYINITDEPTH];
    yy_state_t *yyss = yyssa;
    yy_state_t *yyssp = yyss;

    /* The semantic value stack: array, bottom, top.  */
    YYSTYPE yyvsa[YYINITDEPTH];
    YYSTYPE *yyvs = yyvsa;
    YYSTYPE *yyvsp = yyvs;

    /* The location stack: array, bottom, top.  */
    YYLTYPE yylsa[YYINITDEPTH];
    YYLTYPE *yyls = yylsa;
    YYLTYPE *yylsp = yyls;

  int yyn;
  /* The return value of yyparse.  */
  int yyresult;
  /* Lookahead symbol kind.  */
  yysymbol_kind_t yytoken = YYSYMBOL_YYEMPTY;
  /* The variables used to return semantic value and location from the
     action routines.  */
  YYSTYPE yyval;
  YYLTYPE yyloc;

  /* The locations where the error started and ended.  */
  YYLTYPE yyerror_range[3];

  /* Buffer for error messages, and its allocated size.  */
  char yymsgbuf[128];
  char *yymsg = yymsgbuf;
  YYPTRDIFF_T yymsg_alloc = sizeof yymsgbuf;

#define YYPOPSTACK(N)   (yyvsp -= (N), yyssp -= (N), yylsp -= (N))

  /* The number of symbols on the RHS of the reduced rule.
     Keep to zero when no symbol should be popped.  */
  int yylen = 0;

  YYDPRINTF ((stderr, "Starting parse\n"));

  yychar = CC_EMPTY; /* Cause a token to be read.  */


/* User initialization code.  */
#line 167 "parser.y"
{ yylloc.ft = 0; yylloc.lt = -1; }

#line 2299 "parser.c"

  yylsp[0] = yylloc;
  goto yysetstate;


/*------------------------------------------------------------.
| yynewstate -- push a new state, which is found in yystate.  |
`------------------------------------------------------------*/
yynewstate:
  /* In all cases, when you get here, the value and location stacks
     have just been pushed.  So pushing a state here evens the stacks.  */
  yyssp++;


/*--------------------------------------------------------------------.
| yysetstate -- set current state (the top of the stack) to yystate.  |
`--------------------------------------------------------------------*/
yysetstate:
  YYDPRINTF ((stderr, "Entering state %d\n", yystate));
  YY_ASSERT (0 <= yystate && yystate < YYNSTATES);
  YY_IGNORE_USELESS_CAST_BEGIN
  *yyssp = YY_CAST (yy_state_t, yystate);
  YY_IGNORE_USELESS_CAST_END
  YY_STACK_PRINT (yyss, yyssp);

  if (yyss + yystacksize - 1 <= yyssp)
#if !defined yyoverflow && !defined YYSTACK_RELOCATE
    YYNOMEM;
#else
    {
      /* Get the current used size of the three stacks, in elements.  */
      YYPTRDIFF_T yysize = yyssp - yyss + 1;

# if defined yyoverflow
      {
        /* Give user a chance to reallocate the stack.  Use copies of
           these so that the &'s don't force the real ones into
           memory.  */
        yy_state_t *yyss1 = yyss;
        YYSTYPE *yyvs1 = yyvs;
        YYLTYPE *yyls1 = yyls;

        /* Each stack pointer address is followed by the size of the
           data in use in that stack, in bytes.  This used to be a
           conditional around just the two extra args, but that might
           be undefined if yyoverflow is a macro.  */
        yyoverflow (YY_("memory exhausted"),
                    &yyss1, yysize * YYSIZEOF (*yyssp),
                    &yyvs1, yysize * YYSIZEOF (*yyvsp),
                    &yyls1, yysize * YYSIZEOF (*yylsp),
                    &yystacksize);
        yyss = yyss1;
        yyvs = yyvs1;
        yyls = yyls1;
      }
# else /* defined YYSTACK_RELOCATE */
      /* Extend the stack our own way.  */
      if (YYMAXDEPTH <= yystacksize)
        YYNOMEM;
      yystacksize *= 2;
      if (YYMAXDEPTH < yystacksize)
        yystacksize = YYMAXDEPTH;

      {
        yy_state_t *yyss1 = yyss;
        union yyalloc *yyptr =
          YY_CAST (union yyalloc *,
                   YYSTACK_ALLOC (YY_CAST (YYSIZE_T, YYSTACK_BYTES (yystacksize))));
        if (! yyptr)
          YYNOMEM;
        YYSTACK_RELOCATE (yyss_alloc, yyss);
        YYSTACK_RELOCATE (yyvs_alloc, yyvs);
        YYSTACK_RELOCATE (yyls_alloc, yyls);
#  undef YYSTACK_RELOCATE
        if (yyss1 != yyssa)
          YYSTACK_FREE (yyss1);
      }
# endif

      yyssp = yyss + yysize - 1;
      yyvsp = yyvs + yysize - 1;
      yylsp = yyls + yysize - 1;

      YY_IGNORE_USELESS_CAST_BEGIN
      YYDPRINTF ((stderr, "Stack size increased to %ld\n",
                  YY_CAST (long, yystacksize)));
      YY_IGNORE_USELESS_CAST_END

      if (yyss + yystacksize - 1 <= yyssp)
        YYABORT;
    }
#endif /* !defined yyoverflow && !defined YYSTACK_RELOCATE */


  if (yystate == YYFINAL)
    YYACCEPT;

  goto yybackup;


/*-----------.
| yybackup.  |
`-----------*/
yybackup:
  /* Do appropriate processing given the current state.  Read a
     lookahead token if we need one and don't already have one.  */

  /* First try to decide what to do without reference to lookahead token.  */
  yyn = yypact[yystate];
  if (yypact_value_is_default (yyn))
    goto yydefault;

  /* Not known => get a lookahead token if don't already have one.  */

  /* YYCHAR is either empty, or end-of-input, or a valid lookahead.  */
  if (yychar == CC_EMPTY)
    {
      YYDPRINTF ((stderr, "Reading a token\n"));
      yychar = yylex (&yylval, &yylloc, scanner);
    }

  if (yychar <= CC_EOF)
    {
      yychar = CC_EOF;
      yytoken = YYSYMBOL_YYEOF;
      YYDPRINTF ((stderr, "Now at end of input.\n"));
    }
  else if (yychar == CC_error)
    {
      /* The scanner already issued an error message, process directly
         to error recovery.  But do not keep the error token as
         lookahead, it is too special and may lead us to an endless
         loop in error recovery. */
      yychar = CC_UNDEF;
      yytoken = YYSYMBOL_YYerror;
      yyerror_range[1] = yylloc;
      goto yyerrlab1;
    }
  else
    {
      yytoken = YYTRANSLATE (yychar);
      YY_SYMBOL_PRINT ("Next token is", yytoken, &yylval, &yylloc);
    }

  /* If the proper action on seeing token YYTOKEN is to reduce or to
     detect an error, take that action.  */
  yyn += yytoken;
  if (yyn < 0 || YYLAST < yyn || yycheck[yyn] != yytoken)
    goto yydefault;
  yyn = yytable[yyn];
  if (yyn <= 0)
    {
      if (yytable_value_is_error (yyn))
        goto yyerrlab;
      yyn = -yyn;
      goto yyreduce;
    }

  /* Count tokens shifted since error; after three, turn off error
     status.  */
  if (yyerrstatus)
    yyerrstatus--;

  /* Shift the lookahead token.  */
  YY_SYMBOL_PRINT ("Shifting", yytoken, &yylval, &yylloc);
  yystate = yyn;
  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  *++yyvsp = yylval;
  YY_IGNORE_MAYBE_UNINITIALIZED_END
  *++yylsp = yylloc;

  /* Discard the shifted token.  */
  yychar = CC_EMPTY;
  goto yynewstate;


/*-----------------------------------------------------------.
| yydefault -- do the default action for the current state.  |
`-----------------------------------------------------------*/
yydefault:
  yyn = yydefact[yystate];
  if (yyn == 0)
    goto yyerrlab;
  goto yyreduce;


/*-----------------------------.
| yyreduce -- do a reduction.  |
`-----------------------------*/
yyreduce:
  /* yyn is the number of a rule to reduce with.  */
  yylen = yyr2[yyn];

  /* If YYLEN is nonzero, implement the default value of the action:
     '$$ = $1'.

     Otherwise, the following line sets YYVAL to garbage.
     This behavior is undocumented and Bison
     users should not rely upon it.  Assigning to YYVAL
     unconditionally makes the parser a bit smaller, and it avoids a
     GCC warning that YYVAL may be used uninitialized.  */
  yyval = yyvsp[1-yylen];

  /* Default location. */
  YYLLOC_DEFAULT (yyloc, (yylsp - yylen), yylen);
  yyerror_range[1] = yyloc;
  YY_REDUCE_PRINT (yyn);
  switch (yyn)
    {
  case 2: /* primary_expression: IDENTIFIER  */
#line 175 "parser.y"
                                     { use_ident((yyvsp[0].t)); }
#line 2512 "parser.c"
    break;

  case 13: /* member_name: IDENTIFIER  */
#line 189 "parser.y"
                { toks[(yyvsp[0].t)].is_member = 1; }
#line 2518 "parser.c"
    break;

  case 14: /* member_name: TYPE_NAME  */
#line 190 "parser.y"
                { toks[(yyvsp[0].t)].is_member = 1; }
#line 2524 "parser.c"
    break;

  case 45: /* unary_expression: AND_OP IDENTIFIER  */
#line 229 "parser.y"
                        { error_at((yyvsp[-1].t), "labels as values (&&label) are not supported"); }
#line 2530 "parser.c"
    break;

  case 108: /* declaration_specifiers: declaration_specifier  */
#line 299 "parser.y"
                                                  { (yyval.spec) = (yyvsp[0].spec); (yyval.spec).ft = (yyloc).ft; (yyval.spec).lt = (yyloc).lt; }
#line 2536 "parser.c"
    break;

  case 109: /* declaration_specifiers: declaration_specifiers declaration_specifier  */
#line 300 "parser.y"
                                                  { (yyval.spec) = spec_merge((yyvsp[-1].spec), (yyvsp[0].spec)); (yyval.spec).ft = (yyloc).ft; (yyval.spec).lt = (yyloc).lt; }
#line 2542 "parser.c"
    break;

  case 114: /* declaration_specifier: ALIGNAS '(' type_name ')'  */
#line 308 "parser.y"
                                         { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2548 "parser.c"
    break;

  case 115: /* declaration_specifier: ALIGNAS '(' constant_expression ')'  */
#line 309 "parser.y"
                                         { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2554 "parser.c"
    break;

  case 116: /* init_declarator_list: init_declarator  */
#line 315 "parser.y"
                                                                  { (yyval.spec) = (yyvsp[-1].spec); }
#line 2560 "parser.c"
    break;

  case 117: /* @1: %empty  */
#line 316 "parser.y"
                             { (yyval.spec) = (yyvsp[-1].spec); }
#line 2566 "parser.c"
    break;

  case 118: /* init_declarator_list: init_declarator_list ',' @1 init_declarator  */
#line 316 "parser.y"
                                                                 { (yyval.spec) = (yyvsp[-3].spec); (void)(yyvsp[-1].spec); }
#line 2572 "parser.c"
    break;

  case 120: /* init_declarator: declarator_decl '=' initializer  */
#line 321 "parser.y"
                                      { Sym *y = toks[(yyvsp[-2].d)->ident].sym; if (y) y->has_init = 1; }
#line 2578 "parser.c"
    break;

  case 121: /* declarator_decl: declarator  */
#line 325 "parser.y"
               {
      Spec *s = &(yyvsp[-1].spec);
      (yyval.d) = (yyvsp[0].d);
      /* $<spec>0 is the declaration's specifiers: either the
         declaration_specifiers themselves or the copy init_declarator_list
         leaves in front of each later declarator. */
      Sym *y = declare(s, (yyvsp[0].d), s->ft, s->lt);
      if (y && y->kind == SYM_VAR && (y->depth == 0 || y->is_static))
        { toks[(yyvsp[0].d)->lt].attr_sym = y; }
    }
#line 2593 "parser.c"
    break;

  case 122: /* storage_class_specifier: TYPEDEF  */
#line 338 "parser.y"
                   { (yyval.spec) = spec_of(ST_TYPEDEF, 0, 0, 0); }
#line 2599 "parser.c"
    break;

  case 123: /* storage_class_specifier: EXTERN  */
#line 339 "parser.y"
                   { (yyval.spec) = spec_of(ST_EXTERN, 0, 0, 0); }
#line 2605 "parser.c"
    break;

  case 124: /* storage_class_specifier: STATIC  */
#line 340 "parser.y"
                   { (yyval.spec) = spec_of(ST_STATIC, 0, 0, 0); }
#line 2611 "parser.c"
    break;

  case 125: /* storage_class_specifier: THREAD_LOCAL  */
#line 341 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 1, 0); }
#line 2617 "parser.c"
    break;

  case 126: /* storage_class_specifier: AUTO  */
#line 342 "parser.y"
                   { (yyval.spec) = spec_of(ST_AUTO, 0, 0, 0); }
#line 2623 "parser.c"
    break;

  case 127: /* storage_class_specifier: REGISTER  */
#line 343 "parser.y"
                   { (yyval.spec) = spec_of(ST_REGISTER, 0, 0, 0); }
#line 2629 "parser.c"
    break;

  case 128: /* type_specifier: VOID  */
#line 347 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 1); }
#line 2635 "parser.c"
    break;

  case 129: /* type_specifier: CHAR  */
#line 348 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2641 "parser.c"
    break;

  case 130: /* type_specifier: SHORT  */
#line 349 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2647 "parser.c"
    break;

  case 131: /* type_specifier: INT  */
#line 350 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2653 "parser.c"
    break;

  case 132: /* type_specifier: LONG  */
#line 351 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2659 "parser.c"
    break;

  case 133: /* type_specifier: FLOAT  */
#line 352 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2665 "parser.c"
    break;

  case 134: /* type_specifier: DOUBLE  */
#line 353 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2671 "parser.c"
    break;

  case 135: /* type_specifier: SIGNED  */
#line 354 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2677 "parser.c"
    break;

  case 136: /* type_specifier: UNSIGNED  */
#line 355 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2683 "parser.c"
    break;

  case 137: /* type_specifier: BOOL  */
#line 356 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2689 "parser.c"
    break;

  case 138: /* type_specifier: COMPLEX  */
#line 357 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2695 "parser.c"
    break;

  case 139: /* type_specifier: EXTTYPE  */
#line 358 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2701 "parser.c"
    break;

  case 140: /* type_specifier: struct_or_union_specifier  */
#line 359 "parser.y"
                              { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2707 "parser.c"
    break;

  case 141: /* type_specifier: enum_specifier  */
#line 360 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2713 "parser.c"
    break;

  case 142: /* type_specifier: TYPE_NAME  */
#line 361 "parser.y"
                   { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2719 "parser.c"
    break;

  case 143: /* type_specifier: TYPEOF '(' expression ')'  */
#line 362 "parser.y"
                               { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2725 "parser.c"
    break;

  case 144: /* type_specifier: TYPEOF '(' type_name ')'  */
#line 363 "parser.y"
                               { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2731 "parser.c"
    break;

  case 158: /* specifier_qualifier_list: type_specifier specifier_qualifier_list  */
#line 386 "parser.y"
                                              { (yyval.spec) = spec_merge((yyvsp[-1].spec), (yyvsp[0].spec)); }
#line 2737 "parser.c"
    break;

  case 160: /* specifier_qualifier_list: type_qualifier specifier_qualifier_list  */
#line 388 "parser.y"
                                              { (yyval.spec) = spec_merge((yyvsp[-1].spec), (yyvsp[0].spec)); }
#line 2743 "parser.c"
    break;

  case 164: /* struct_declarator: declarator  */
#line 395 "parser.y"
                                        { }
#line 2749 "parser.c"
    break;

  case 166: /* struct_declarator: declarator ':' constant_expression  */
#line 397 "parser.y"
                                        { }
#line 2755 "parser.c"
    break;

  case 177: /* enumerator: IDENTIFIER  */
#line 414 "parser.y"
                                        { Sym *y = scope_declare(toks[(yyvsp[0].t)].text, SYM_ENUMC, (yyvsp[0].t)); toks[(yyvsp[0].t)].sym = y; }
#line 2761 "parser.c"
    break;

  case 178: /* enumerator: IDENTIFIER '=' constant_expression  */
#line 415 "parser.y"
                                        { Sym *y = scope_declare(toks[(yyvsp[-2].t)].text, SYM_ENUMC, (yyvsp[-2].t)); toks[(yyvsp[-2].t)].sym = y; }
#line 2767 "parser.c"
    break;

  case 179: /* type_qualifier: CONST  */
#line 419 "parser.y"
              { (yyval.spec) = spec_of(0, 1, 0, 0); }
#line 2773 "parser.c"
    break;

  case 180: /* type_qualifier: RESTRICT  */
#line 420 "parser.y"
              { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2779 "parser.c"
    break;

  case 181: /* type_qualifier: VOLATILE  */
#line 421 "parser.y"
              { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2785 "parser.c"
    break;

  case 182: /* type_qualifier: ATOMIC  */
#line 422 "parser.y"
              { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2791 "parser.c"
    break;

  case 183: /* function_specifier: INLINE  */
#line 425 "parser.y"
                            { (yyval.spec) = spec_of(0, 0, 0, 0); }
#line 2797 "parser.c"
    break;

  case 184: /* declarator: pointer direct_declarator  */
#line 428 "parser.y"
                              {
      (yyval.d) = (yyvsp[0].d); (yyval.d)->ft = (yyloc).ft; (yyval.d)->lt = (yyloc).lt;
      if ((yyval.d)->kind == DK_IDENT) { (yyval.d)->kind = DK_OBJ; (yyval.d)->ptr = 1; (yyval.d)->const_ptr = (yyvsp[-1].flag); }
    }
#line 2806 "parser.c"
    break;

  case 185: /* declarator: direct_declarator  */
#line 432 "parser.y"
                       { (yyval.d) = (yyvsp[0].d); (yyval.d)->ft = (yyloc).ft; (yyval.d)->lt = (yyloc).lt; }
#line 2812 "parser.c"
    break;

  case 186: /* direct_declarator: IDENTIFIER  */
#line 436 "parser.y"
                               { (yyval.d) = decl_new((yyvsp[0].t), DK_IDENT); }
#line 2818 "parser.c"
    break;

  case 187: /* direct_declarator: '(' declarator ')'  */
#line 437 "parser.y"
                               { (yyval.d) = (yyvsp[-1].d); }
#line 2824 "parser.c"
    break;

  case 188: /* direct_declarator: direct_declarator '[' array_size ']'  */
#line 438 "parser.y"
                                          { (yyval.d) = (yyvsp[-3].d); if ((yyval.d)->kind == DK_IDENT) (yyval.d)->kind = DK_OBJ; }
#line 2830 "parser.c"
    break;

  case 189: /* direct_declarator: direct_declarator '(' parameter_type_list ')'  */
#line 439 "parser.y"
                                                  {
      (yyval.d) = (yyvsp[-3].d);
      if ((yyval.d)->kind == DK_IDENT) {
        (yyval.d)->kind = DK_FUNC; (yyval.d)->params = (yyvsp[-1].p);
        int n = 0; for (Param *p = (yyvsp[-1].p); p; p = p->next) n++;
        (yyval.d)->nparams = n;
      }
    }
#line 2843 "parser.c"
    break;

  case 190: /* direct_declarator: direct_declarator '(' ')'  */
#line 447 "parser.y"
                               { (yyval.d) = (yyvsp[-2].d); if ((yyval.d)->kind == DK_IDENT) (yyval.d)->kind = DK_FUNC; }
#line 2849 "parser.c"
    break;

  case 191: /* direct_declarator: direct_declarator '(' identifier_list ')'  */
#line 448 "parser.y"
                                              { (yyval.d) = (yyvsp[-3].d); if ((yyval.d)->kind == DK_IDENT) (yyval.d)->kind = DK_FUNC; }
#line 2855 "parser.c"
    break;

  case 200: /* pointer: '*'  */
#line 463 "parser.y"
                                       { (yyval.flag) = 0; }
#line 2861 "parser.c"
    break;

  case 201: /* pointer: '*' type_qualifier_list  */
#line 464 "parser.y"
                                       { (yyval.flag) = (yyvsp[0].spec).is_const; }
#line 2867 "parser.c"
    break;

  case 202: /* pointer: '*' pointer  */
#line 465 "parser.y"
                                       { (yyval.flag) = (yyvsp[0].flag); }
#line 2873 "parser.c"
    break;

  case 203: /* pointer: '*' type_qualifier_list pointer  */
#line 466 "parser.y"
                                       { (yyval.flag) = (yyvsp[0].flag); }
#line 2879 "parser.c"
    break;

  case 205: /* type_qualifier_list: type_qualifier_list type_qualifier  */
#line 471 "parser.y"
                                       { (yyval.spec) = spec_merge((yyvsp[-1].spec), (yyvsp[0].spec)); }
#line 2885 "parser.c"
    break;

  case 209: /* parameter_list: parameter_list ',' parameter_declaration  */
#line 481 "parser.y"
                                             {
      (yyval.p) = (yyvsp[-2].p); Param *p = (yyvsp[-2].p); while (p && p->next) p = p->next;
      if (p) p->next = (yyvsp[0].p); else (yyval.p) = (yyvsp[0].p);
    }
#line 2894 "parser.c"
    break;

  case 210: /* parameter_declaration: declaration_specifiers declarator  */
#line 488 "parser.y"
                                      {
      (yyval.p) = xcalloc(1, sizeof *(yyval.p)); (yyval.p)->spec = (yyvsp[-1].spec); (yyval.p)->spec.ft = (yylsp[-1]).ft; (yyval.p)->spec.lt = (yylsp[-1]).lt; (yyval.p)->d = (yyvsp[0].d);
    }
#line 2902 "parser.c"
    break;

  case 211: /* parameter_declaration: declaration_specifiers abstract_declarator  */
#line 491 "parser.y"
                                               { (yyval.p) = NULL; }
#line 2908 "parser.c"
    break;

  case 212: /* parameter_declaration: declaration_specifiers  */
#line 492 "parser.y"
                                               { (yyval.p) = NULL; }
#line 2914 "parser.c"
    break;

  case 249: /* omp_statement: OMP_CONSTRUCT statement  */
#line 554 "parser.y"
                             { (yyval.n) = omp_node((yyvsp[-1].t), (yyloc).ft, (yyloc).lt, (yyvsp[0].n)); }
#line 2920 "parser.c"
    break;

  case 250: /* omp_statement: OMP_STANDALONE  */
#line 555 "parser.y"
                             { (yyval.n) = omp_node((yyvsp[0].t), (yyloc).ft, (yyloc).lt, NULL); }
#line 2926 "parser.c"
    break;

  case 251: /* labeled_statement: IDENTIFIER ':' statement  */
#line 559 "parser.y"
                                              { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); node_add((yyval.n), (yyvsp[0].n)); }
#line 2932 "parser.c"
    break;

  case 252: /* labeled_statement: TYPE_NAME ':' statement  */
#line 560 "parser.y"
                                              { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); node_add((yyval.n), (yyvsp[0].n)); }
#line 2938 "parser.c"
    break;

  case 253: /* labeled_statement: CASE constant_expression ':' statement  */
#line 561 "parser.y"
                                              { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); node_add((yyval.n), (yyvsp[0].n)); }
#line 2944 "parser.c"
    break;

  case 254: /* labeled_statement: CASE constant_expression ELLIPSIS constant_expression ':' statement  */
#line 562 "parser.y"
                                                                        { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); node_add((yyval.n), (yyvsp[0].n)); }
#line 2950 "parser.c"
    break;

  case 255: /* labeled_statement: DEFAULT ':' statement  */
#line 563 "parser.y"
                                              { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); node_add((yyval.n), (yyvsp[0].n)); }
#line 2956 "parser.c"
    break;

  case 256: /* $@2: %empty  */
#line 567 "parser.y"
        { scope_push(); }
#line 2962 "parser.c"
    break;

  case 257: /* compound_statement: '{' $@2 block_item_list '}'  */
#line 567 "parser.y"
                                               { scope_pop(); (yyval.n) = (yyvsp[-1].n); (yyval.n)->kind = N_COMPOUND; (yyval.n)->ft = (yyloc).ft; (yyval.n)->lt = (yyloc).lt; }
#line 2968 "parser.c"
    break;

  case 258: /* block_item_list: %empty  */
#line 571 "parser.y"
                                { (yyval.n) = node_new(N_COMPOUND, (yyloc).ft, (yyloc).lt); }
#line 2974 "parser.c"
    break;

  case 259: /* block_item_list: block_item_list block_item  */
#line 572 "parser.y"
                                { (yyval.n) = (yyvsp[-1].n); node_add((yyval.n), (yyvsp[0].n)); }
#line 2980 "parser.c"
    break;

  case 260: /* block_item: declaration  */
#line 576 "parser.y"
                  { (yyval.n) = NULL; }
#line 2986 "parser.c"
    break;

  case 262: /* expression_statement: ';'  */
#line 581 "parser.y"
                    { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); }
#line 2992 "parser.c"
    break;

  case 263: /* expression_statement: expression ';'  */
#line 582 "parser.y"
                    { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); }
#line 2998 "parser.c"
    break;

  case 264: /* selection_statement: IF '(' expression ')' statement  */
#line 586 "parser.y"
                                                    { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); node_add((yyval.n), (yyvsp[0].n)); }
#line 3004 "parser.c"
    break;

  case 265: /* selection_statement: IF '(' expression ')' statement ELSE statement  */
#line 587 "parser.y"
                                                    { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); node_add((yyval.n), (yyvsp[-2].n)); node_add((yyval.n), (yyvsp[0].n)); }
#line 3010 "parser.c"
    break;

  case 266: /* selection_statement: SWITCH '(' expression ')' statement  */
#line 588 "parser.y"
                                                    { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); node_add((yyval.n), (yyvsp[0].n)); }
#line 3016 "parser.c"
    break;

  case 267: /* for_open: FOR '('  */
#line 591 "parser.y"
                   { scope_push(); (yyval.n) = NULL; }
#line 3022 "parser.c"
    break;

  case 268: /* iteration_statement: WHILE '(' expression ')' statement  */
#line 594 "parser.y"
                                                    { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); node_add((yyval.n), (yyvsp[0].n)); }
#line 3028 "parser.c"
    break;

  case 269: /* iteration_statement: DO statement WHILE '(' expression ')' ';'  */
#line 595 "parser.y"
                                                    { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); node_add((yyval.n), (yyvsp[-5].n)); }
#line 3034 "parser.c"
    break;

  case 270: /* iteration_statement: for_open expression_opt ';' expression_opt ';' expression_opt ')' statement  */
#line 596 "parser.y"
                                                                                {
      scope_pop();
      (yyval.n) = node_new(N_FOR, (yyloc).ft, (yyloc).lt);
      (yyval.n)->ift = (yylsp[-6]).ft; (yyval.n)->ilt = (yylsp[-6]).lt; (yyval.n)->cft = (yylsp[-4]).ft; (yyval.n)->clt = (yylsp[-4]).lt; (yyval.n)->sft = (yylsp[-2]).ft; (yyval.n)->slt = (yylsp[-2]).lt;
      (yyval.n)->body = (yyvsp[0].n); node_add((yyval.n), (yyvsp[0].n));
    }
#line 3045 "parser.c"
    break;

  case 271: /* iteration_statement: for_open declaration expression_opt ';' expression_opt ')' statement  */
#line 602 "parser.y"
                                                                         {
      scope_pop();
      (yyval.n) = node_new(N_FOR, (yyloc).ft, (yyloc).lt);
      (yyval.n)->ift = (yylsp[-5]).ft; (yyval.n)->ilt = (yylsp[-5]).lt - 1; (yyval.n)->init_decl = 1;
      (yyval.n)->cft = (yylsp[-4]).ft; (yyval.n)->clt = (yylsp[-4]).lt; (yyval.n)->sft = (yylsp[-2]).ft; (yyval.n)->slt = (yylsp[-2]).lt;
      (yyval.n)->body = (yyvsp[0].n); node_add((yyval.n), (yyvsp[0].n));
    }
#line 3057 "parser.c"
    break;

  case 272: /* jump_statement: GOTO IDENTIFIER ';'  */
#line 612 "parser.y"
                            { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); }
#line 3063 "parser.c"
    break;

  case 273: /* jump_statement: GOTO '*' expression ';'  */
#line 613 "parser.y"
                            { error_at((yyvsp[-3].t), "computed goto is not supported"); (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); }
#line 3069 "parser.c"
    break;

  case 274: /* jump_statement: CONTINUE ';'  */
#line 614 "parser.y"
                            { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); }
#line 3075 "parser.c"
    break;

  case 275: /* jump_statement: BREAK ';'  */
#line 615 "parser.y"
                            { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); }
#line 3081 "parser.c"
    break;

  case 276: /* jump_statement: RETURN ';'  */
#line 616 "parser.y"
                            { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); }
#line 3087 "parser.c"
    break;

  case 277: /* jump_statement: RETURN expression ';'  */
#line 617 "parser.y"
                            { (yyval.n) = node_new(N_OTHER, (yyloc).ft, (yyloc).lt); }
#line 3093 "parser.c"
    break;

  case 282: /* external_declaration: OMP_STANDALONE  */
#line 626 "parser.y"
                     { add_top(omp_node((yyvsp[0].t), (yyloc).ft, (yyloc).lt, NULL)); }
#line 3099 "parser.c"
    break;

  case 283: /* external_declaration: OMP_CONSTRUCT  */
#line 627 "parser.y"
                     { error_at((yyvsp[0].t), "'#pragma omp %s' is not allowed at file scope", toks[(yyvsp[0].t)].text); }
#line 3105 "parser.c"
    break;

  case 285: /* $@3: %empty  */
#line 632 "parser.y"
                                      { begin_function(&(yyvsp[-1].spec), (yyvsp[0].d), (yylsp[-1]).ft, (yylsp[-1]).lt, (yylsp[-1]).ft); }
#line 3111 "parser.c"
    break;

  case 286: /* function_definition: declaration_specifiers declarator $@3 declaration_list_opt compound_statement  */
#line 633 "parser.y"
                                            {
      scope_pop();
      cur_func->lt = (yyloc).lt;
      cur_func->body = (yyvsp[0].n);
      add_top(cur_func);
      cur_func = NULL;
    }
#line 3123 "parser.c"
    break;


#line 3127 "parser.c"

      default: break;
    }
  /* User semantic actions sometimes alter yychar, and that requires
     that yytoken be updated with the new translation.  We take the
     approach of translating immediately before every use of yytoken.
     One alternative is translating here after every semantic action,
     but that translation would be missed if the semantic action invokes
     YYABORT, YYACCEPT, or YYERROR immediately after altering yychar or
     if it invokes YYBACKUP.  In the case of YYABORT or YYACCEPT, an
     incorrect destructor might then be invoked immediately.  In the
     case of YYERROR or YYBACKUP, subsequent parser actions might lead
     to an incorrect destructor call or verbose syntax error message
     before the lookahead is translated.  */
  YY_SYMBOL_PRINT ("-> $$ =", YY_CAST (yysymbol_kind_t, yyr1[yyn]), &yyval, &yyloc);

  YYPOPSTACK (yylen);
  yylen = 0;

  *++yyvsp = yyval;
  *++yylsp = yyloc;

  /* Now 'shift' the result of the reduction.  Determine what state
     that goes to, based on the state we popped back to and the rule
     number reduced by.  */
  {
    const int yylhs = yyr1[yyn] - YYNTOKENS;
    const int yyi = yypgoto[yylhs] + *yyssp;
    yystate = (0 <= yyi && yyi <= YYLAST && yycheck[yyi] == *yyssp
               ? yytable[yyi]
               : yydefgoto[yylhs]);
  }

  goto yynewstate;


/*--------------------------------------.
| yyerrlab -- here on detecting error.  |
`--------------------------------------*/
yyerrlab:
  /* Make sure we have latest lookahead translation.  See comments at
     user semantic actions for why this is necessary.  */
  yytoken = yychar == CC_EMPTY ? YYSYMBOL_YYEMPTY : YYTRANSLATE (yychar);
  /* If not already recovering from an error, report this error.  */
  if (!yyerrstatus)
    {
      ++yynerrs;
      {
        yypcontext_t yyctx
          = {yyssp, yytoken, &yylloc};
        char const *yymsgp = YY_("syntax error");
        int yysyntax_error_status;
        yysyntax_error_status = yysyntax_error (&yymsg_alloc, &yymsg, &yyctx);
        if (yysyntax_error_status == 0)
          yymsgp = yymsg;
        else if (yysyntax_error_status == -1)
          {
            if (yymsg != yymsgbuf)
              YYSTACK_FREE (yymsg);
            yymsg = YY_CAST (char *,
                             YYSTACK_ALLOC (YY_CAST (YYSIZE_T, yymsg_alloc)));
            if (yymsg)
              {
                yysyntax_error_status
                  = yysyntax_error (&yymsg_alloc, &yymsg, &yyctx);
                yymsgp = yymsg;
              }
            else
              {
                yymsg = yymsgbuf;
                yymsg_alloc = sizeof yymsgbuf;
                yysyntax_error_status = YYENOMEM;
              }
          }
        yyerror (&yylloc, scanner, yymsgp);
        if (yysyntax_error_status == YYENOMEM)
          YYNOMEM;
      }
    }

  yyerror_range[1] = yylloc;
  if (yyerrstatus == 3)
    {
      /* If just tried and failed to reuse lookahead token after an
         error, discard it.  */

      if (yychar <= CC_EOF)
        {
          /* Return failure if at end of input.  */
          if (yychar == CC_EOF)
            YYABORT;
        }
      else
        {
          yydestruct ("Error: discarding",
                      yytoken, &yylval, &yylloc, scanner);
          yychar = CC_EMPTY;
        }
    }

  /* Else will try to reuse lookahead token after shifting the error
     token.  */
  goto yyerrlab1;


/*---------------------------------------------------.
| yyerrorlab -- error raised explicitly by YYERROR.  |
`---------------------------------------------------*/
yyerrorlab:
  /* Pacify compilers when the user code never invokes YYERROR and the
     label yyerrorlab therefore never appears in user code.  */
  if (0)
    YYERROR;
  ++yynerrs;

  /* Do not reclaim the symbols of the rule whose action triggered
     this YYERROR.  */
  YYPOPSTACK (yylen);
  yylen = 0;
  YY_STACK_PRINT (yyss, yyssp);
  yystate = *yyssp;
  goto yyerrlab1;


/*-------------------------------------------------------------.
| yyerrlab1 -- common code for both syntax error and YYERROR.  |
`-------------------------------------------------------------*/
yyerrlab1:
  yyerrstatus = 3;      /* Each real token shifted decrements this.  */

  /* Pop stack until we find a state that shifts the error token.  */
  for (;;)
    {
      yyn = yypact[yystate];
      if (!yypact_value_is_default (yyn))
        {
          yyn += YYSYMBOL_YYerror;
          if (0 <= yyn && yyn <= YYLAST && yycheck[yyn] == YYSYMBOL_YYerror)
            {
              yyn = yytable[yyn];
              if (0 < yyn)
                break;
            }
        }

      /* Pop the current state because it cannot handle the error token.  */
      if (yyssp == yyss)
        YYABORT;

      yyerror_range[1] = *yylsp;
      yydestruct ("Error: popping",
                  YY_ACCESSING_SYMBOL (yystate), yyvsp, yylsp, scanner);
      YYPOPSTACK (1);
      yystate = *yyssp;
      YY_STACK_PRINT (yyss, yyssp);
    }

  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  *++yyvsp = yylval;
  YY_IGNORE_MAYBE_UNINITIALIZED_END

  yyerror_range[2] = yylloc;
  ++yylsp;
  YYLLOC_DEFAULT (*yylsp, yyerror_range, 2);

  /* Shift the error token.  */
  YY_SYMBOL_PRINT ("Shifting", YY_ACCESSING_SYMBOL (yyn), yyvsp, yylsp);

  yystate = yyn;
  goto yynewstate;


/*-------------------------------------.
| yyacceptlab -- YYACCEPT comes here.  |
`-------------------------------------*/
yyacceptlab:
  yyresult = 0;
  goto yyreturnlab;


/*-----------------------------------.
| yyabortlab -- YYABORT comes here.  |
`-----------------------------------*/
yyabortlab:
  yyresult = 1;
  goto yyreturnlab;


/*-----------------------------------------------------------.
| yyexhaustedlab -- YYNOMEM (memory exhaustion) comes here.  |
`-----------------------------------------------------------*/
yyexhaustedlab:
  yyerror (&yylloc, scanner, YY_("memory exhausted"));
  yyresult = 2;
  goto yyreturnlab;


/*----------------------------------------------------------.
| yyreturnlab -- parsing is finished, clean up and return.  |
`----------------------------------------------------------*/
yyreturnlab:
  if (yychar != CC_EMPTY)
    {
      /* Make sure we have latest lookahead translation.  See comments at
         user semantic actions for why this is necessary.  */
      yytoken = YYTRANSLATE (yychar);
      yydestruct ("Cleanup: discarding lookahead",
                  yytoken, &yylval, &yylloc, scanner);
    }
  /* Do not reclaim the symbols of the rule whose action triggered
     this YYABORT or YYACCEPT.  */
  YYPOPSTACK (yylen);
  YY_STACK_PRINT (yyss, yyssp);
  while (yyssp != yyss)
    {
      yydestruct ("Cleanup: popping",
                  YY_ACCESSING_SYMBOL (+*yyssp), yyvsp, yylsp, scanner);
      YYPOPSTACK (1);
    }
#ifndef yyoverflow
  if (yyss != yyssa)
    YYSTACK_FREE (yyss);
#endif
  if (yymsg != yymsgbuf)
    YYSTACK_FREE (yymsg);
  return yyresult;
}

#line 644 "parser.y"


int parse_file(FILE *in)
{
  void *lex_open(FILE *in);
  void lex_close(void *scanner);
  void *s = lex_open(in);
  int r = cc_parse(s);
  lex_close(s);
  return r || nerrors;
}
