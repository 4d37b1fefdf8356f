/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef DM_EXPORT_BUF_H
#define DM_EXPORT_BUF_H

#include <stddef.h>

#include <infiniband/verbs.h>

#include "dm_export_report.h"

/*
 * The provider-buffer steps (-b): a parent domain allowing CoCo bounce
 * memory on @ctx, @size bytes from ibv_alloc_buf() on it, their dma-buf
 * export (ibv_export_buf_dmabuf_fd) checked through the peer device, and
 * everything freed. On a device that needs no bounce memory the buffer
 * is ordinary memory and the export step is skipped, saying so.
 */
void buf_export_steps(struct report *r, struct ibv_context *ctx, size_t size);

#endif /* DM_EXPORT_BUF_H */
