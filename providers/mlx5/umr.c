// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The UMR WQE (opcode 0x25) that binds or invalidates a memory window, as
 * ConnectX takes it: ctrl (imm = the window's current key), the UMR
 * control segment (flags, KLM count, mkey_mask: which mkey fields change),
 * the mkey context with those fields, and for a bind one KLM pointing at
 * the MR (padded to 64 bytes). Bind 192 bytes, invalidation 128.
 */
#include <string.h>

#include "umr.h"
#include "wqe.h"

enum {
	UMR_INLINE = 0x80,
	UMR_CHECK_FREE = 0x20,
	UMR_TRANSLATION_OFFSET = 0x10,
	UMR_CHECK_QPN = 0x08,
};

enum {
	MKEY_MASK_LEN = 1u << 0,
	MKEY_MASK_START_ADDR = 1u << 6,
	MKEY_MASK_KEY = 1u << 13,
	MKEY_MASK_QPN = 1u << 14,
	MKEY_MASK_LOCAL_WRITE = 1u << 18,
	MKEY_MASK_REMOTE_READ = 1u << 19,
	MKEY_MASK_REMOTE_WRITE = 1u << 20,
	MKEY_MASK_ATOMIC = 1u << 21,
	MKEY_MASK_FREE = 1u << 29,
};

/* Byte offsets from the start of the WQE (ctrl at 0). */
enum {
	UMR_FLAGS = 16,
	UMR_KLM_OCTOWORDS = 20,
	UMR_MKEY_MASK = 24,
	MKEY_FREE = 64,
	MKEY_ACCESS = 66,
	MKEY_QPN_MKEY = 68,
	MKEY_START = 80,
	MKEY_LEN = 88,
	KLM_BYTES = 128,
	KLM_MKEY = 132,
	KLM_ADDR = 136,
	UMR_WQE_BIND = 192,
	UMR_WQE_INVAL = 128,
};

#define MKEY_FREE_BIT	0x40
#define UMR_MAX_KLM_LEN (1ull << 31)
#define MKEY_ACCESS_MASK                                                       \
	(MKEY_MASK_LOCAL_WRITE | MKEY_MASK_REMOTE_READ |                       \
	 MKEY_MASK_REMOTE_WRITE | MKEY_MASK_ATOMIC)

static const struct {
	unsigned int ibv;
	uint8_t mkey;
} access_bits[] = {
	{IBV_ACCESS_LOCAL_WRITE, 0x08},
	{IBV_ACCESS_REMOTE_READ, 0x10},
	{IBV_ACCESS_REMOTE_WRITE, 0x20},
	{IBV_ACCESS_REMOTE_ATOMIC, 0x40},
};

static void put_be16(uint8_t *w, unsigned int off, uint16_t v)
{
	v = htobe16(v);
	memcpy(w + off, &v, sizeof(v));
}

static void put_be32(uint8_t *w, unsigned int off, uint32_t v)
{
	v = htobe32(v);
	memcpy(w + off, &v, sizeof(v));
}

static void put_be64(uint8_t *w, unsigned int off, uint64_t v)
{
	v = htobe64(v);
	memcpy(w + off, &v, sizeof(v));
}

static uint8_t mkey_access(unsigned int flags)
{
	uint8_t a = 0;
	size_t i;

	for (i = 0; i < sizeof(access_bits) / sizeof(access_bits[0]); i++)
		if (flags & access_bits[i].ibv)
			a |= access_bits[i].mkey;
	return a;
}

/* A bind of length > 0: the window takes range, access and one KLM. */
static void umr_bind(struct mlx5_qp *qp, uint8_t *w,
		     const struct mlx5_umr_req *r)
{
	const struct ibv_mw_bind_info *bi = r->info;
	bool type2 = r->type == IBV_MW_TYPE_2;
	uint64_t mask = MKEY_MASK_FREE | MKEY_MASK_KEY | MKEY_MASK_LEN |
			MKEY_MASK_START_ADDR | MKEY_ACCESS_MASK;
	uint32_t owner = type2 ? qp->qpn : 0xffffff;

	w[UMR_FLAGS] = UMR_INLINE | UMR_TRANSLATION_OFFSET |
		       (type2 ? UMR_CHECK_FREE : 0);
	put_be16(w, UMR_KLM_OCTOWORDS, 4);
	if (type2)
		mask |= MKEY_MASK_QPN;
	put_be64(w, UMR_MKEY_MASK, mask);
	w[MKEY_ACCESS] = mkey_access(bi->mw_access_flags);
	put_be32(w, MKEY_QPN_MKEY, owner << 8 | (r->new_rkey & 0xff));
	put_be64(w, MKEY_START,
		 (bi->mw_access_flags & IBV_ACCESS_ZERO_BASED) ? 0 : bi->addr);
	put_be64(w, MKEY_LEN, bi->length);
	put_be32(w, KLM_BYTES, (uint32_t)bi->length);
	put_be32(w, KLM_MKEY, bi->mr->lkey);
	put_be64(w, KLM_ADDR, bi->addr);
}

/* LOCAL_INV, or a zero-length (type 1) bind: the window goes free. */
static void umr_invalidate(uint8_t *w, const struct mlx5_umr_req *r)
{
	bool type2 = r->type == IBV_MW_TYPE_2;

	w[UMR_FLAGS] = UMR_INLINE | UMR_TRANSLATION_OFFSET |
		       (type2 ? UMR_CHECK_QPN : 0);
	put_be64(w, UMR_MKEY_MASK,
		 MKEY_MASK_FREE | MKEY_MASK_KEY | (type2 ? MKEY_MASK_QPN : 0));
	w[MKEY_FREE] = MKEY_FREE_BIT;
	put_be32(w, MKEY_QPN_MKEY, 0xffffff00u | (r->new_rkey & 0xff));
}

int mlx5_set_umr(struct mlx5_qp *qp, struct mlx5_wqe_ctrl_seg *ctrl,
		 const struct mlx5_umr_req *r, unsigned int *ds)
{
	uint8_t w[UMR_WQE_BIND] = {0};
	bool bind = r->info && r->info->length;
	unsigned int size = bind ? UMR_WQE_BIND : UMR_WQE_INVAL;
	size_t slot;

	if (bind && r->info->length > UMR_MAX_KLM_LEN)
		return EOPNOTSUPP;
	if (bind)
		umr_bind(qp, w, r);
	else
		umr_invalidate(w, r);
	mlx5_copy_inline(qp, ctrl + 1, w + sizeof(*ctrl), size - sizeof(*ctrl));
	/* kept aside: once polled, the slot may be rewritten under us */
	slot = (size_t)((uint8_t *)ctrl - qp->sq_start) >> MLX5_SEND_WQE_SHIFT;
	qp->sq.umr_inv[slot] = !bind && r->type == IBV_MW_TYPE_2;
	*ds = size / MLX5_DS;
	return 0;
}

enum ibv_wc_opcode mlx5_umr_wc_opcode(struct mlx5_qp *qp, unsigned int idx)
{
	return qp->sq.umr_inv[idx] ? IBV_WC_LOCAL_INV : IBV_WC_BIND_MW;
}
