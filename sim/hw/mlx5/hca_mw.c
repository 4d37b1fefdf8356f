// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows in the HCA: the UMR WQE (opcode 0x25) that binds or
 * invalidates one, remote access through a window's key, and remote
 * invalidation by SEND_WITH_INV.
 *
 * A UMR names its window by the ctrl imm (its index; LOCAL_INV the full
 * current key) and sets
 * only the mkey fields its mkey_mask selects; the rest of the mkey context
 * may hold stale ring bytes. A bind checks, as IBTA and rxe do: the window
 * and the MR in the QP's PD (C10-72), MW_BIND on the MR (C10-73),
 * LOCAL_WRITE on the MR for remote write/atomic rights (C10-74), the range
 * inside the MR (C10-75), the MR not zero-based; a type 2 window must be
 * free and is tied to the binding QP (2B), a type 1 window takes no QP.
 * Invalidation (LOCAL_INV, SEND_WITH_INV) needs the exact current key of a
 * bound type 2 window of this QP; a type 1 window is only unbound by a
 * zero-length bind. Every violation completes the WQE with MW_BIND_ERR
 * and moves the QP to ERR; a bad remote invalidation is REM_INV_REQ.
 * Remote access needs the exact key of a bound window of the responder's
 * PD (type 2: arriving on its QP) with every right asked for; the MR under
 * it is looked up at each access, so a deregistered MR fails it.
 */
#include "hca.h"

#include <endian.h>
#include <stddef.h>
#include <string.h>

enum {
	UMR_CHECK_FREE = 0x20,
	UMR_CHECK_QPN = 0x08,
	MKEY_FREE_BIT = 0x40,
	MKEY_MASK_LEN = 1u << 0,
	MKEY_MASK_KEY = 1u << 13,
	MKEY_MASK_QPN = 1u << 14,
	MKEY_MASK_FREE = 1u << 29,
};

/* mkey context access byte -> IB access bits */
static const struct {
	uint8_t mkey;
	uint32_t ib;
} access_bits[] = {
	{0x08, IB_ACCESS_LOCAL_WRITE},
	{0x10, IB_ACCESS_REMOTE_READ},
	{0x20, IB_ACCESS_REMOTE_WRITE},
	{0x40, IB_ACCESS_REMOTE_ATOMIC},
};

#define NO_QPN		     0xffffffu

/* The WQE after its ctrl segment, as libmlx5 lays it out (big-endian). */
struct umr_wire {
	uint8_t flags; /* UMR control segment, 48 bytes */
	uint8_t rsvd0[3];
	uint16_t klm_octowords;
	uint16_t translation_offset;
	uint64_t mkey_mask;
	uint8_t rsvd1[32];
	uint8_t free; /* mkey context, 64 bytes */
	uint8_t rsvd2;
	uint8_t access;
	uint8_t rsvd3;
	uint32_t qpn_mkey;
	uint8_t rsvd4[8];
	uint64_t start_addr;
	uint64_t len;
	uint8_t rsvd5[32];
	uint32_t klm_bytes; /* the one KLM */
	uint32_t klm_mkey;
	uint64_t klm_addr;
} __attribute__((packed));

/* seg: the WQE from byte 16 (the UMR control segment) on. */
uint8_t hca_umr_decode(struct hca_swqe *w, const uint8_t *seg, uint32_t len)
{
	struct hca_umr *u = &w->umr;
	struct umr_wire s = {0};

	/* UMR ctrl + mkey context, and the KLM when it has one */
	if (len < offsetof(struct umr_wire, klm_bytes))
		return HCA_SYND_LOC_QP_OP;
	memcpy(&s, seg, len < sizeof(s) ? len : sizeof(s));
	u->flags = s.flags;
	u->klm_octowords = be16toh(s.klm_octowords);
	if (u->klm_octowords && len < sizeof(s))
		return HCA_SYND_LOC_QP_OP;
	u->mask = be64toh(s.mkey_mask);
	u->free = !!(s.free & MKEY_FREE_BIT);
	u->access = s.access;
	u->qpn_mkey = be32toh(s.qpn_mkey);
	u->start = be64toh(s.start_addr);
	u->len = be64toh(s.len);
	u->klm_bytes = be32toh(s.klm_bytes);
	u->klm_key = be32toh(s.klm_mkey);
	u->klm_addr = be64toh(s.klm_addr);
	return 0;
}

static uint32_t ib_access(uint8_t mkey)
{
	uint32_t a = 0;
	size_t i;

	for (i = 0; i < sizeof(access_bits) / sizeof(access_bits[0]); i++)
		if (mkey & access_bits[i].mkey)
			a |= access_bits[i].ib;
	return a;
}

