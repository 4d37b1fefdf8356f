// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Address handles. The kernel builds the RoCE v2 address vector (GID to
 * IPv4/IPv6, the MAC from neighbour resolution) and returns its number;
 * UD WQEs then carry only ah_num. Both 6.1 and 6.12 return one; a kernel
 * that does not (before 5.10) would need the AV built here, which this
 * provider does not do, so such an AH is refused rather than misrouted.
 */
#include <errno.h>
#include <stdlib.h>

#include "rxe.h"

struct ibv_ah *rxe_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct rxe_create_ah_resp resp = {};
	struct ibv_udata udata = {.out = &resp, .out_len = sizeof(resp)};
	struct rxe_ah *ah;
	int err;

	if (!pd || !attr) {
		errno = EINVAL;
		return NULL;
	}
	ah = calloc(1, sizeof(*ah));
	if (!ah)
		return NULL;
	err = ibv_cmd_create_ah(pd, &ah->ibv_ah, attr, &udata);
	if (!err && !resp.ah_num) {
		ibv_cmd_destroy_ah(&ah->ibv_ah);
		err = EOPNOTSUPP;
	}
	if (err) {
		free(ah);
		errno = err;
		return NULL;
	}
	ah->ah_num = resp.ah_num;
	return &ah->ibv_ah;
}

int rxe_destroy_ah(struct ibv_ah *ah)
{
	int err = ibv_cmd_destroy_ah(ah);

	if (!err)
		free(to_rah(ah));
	return err;
}
