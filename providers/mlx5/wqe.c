// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The parts of WQE building that are not worth inlining.
 */
#include <string.h>

#include "wqe.h"

unsigned int mlx5_copy_inline(struct mlx5_qp *qp, void *dst,
			      const void *src, size_t len)
{
	size_t room = (size_t)(qp->sq_end - (uint8_t *)dst);

	if (len <= room) {
		memcpy(dst, src, len);
		return (unsigned int)len;
	}
	memcpy(dst, src, room);
	memcpy(qp->sq_start, (const uint8_t *)src + room, len - room);
	return (unsigned int)len;
}
