/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef DM_EXPORT_UAR_H
#define DM_EXPORT_UAR_H

#include <infiniband/verbs.h>

#include "dm_export_report.h"

/*
 * The doorbell-page steps (-u): allocate a UAR page of its own on @ctx,
 * export it as a dma-buf (what a GPU imports to ring the HCA), close the
 * fd and free the page. Failures say why in words.
 */
void uar_export_steps(struct report *r, struct ibv_context *ctx);

#endif /* DM_EXPORT_UAR_H */
