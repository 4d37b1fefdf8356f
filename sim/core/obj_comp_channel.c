// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_COMP_CHANNEL: an fd object made by write() only (the kernel
 * has no ioctl method for it); closing the fd destroys it. Its events are
 * queued by sim_cq_comp_event (events.c).
 */
#include "uapi.h"

#include <stdio.h>

static int w_create_comp_channel(struct sim_wcall *w)
{
	struct ib_uverbs_create_comp_channel_resp r = {};
	int fd = sim_evq_new(w->uv, 1, 1, NULL);

	if (fd < 0)
		return fd;
	w->new_fd = fd;
	r.fd = (uint32_t)fd;
	snprintf(w->note, sizeof(w->note), "fd=%d", fd);
	return sim_wc_out(w, &r, sizeof(r));
}

static const struct sim_wcmd comp_channel_wcmds[] = {
	{IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, "CREATE_COMP_CHANNEL",
	 sizeof(struct ib_uverbs_create_comp_channel),
	 sizeof(struct ib_uverbs_create_comp_channel_resp), 1, 1,
	 w_create_comp_channel},
};

static const struct sim_obj_type comp_channel_type = {
	.name = "COMP_CHANNEL",
	.uapi_id = UVERBS_OBJECT_COMP_CHANNEL,
	.abort_fd = sim_evq_discard,
	.wcmds = comp_channel_wcmds,
	.nwcmds = ARRAY_SIZE(comp_channel_wcmds),
	.wcreates = {IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL},
};
SIM_OBJ_TYPE(comp_channel_type);
