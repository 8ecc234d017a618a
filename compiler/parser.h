/* A Bison parser, made by GNU Bison 3.8.2.  */

/* Bison interface for Yacc-like parsers in C

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

/* DO NOT RELY ON FEATURES THAT ARE NOT DOCUMENTED in the manual,
   especially those whose name start with YY_ or yy_.  They are
   private implementation details that can be changed or removed.  */

#ifndef YY_CC_PARSER_H_INCLUDED
# define YY_CC_PARSER_H_INCLUDED
/* Debug traces.  */
#ifndef CC_DEBUG
# if defined YYDEBUG
#if YYDEBUG
#   define CC_DEBUG 1
#  else
#   define CC_DEBUG 0
#  endif
# else /* ! defined YYDEBUG */
#  define CC_DEBUG 0
# endif /* ! defined YYDEBUG */
#endif  /* ! defined CC_DEBUG */
#if CC_DEBUG
extern int cc_debug;
#endif
/* "%code requires" blocks.  */
#line 21 "parser.y"

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

#line 72 "parser.h"

/* Token kinds.  */
#ifndef CC_TOKENTYPE
# define CC_TOKENTYPE
  enum cc_tokentype
  {
    CC_EMPTY = -2,
    CC_EOF = 0,                    /* "end of file"  */
    CC_error = 256,                /* error  */
    CC_UNDEF = 257,                /* "invalid token"  */
    IDENTIFIER = 258,              /* IDENTIFIER  */
    TYPE_NAME = 259,               /* TYPE_NAME  */
    CONSTANT = 260,                /* CONSTANT  */
    STRING_LITERAL = 261,          /* STRING_LITERAL  */
    SIZEOF = 262,                  /* SIZEOF  */
    PTR_OP = 263,                  /* PTR_OP  */
    INC_OP = 264,                  /* INC_OP  */
    DEC_OP = 265,                  /* DEC_OP  */
    LEFT_OP = 266,                 /* LEFT_OP  */
    RIGHT_OP = 267,                /* RIGHT_OP  */
    LE_OP = 268,                   /* LE_OP  */
    GE_OP = 269,                   /* GE_OP  */
    EQ_OP = 270,                   /* EQ_OP  */
    NE_OP = 271,                   /* NE_OP  */
    AND_OP = 272,                  /* AND_OP  */
    OR_OP = 273,                   /* OR_OP  */
    MUL_ASSIGN = 274,              /* MUL_ASSIGN  */
    DIV_ASSIGN = 275,              /* DIV_ASSIGN  */
    MOD_ASSIGN = 276,              /* MOD_ASSIGN  */
    ADD_ASSIGN = 277,              /* ADD_ASSIGN  */
    SUB_ASSIGN = 278,              /* SUB_ASSIGN  */
    LEFT_ASSIGN = 279,             /* LEFT_ASSIGN  */
    RIGHT_ASSIGN = 280,            /* RIGHT_ASSIGN  */
    AND_ASSIGN = 281,              /* AND_ASSIGN  */
    XOR_ASSIGN = 282,              /* XOR_ASSIGN  */
    OR_ASSIGN = 283,               /* OR_ASSIGN  */
    TYPEDEF = 284,                 /* TYPEDEF  */
    EXTERN = 285,                  /* EXTERN  */
    STATIC = 286,                  /* STATIC  */
    AUTO = 287,                    /* AUTO  */
    REGISTER = 288,                /* REGISTER  */
    INLINE = 289,                  /* INLINE  */
    THREAD_LOCAL = 290,            /* THREAD_LOCAL  */
    CHAR = 291,                    /* CHAR  */
    SHORT = 292,                   /* SHORT  */
    INT = 293,                     /* INT  */
    LONG = 294,                    /* LONG  */
    SIGNED = 295,                  /* SIGNED  */
    UNSIGNED = 296,                /* UNSIGNED  */
    FLOAT = 297,                   /* FLOAT  */
    DOUBLE = 298,                  /* DOUBLE  */
    VOID = 299,                    /* VOID  */
    BOOL = 300,                    /* BOOL  */
    COMPLEX = 301,                 /* COMPLEX  */
    EXTTYPE = 302,                 /* EXTTYPE  */
    CONST = 303,                   /* CONST  */
    RESTRICT = 304,                /* RESTRICT  */
    VOLATILE = 305,                /* VOLATILE  */
    ATOMIC = 306,                  /* ATOMIC  */
    STRUCT = 307,                  /* STRUCT  */
    UNION = 308,                   /* UNION  */
    ENUM = 309,                    /* ENUM  */
    ELLIPSIS = 310,                /* ELLIPSIS  */
    CASE = 311,                    /* CASE  */
    DEFAULT = 312,                 /* DEFAULT  */
    IF = 313,                      /* IF  */
    ELSE = 314,                    /* ELSE  */
    SWITCH = 315,                  /* SWITCH  */
    WHILE = 316,                   /* WHILE  */
    DO = 317,                      /* DO  */
    FOR = 318,                     /* FOR  */
    GOTO = 319,                    /* GOTO  */
    CONTINUE = 320,                /* CONTINUE  */
    BREAK = 321,                   /* BREAK  */
    RETURN = 322,                  /* RETURN  */
    ALIGNAS = 323,                 /* ALIGNAS  */
    ALIGNOF = 324,                 /* ALIGNOF  */
    GENERIC = 325,                 /* GENERIC  */
    STATIC_ASSERT = 326,           /* STATIC_ASSERT  */
    TYPEOF = 327,                  /* TYPEOF  */
    BUILTIN_VA_ARG = 328,          /* BUILTIN_VA_ARG  */
    BUILTIN_OFFSETOF = 329,        /* BUILTIN_OFFSETOF  */
    BUILTIN_TYPES_COMPAT = 330,    /* BUILTIN_TYPES_COMPAT  */
    REALIMAG = 331,                /* REALIMAG  */
    OMP_CONSTRUCT = 332,           /* OMP_CONSTRUCT  */
    OMP_STANDALONE = 333           /* OMP_STANDALONE  */
  };
  typedef enum cc_tokentype cc_token_kind_t;
#endif

/* Value type.  */
#if ! defined CC_STYPE && ! defined CC_STYPE_IS_DECLARED
union CC_STYPE
{
#line 36 "parser.y"

  int t;
  Node *n;
  Decl *d;
  Spec spec;
  Param *p;
  int flag;

#line 176 "parser.h"

};
typedef union CC_STYPE CC_STYPE;
# define CC_STYPE_IS_TRIVIAL 1
# define CC_STYPE_IS_DECLARED 1
#endif

/* Location type.  */
#if ! defined CC_LTYPE && ! defined CC_LTYPE_IS_DECLARED
typedef struct CC_LTYPE CC_LTYPE;
struct CC_LTYPE
{
  int first_line;
  int first_column;
  int last_line;
  int last_column;
};
# define CC_LTYPE_IS_DECLARED 1
# define CC_LTYPE_IS_TRIVIAL 1
#endif




int cc_parse (void *scanner);


#endif /* !YY_CC_PARSER_H_INCLUDED  */
