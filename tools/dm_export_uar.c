// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* ibv_dm_export -u: a UAR (doorbell) page exported as a dma-buf. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>

#include "dm_export_uar.h"

void uar_export_steps(struct report *r, struct ibv_context *ctx)
{
	struct mlx5dv_devx_uar *uar;
	int fd, fdflags, err;

	step_begin(r, "allocate a doorbell (UAR) page of its own");
	uar = mlx5dv_devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC_DEDICATED);
	if (!step_end(r, uar, "%s",
		      uar ? "" : explain_errno("uar", errno)))
		return;
	printf("     (page id %u, mmap offset 0x%llx)\n", uar->page_id,
	       (unsigned long long)uar->mmap_off);

	step_begin(r, "export the doorbell page as a dma-buf");
	fd = mlx5dv_devx_uar_export_dmabuf_fd(uar);
	if (fd < 0) {
		step_end(r, false, "%s", explain_errno("uar-export", errno));
	} else {
		fdflags = fcntl(fd, F_GETFD);
		step_end(r, fdflags >= 0 && (fdflags & FD_CLOEXEC), "fd %d%s",
			 fd,
			 (fdflags >= 0 && (fdflags & FD_CLOEXEC)) ?
				 " (close-on-exec)" : " WITHOUT close-on-exec");
		step_begin(r, "close the doorbell dma-buf fd");
		err = close(fd) ? errno : 0;
		step_end(r, !err, "%s", err ? strerror(err) : "");
	}

	/* Freeing the page revokes any dma-buf still open on it. */
	step_begin(r, "free the doorbell page");
	mlx5dv_devx_free_uar(uar);
	step_end(r, true, "%s", "");
}
