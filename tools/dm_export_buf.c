// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* ibv_dm_export -b: a provider buffer (ibv_alloc_buf) exported as a dma-buf. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dm_export_buf.h"
#include "dm_export_peer.h"

/* The export and the peer's look at it; the fd is closed after. */
static void export_and_check(struct report *r, struct ibv_buf *buf, uint8_t *p,
			     size_t size)
{
	char why[256];
	int fd, err, ok;

	step_begin(r, "export the buffer as a dma-buf");
	fd = ibv_export_buf_dmabuf_fd(buf);
	if (fd < 0 && errno == ENODATA) {
		step_skip(r, "ordinary memory has no dma-buf: this device "
			     "needs no bounce buffers (a confidential-"
			     "computing guest's would; rdma-sim --cc-guest)");
		return;
	}
	if (!step_end(r, fd >= 0, "%s",
		      fd >= 0 ? "a new fd, the caller's to close"
			      : explain_errno("buf-export", errno)))
		return;
	step_begin(r, "check the buffer through a peer device");
	memset(p, 0x5a, size);
	ok = peer_check_mem(fd, p, size, why, sizeof(why));
	if (ok < 0)
		step_skip(r, "%s", why);
	else
		step_end(r, ok, "%s", why);
	step_begin(r, "close the buffer's dma-buf fd");
	err = close(fd) ? errno : 0;
	step_end(r, !err, "%s", err ? strerror(err) : "");
}

void buf_export_steps(struct report *r, struct ibv_context *ctx, size_t size)
{
	struct ibv_parent_domain_init_attr pa = {
		.comp_mask =
			IBV_PARENT_DOMAIN_INIT_ATTR_ALLOW_CC_UNPROTECTED_ALLOC,
	};
	struct ibv_device_attr_ex attr = {};
	struct ibv_pd *pd, *ppd = NULL;
	struct ibv_buf *buf;
	uint8_t *p = NULL;
	int err;

	step_begin(r, "allocate a parent domain for bounce memory");
	pd = ibv_alloc_pd(ctx);
	pa.pd = pd;
	if (pd)
		ppd = ibv_alloc_parent_domain(ctx, &pa);
	if (!step_end(r, ppd, "%s", ppd ? "" : explain_errno("buf-pd", errno)))
		goto out;
	ibv_query_device_ex(ctx, NULL, &attr);
	printf("     (the device %s bounce memory)\n",
	       attr.device_cap_flags_ex & IBV_DEVICE_CC_DMA_BOUNCE
		       ? "needs"
		       : "does not need");

	step_begin(r, "allocate %zu bytes with ibv_alloc_buf", size);
	p = ibv_alloc_buf(ppd, size, &buf);
	if (!step_end(r, p, "%s", p ? "" : explain_errno("buf", errno)))
		goto out;
	export_and_check(r, buf, p, size);
	step_begin(r, "free the buffer");
	ibv_free_buf(buf);
	step_end(r, true, "%s", "");
out:
	step_begin(r, "free the parent domain and its PD");
	err = ppd ? ibv_dealloc_pd(ppd) : 0;
	if (!err && pd)
		err = ibv_dealloc_pd(pd);
	step_end(r, !err, "%s", err ? strerror(err) : "");
}
