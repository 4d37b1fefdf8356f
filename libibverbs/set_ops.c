// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Installing a provider's operations into a context. Every op goes to the
 * private table the exported verbs dispatch through; the ones that the
 * header's inline verbs call directly are also copied to their public
 * slot (a verbs_context slot or a legacy ibv_context_ops member), so
 * programs built against any verbs.h reach the provider without a call
 * into the library.
 */
#include <stddef.h>
#include <string.h>
#include <sys/types.h>

#include "ibverbs.h"
#include "verbs_internal.h"

/* Any function pointer; all members of the ops tables have this size. */
typedef void (*verbs_fn)(void);

struct public_slot {
	size_t op;	/* offsetof(struct verbs_context_ops, ...) */
	ptrdiff_t slot; /* byte offset of the public slot from &vctx->context */
};

#define CONTEXT_OFF offsetof(struct verbs_context, context)
#define EXT_SLOT(opname, slotname)                                             \
	{ offsetof(struct verbs_context_ops, opname),                          \
	  (ptrdiff_t)offsetof(struct verbs_context, slotname) -               \
		  (ptrdiff_t)CONTEXT_OFF }
#define EXT(name) EXT_SLOT(name, name)
#define LEGACY(name)                                                           \
	{ offsetof(struct verbs_context_ops, name),                            \
	  (ptrdiff_t)offsetof(struct ibv_context, ops.name) }

static const struct public_slot public_slots[] = {
	/* struct verbs_context, newest first */
	EXT(free_buf),
	EXT(alloc_buf),
	EXT(dm_export_dmabuf_fd),
	EXT(reg_mr_ex),
	EXT(dealloc_dmah),
	EXT(alloc_dmah),
	EXT(advise_mr),
	EXT(alloc_null_mr),
	EXT(read_counters),
	EXT(attach_counters_point_flow),
	EXT(create_counters),
	EXT(destroy_counters),
	EXT(reg_dm_mr),
	EXT(alloc_dm),
	EXT(free_dm),
	EXT(modify_flow_action_esp),
	EXT(destroy_flow_action),
	EXT(create_flow_action_esp),
	EXT(modify_qp_rate_limit),
	EXT(alloc_parent_domain),
	EXT(dealloc_td),
	EXT(alloc_td),
	EXT(modify_cq),
	EXT(post_srq_ops),
	EXT(destroy_rwq_ind_table),
	EXT(create_rwq_ind_table),
	EXT(destroy_wq),
	EXT(modify_wq),
	EXT(create_wq),
	EXT(query_rt_values),
	EXT(create_cq_ex),
	EXT(query_device_ex),
	EXT_SLOT(destroy_flow, ibv_destroy_flow),
	EXT_SLOT(create_flow, ibv_create_flow),
	EXT(open_qp),
	EXT(create_qp_ex),
	EXT(get_srq_num),
	EXT(create_srq_ex),
	EXT(open_xrcd),
	EXT(close_xrcd),
	/* struct ibv_context_ops members the inline verbs call */
	LEGACY(alloc_mw),
	LEGACY(bind_mw),
	LEGACY(dealloc_mw),
	LEGACY(poll_cq),
	LEGACY(req_notify_cq),
	LEGACY(post_srq_recv),
	LEGACY(post_send),
	LEGACY(post_recv),
};

static verbs_fn get_fn(const void *table, size_t off)
{
	verbs_fn fn;

	memcpy(&fn, (const char *)table + off, sizeof(fn));
	return fn;
}

static void put_fn(void *table, size_t off, verbs_fn fn)
{
	memcpy((char *)table + off, &fn, sizeof(fn));
}

/* Does the provider's verbs_context reach back to the slot at @slot? */
static int slot_exists(const struct verbs_context *vctx, ptrdiff_t slot)
{
	if (slot >= 0)
		return 1;
	return vctx->sz >= (size_t)-slot + (sizeof(*vctx) - CONTEXT_OFF);
}

void verbs_set_ops(struct verbs_context *vctx,
		   const struct verbs_context_ops *ops)
{
	struct verbs_ex_private *priv = vctx->priv;
	size_t i;

	for (i = 0; i < sizeof(*ops); i += sizeof(verbs_fn)) {
		verbs_fn fn = get_fn(ops, i);

		if (fn)
			put_fn(&priv->ops, i, fn);
	}

	for (i = 0; i < sizeof(public_slots) / sizeof(public_slots[0]); i++) {
		const struct public_slot *s = &public_slots[i];
		verbs_fn fn = get_fn(ops, s->op);

		if (fn && slot_exists(vctx, s->slot))
			put_fn((char *)&vctx->context + s->slot, 0, fn);
	}

	/* The public query_port takes a struct size; the op does not. */
	if (ops->query_port)
		vctx->query_port = verbs_query_port_sized;
}
