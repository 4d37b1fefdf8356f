// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* UVERBS_OBJECT_ASYNC_EVENT: the context's event fd. */
#include "uapi.h"

#include <stdio.h>

static int async_event_alloc(struct sim_call *c)
{
	int fd = sim_alloc_async_fd(c->uv, 1);

	if (fd < 0)
		return fd;
	sim_attr_set_new(c, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE,
			 (uint64_t)fd);
	snprintf(c->note, sizeof(c->note), "fd=%d", fd);
	return 0;
}

static const struct sim_attr_spec async_alloc_attrs[] = {
	A_FD_NEW(UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE),
};

static const struct sim_method async_methods[] = {
	SIM_METHOD(UVERBS_OBJECT_ASYNC_EVENT, "ASYNC_EVENT",
		   UVERBS_METHOD_ASYNC_EVENT_ALLOC, "ASYNC_EVENT_ALLOC",
		   async_event_alloc, async_alloc_attrs, SIM_M_NEEDS_CTX),
};

/* The event file is an fd, not a handle. */
static const struct sim_obj_type async_type = {
	.name = "ASYNC_EVENT",
	.uapi_id = UVERBS_OBJECT_ASYNC_EVENT,
	.abort_fd = sim_evq_discard,
	.methods = async_methods,
	.nmethods = ARRAY_SIZE(async_methods),
};
SIM_OBJ_TYPE(async_type);
