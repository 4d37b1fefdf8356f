// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Every name upstream's public headers declare must be declared by ours,
 * with the same value, prototype and (on LP64) layout. The lists are
 * X-macros, verbs.h's by default, mlx5dv.h's with UP_MLX5DV defined
 * (mlx5dv.h includes verbs.h): upstream-*-44.def were generated from Debian's
 * rdma-core 44 headers (gen_upstream_list.py), upstream-*-post44.def list
 * by hand what upstream added up to rdma-core 65. This file only
 * compiles: built as C and as C++, any missing or different declaration
 * is a compile error.
 */
#include <stddef.h>
#include <stdbool.h>
#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>
#include <infiniband/tm_types.h>

/* upstream declares some pointer parameters as arrays */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Warray-parameter"
#endif

#ifdef __cplusplus
#define UP_ASSERT(e, what) static_assert(e, what)
#else
#define UP_ASSERT(e, what) _Static_assert(e, what)
#endif

/*
 * A function must be declared already (a first declaration here would be
 * legal C), then it is redeclared with upstream's prototype: a different
 * prototype does not compile. The name in parentheses keeps a
 * function-like macro of the same name out.
 */
#define UP_FUNC(ret, name, params) \
	UP_ASSERT(sizeof(&(name)) > 0, #name " is declared"); \
	ret(name) params;
#define UP_INLINE UP_FUNC
/* Macros without an integer value are listed as "#ifndef name". */
#define UP_NO_MACRO(name) UP_ASSERT(0, #name " is a macro");
#define UP_VALUE(name, value) \
	UP_ASSERT((long long)(name) == (long long)(value##LL), \
		  #name " == " #value);
#define UP_TYPE(type) UP_ASSERT(sizeof(type) > 0, #type " is complete");

#if defined(__LP64__)
#define UP_SIZE(type, size) \
	UP_ASSERT(sizeof(type) == (size), "sizeof(" #type ") == " #size);
#define UP_FLEX(type, member, off) \
	UP_ASSERT(offsetof(type, member) == (off), \
		  "offsetof(" #type ", " #member ") == " #off);
#define UP_FIELD(type, member, off, size) \
	UP_FLEX(type, member, off) \
	UP_ASSERT(sizeof(((type *)0)->member) == (size), \
		  "sizeof(" #type "." #member ") == " #size);
/* verbs_context slots: how far below its struct ibv_context they sit. */
#define UP_SLOT(member, below) \
	UP_ASSERT(offsetof(struct verbs_context, context) - \
			  offsetof(struct verbs_context, member) == (below), \
		  "verbs_context." #member " sits " #below " bytes below context");
#else
#define UP_SLOT(member, below)
#define UP_SIZE(type, size) UP_TYPE(type)
#define UP_FLEX(type, member, off)
#define UP_FIELD(type, member, off, size)
#endif

#ifdef __cplusplus
extern "C" {
#endif
#ifdef UP_MLX5DV
#include "upstream-mlx5dv-44.def"
#include "upstream-mlx5dv-post44.def"
#else
#include "upstream-verbs-44.def"
#include "upstream-verbs-post44.def"
#endif
#ifdef __cplusplus
}
#endif

int main(void)
{
	return 0;
}
