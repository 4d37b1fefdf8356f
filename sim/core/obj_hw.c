// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The part of a CQ's, QP's, SRQ's or AH's lifetime the framework owns, as
 * the kernel's core does for its uobjects: what every data-path create
 * takes around its driver hook (the async event file, the ring by
 * descriptor, the call the driver reads its attributes from) and what
 * goes with the object (its async events, the hold on their file, its
 * umems). Where an object keeps each is its type's parts (obj.h).
 */
#include "uapi.h"

#include <string.h>

/* The member at offset off of o. */
static void *part(struct sim_obj *o, uint16_t off)
{
	return (char *)o + off;
}

int sim_obj_hw_create(struct sim_uvfile *uv, struct sim_obj *o,
		      struct sim_evq *async_file, const struct sim_udata *u)
{
	const struct sim_obj_parts *p = &o->type->parts;
	struct sim_evq **async = p->async ? part(o, p->async) : NULL;
	struct sim_call **call = p->call ? part(o, p->call) : NULL;
	int ret = 0;

	if (async && async_file) {
		*async = async_file;
		sim_evq_get(async_file);
	}
	if (call)
		*call = u->call;
	if (p->ring_attr)
		ret = sim_umem_ring(u->call, p->ring_attr, part(o, p->umem[0]));
	if (!ret && o->type->hw_create)
		ret = o->type->hw_create(uv, o, u);
	if (call)
		*call = NULL; /* the call ends with the handler */
	o->live = !ret;
	return ret;
}

size_t sim_obj_events(struct sim_obj *o, void *resp)
{
	const struct sim_obj_parts *p = &o->type->parts;

	memcpy(resp, part(o, p->events), p->events_len);
	return p->events_len;
}

void sim_obj_parts_put(struct sim_uvfile *uv, struct sim_obj *o)
{
	const struct sim_obj_parts *p = &o->type->parts;
	struct sim_evq *own, *q;
	unsigned int i;

	if (p->async) {
		own = *(struct sim_evq **)part(o, p->async);
		q = own ? own : uv->async;
		if (q)
			sim_evq_purge(q, o);
		if (own)
			sim_evq_put(own);
	}
	for (i = 0; i < ARRAY_SIZE(p->umem); i++)
		if (p->umem[i])
			sim_umem_put(part(o, p->umem[i]));
}
