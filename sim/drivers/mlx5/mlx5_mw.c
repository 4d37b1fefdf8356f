// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5_ib_alloc_mw's udata: struct mlx5_ib_alloc_mw (8 bytes: comp_mask,
 * num_klms, two reserved fields). A comp_mask or reserved field set, or
 * any non-zero byte past those 8, is EOPNOTSUPP; libmlx5 sends none.
 */
#include "mlx5.h"

#include <errno.h>
#include <string.h>

struct mlx5_alloc_mw_req {
	uint32_t comp_mask;
	uint8_t num_klms;
	uint8_t reserved1;
	uint16_t reserved2;
};

int mlx5_sim_alloc_mw(const void *in, size_t in_len)
{
	struct mlx5_alloc_mw_req req = {0};
	const uint8_t *p = in;
	size_t i;

	if (in_len) /* no udata at all: in may be NULL */
		memcpy(&req, in, in_len < sizeof(req) ? in_len : sizeof(req));
	if (req.comp_mask || req.reserved1 || req.reserved2)
		return -EOPNOTSUPP;
	for (i = sizeof(req); i < in_len; i++)
		if (p[i])
			return -EOPNOTSUPP;
	return 0;
}