/* The IBTA checks of a bind with a range; 1 if it may proceed. */
static int bind_ok(const struct hca_qp *qp, const struct hca_mkey *mw,
		   const struct hca_umr *u)
{
	const struct hca_mkey *mr = hca_mkey_find(qp->dev, u->klm_key);
	uint32_t acc = ib_access(u->access), owner = u->qpn_mkey >> 8;

	if (mw->mw_type == 2 ? !(u->flags & UMR_CHECK_FREE) || !mw->free ||
				       owner != qp->qpn
			     : owner != NO_QPN)
		return 0;
	if (!mr || mr->mw || mr->key != u->klm_key || mr->pdn != qp->pdn)
		return 0;
	if (!(mr->access & IB_ACCESS_MW_BIND) ||
	    (mr->access & IB_ACCESS_ZERO_BASED))
		return 0;
	if ((acc & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(mr->access & IB_ACCESS_LOCAL_WRITE))
		return 0;
	return u->klm_bytes == u->len && u->klm_addr >= mr->start &&
	       u->len <= mr->length &&
	       u->klm_addr - mr->start <= mr->length - u->len;
}

static void mw_bind(struct hca_mkey *mw, const struct hca_qp *qp,
		    const struct hca_umr *u)
{
	mw->free = 0;
	mw->qpn = mw->mw_type == 2 ? qp->qpn : 0;
	mw->key = (mw->key & ~0xffu) | (u->qpn_mkey & 0xff);
	mw->access = ib_access(u->access);
	mw->start = u->start;
	mw->length = u->len;
	mw->mr_key = u->klm_key;
	mw->mr_addr = u->klm_addr;
}

uint8_t hca_umr_exec(struct hca_qp *qp, const struct hca_swqe *w)
{
	const struct hca_umr *u = &w->umr;
	uint32_t key = be32toh(w->imm);
	struct hca_mkey *mw = hca_mkey_find(qp->dev, key);
	int inval = u->free && (u->mask & MKEY_MASK_FREE);

	/* The ctrl imm names the window by its index: libmlx5 sends the key
	 * ibv_mw.rkey holds, which for type 2 is never the bound one. */
	if (!mw || !mw->mw || mw->pdn != qp->pdn)
		return HCA_SYND_MW_BIND;
	if (!inval) {
		if (!u->len || !u->klm_octowords || !bind_ok(qp, mw, u))
			return HCA_SYND_MW_BIND;
		mw_bind(mw, qp, u);
		return 0;
	}
	if (u->flags & UMR_CHECK_QPN) {
		/* LOCAL_INV: the exact key of a bound type 2 window of this
		 * QP; the key stays */
		if (mw->key != key || mw->mw_type != 2 || mw->free ||
		    mw->qpn != qp->qpn)
			return HCA_SYND_MW_BIND;
	} else {
		/* a zero-length bind unbinds a type 1 window, new key byte */
		if (mw->mw_type != 1)
			return HCA_SYND_MW_BIND;
		if (u->mask & MKEY_MASK_KEY)
			mw->key = (mw->key & ~0xffu) | (u->qpn_mkey & 0xff);
	}
	mw->free = 1;
	mw->length = 0;
	return 0;
}

void *hca_mw_mem(const struct hca_qp *qp, struct hca_mkey *mw, uint32_t key,
		 uint64_t va, uint64_t len, uint32_t need, uint8_t *synd)
{
	void *p;

	*synd = HCA_SYND_REM_ACCESS;
	if (mw->key != key || mw->free || mw->pdn != qp->pdn)
		return NULL;
	if (mw->mw_type == 2 && mw->qpn != qp->qpn)
		return NULL;
	if ((mw->access & need) != need)
		return NULL;
	if (va < mw->start || len > mw->length ||
	    va - mw->start > mw->length - len)
		return NULL;
	p = hca_mem(qp, mw->mr_key, mw->mr_addr + (va - mw->start), len, 0, 0,
		    synd);
	*synd = HCA_SYND_REM_ACCESS;
	return p;
}

uint8_t hca_mw_remote_inv(const struct hca_qp *qp, uint32_t rkey)
{
	struct hca_mkey *mw = hca_mkey_find(qp->dev, rkey);

	if (!mw || !mw->mw || mw->key != rkey || mw->mw_type != 2 ||
	    mw->free || mw->pdn != qp->pdn || mw->qpn != qp->qpn)
		return HCA_SYND_REM_INV_REQ;
	mw->free = 1;
	mw->length = 0;
	return 0;
}
