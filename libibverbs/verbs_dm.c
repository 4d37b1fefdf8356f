// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Exported device-memory verbs. Allocation, freeing, copies and MR
 * registration are inline in verbs.h and go straight to the provider.
 */
#include <errno.h>
#include <stddef.h>

#include "ibverbs.h"
#include "verbs_internal.h"

int ibv_dm_export_dmabuf_fd(struct ibv_dm *dm)
{
	if (verbs_null_arg(dm))
		return -1;
	return get_ops(dm->context)->dm_export_dmabuf_fd(dm);
}

struct ibv_dm *ibv_import_dm(struct ibv_context *context, uint32_t dm_handle)
{
	if (!context)
		return verbs_null_einval();
	return get_ops(context)->import_dm(context, dm_handle);
}

void ibv_unimport_dm(struct ibv_dm *dm)
{
	if (verbs_null_arg(dm))
		return;
	get_ops(dm->context)->unimport_dm(dm);
}
