// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The ibv_wr_* send API on mlx5: wr_start takes the SQ, each builder
 * opens a WQE at cur_post, its setters complete it (UD needs an address
 * and data, in any order), wr_complete rings the doorbell once. The first
 * error is kept and makes wr_complete drop everything since wr_start.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "umr.h"
#include "wqe.h"

static struct mlx5_qp *to_mqpx(struct ibv_qp_ex *qpx)
{
	return (struct mlx5_qp *)qpx;
}

static void wr_start(struct ibv_qp_ex *qpx)
{
	struct mlx5_qp *qp = to_mqpx(qpx);

	if (!qp->single_threaded)
		pthread_spin_lock(&qp->sq.lock);
	qp->wr.cur_post_saved = qp->sq.cur_post;
	qp->wr.nreq = 0;
	qp->wr.err = 0;
	qp->wr.setters = 0;
	qp->wr.inl_wqe = false;
}

/* Inlined into every builder and setter: this is the per-WR path. */
#define WR_INLINE static inline __attribute__((always_inline))
#define wr_unlikely(x) __builtin_expect(!!(x), 0)

/* Keep the first error; a later misuse is EINVAL. */
WR_INLINE void wr_fail(struct mlx5_qp *qp, int err)
{
	if (!qp->wr.err)
		qp->wr.err = err;
}

/*
 * Open a WQE at cur_post: ctrl written (size patched by the last setter),
 * book-keeping done; returns the place after ctrl, or NULL. Everything is
 * read before the ring is written, so nothing is loaded twice.
 */
WR_INLINE void *open_wqe(struct mlx5_qp *qp, uint8_t opcode, __be32 imm,
			 bool ud)
{
	struct ibv_qp_ex *qpx = &qp->verbs_qp.qp_ex;
	unsigned int cur = qp->sq.cur_post, nreq = qp->wr.nreq;
	unsigned int head = qp->sq.head, idx;
	/* XRC: the SRQ number's segment follows ctrl (wr_set_xrc_srqn) */
	unsigned int xrc = qp->qp_type == IBV_QPT_XRC_SEND;
	struct mlx5_wqe_ctrl_seg *ctrl;

	/* An error, or the previous WQE still wants a setter. */
	if (wr_unlikely(qp->wr.err || qp->wr.setters)) {
		wr_fail(qp, EINVAL);
		return NULL;
	}
	if (wr_unlikely(mlx5_sq_full(qp, nreq))) {
		qp->wr.err = ENOMEM;
		return NULL;
	}
	idx = cur & (qp->sq.wqe_cnt - 1);
	ctrl = mlx5_sq_wqe(qp, idx);
	qp->wr.ctrl = ctrl;
	qp->wr.size =
		ud ? 1 + sizeof(struct mlx5_wqe_datagram_seg) / MLX5_DS
		   : 1 + xrc;
	/* UD: the address too; XRC: the SRQ number too */
	qp->wr.setters = ud || xrc ? 2 : 1;
	qp->wr.len8 = false;
	qp->sq.wrid[idx] = qpx->wr_id;
	if (qp->sq.raw_wqe)
		qp->sq.raw_wqe[idx] = 0;
	qp->sq.wqe_head[idx] = head + nreq;
	mlx5_set_ctrl(ctrl, cur, opcode, qp->qpn8, 0,
		      mlx5_fm_ce_se_umr(qp, qpx->wr_flags, opcode), imm);
	if (qp->dci) {
		/* ctrl + the address vector fill the first basic block;
		 * mlx5dv_wr_set_dc_addr writes it */
		qp->wr.size = 1 + sizeof(struct mlx5_wqe_av) / MLX5_DS;
		qp->wr.setters = 2;
		return mlx5_sq_wrap(qp, (uint8_t *)ctrl + MLX5_SEND_WQE_BB);
	}
	return (uint8_t *)ctrl + sizeof(*ctrl) * (1 + xrc);
}

/* RC/UC sends: the data follows ctrl. */
WR_INLINE void open_send(struct ibv_qp_ex *qpx, uint8_t opcode, __be32 imm)
{
	struct mlx5_qp *qp = to_mqpx(qpx);
	void *seg = open_wqe(qp, opcode, imm, false);

	if (seg)
		qp->wr.seg = seg;
}

/* UD sends: the address vector's place (wr_set_ud_addr), then data. */
WR_INLINE void open_send_ud(struct ibv_qp_ex *qpx, uint8_t opcode, __be32 imm)
{
	struct mlx5_qp *qp = to_mqpx(qpx);
	void *seg = open_wqe(qp, opcode, imm, true);

	if (seg)
		qp->wr.seg = mlx5_sq_wrap(
			qp, (uint8_t *)seg +
				    sizeof(struct mlx5_wqe_datagram_seg));
}

static void wr_send(struct ibv_qp_ex *qpx)
{
	open_send(qpx, MLX5_OPCODE_SEND, 0);
}

static void wr_send_imm(struct ibv_qp_ex *qpx, __be32 imm)
{
	open_send(qpx, MLX5_OPCODE_SEND_IMM, imm);
}

static void wr_send_inv(struct ibv_qp_ex *qpx, uint32_t rkey)
{
	open_send(qpx, MLX5_OPCODE_SEND_INVAL, htobe32(rkey));
}

static void wr_send_ud(struct ibv_qp_ex *qpx)
{
	open_send_ud(qpx, MLX5_OPCODE_SEND, 0);
}

static void wr_send_imm_ud(struct ibv_qp_ex *qpx, __be32 imm)
{
	open_send_ud(qpx, MLX5_OPCODE_SEND_IMM, imm);
}

/* ctrl + raddr fill 32 bytes of a basic block (a DCI's: of the second,
 * after the address vector): no wrap. */
WR_INLINE void open_rdma(struct ibv_qp_ex *qpx, uint8_t opcode, uint32_t rkey,
			 uint64_t raddr, __be32 imm)
{
	struct mlx5_qp *qp = to_mqpx(qpx);
	struct mlx5_wqe_raddr_seg *seg = open_wqe(qp, opcode, imm, false);

	if (!seg)
		return;
	mlx5_set_raddr(seg, raddr, rkey);
	qp->wr.seg = seg + 1;
	qp->wr.size += 1;
}

static void wr_rdma_write(struct ibv_qp_ex *qpx, uint32_t rkey,
			  uint64_t raddr)
{
	open_rdma(qpx, MLX5_OPCODE_RDMA_WRITE, rkey, raddr, 0);
}

static void wr_rdma_write_imm(struct ibv_qp_ex *qpx, uint32_t rkey,
			      uint64_t raddr, __be32 imm)
{
	open_rdma(qpx, MLX5_OPCODE_RDMA_WRITE_IMM, rkey, raddr, imm);
}

static void wr_rdma_read(struct ibv_qp_ex *qpx, uint32_t rkey,
			 uint64_t raddr)
{
	open_rdma(qpx, MLX5_OPCODE_RDMA_READ, rkey, raddr, 0);
}

/* ctrl + raddr + atomic: 48 bytes, still inside the first basic block. */
WR_INLINE void open_atomic(struct ibv_qp_ex *qpx, uint8_t opcode,
			   uint32_t rkey, uint64_t raddr, uint64_t swap_add,
			   uint64_t compare)
{
	struct mlx5_qp *qp = to_mqpx(qpx);
	struct mlx5_wqe_raddr_seg *seg;
	struct mlx5_wqe_atomic_seg *aseg;

	if (!qp->atomics) {
		wr_fail(qp, EOPNOTSUPP);
		return;
	}
	seg = open_wqe(qp, opcode, 0, false);
	if (!seg)
		return;
	mlx5_set_raddr(seg, raddr, rkey);
	aseg = (struct mlx5_wqe_atomic_seg *)(seg + 1);
	mlx5_set_atomic(aseg, swap_add, compare);
	qp->wr.seg = aseg + 1;
	qp->wr.size += 2;
	qp->wr.len8 = true;
}

static void wr_atomic_cmp_swp(struct ibv_qp_ex *qpx, uint32_t rkey,
			      uint64_t raddr, uint64_t compare, uint64_t swap)
{
	open_atomic(qpx, MLX5_OPCODE_ATOMIC_CS, rkey, raddr, swap, compare);
}

static void wr_atomic_fetch_add(struct ibv_qp_ex *qpx, uint32_t rkey,
				uint64_t raddr, uint64_t add)
{
	open_atomic(qpx, MLX5_OPCODE_ATOMIC_FA, rkey, raddr, add, 0);
}

/* A setter may run only on an open WQE that still wants it. */
WR_INLINE bool can_set(struct mlx5_qp *qp)
{
	if (wr_unlikely(qp->wr.err || !qp->wr.setters)) {
		wr_fail(qp, EINVAL);
		return false;
	}
	return true;
}

/* One setter done with the WQE now @size units; the last one closes it. */
WR_INLINE void setter_done(struct mlx5_qp *qp, unsigned int size)
{
	qp->wr.size = size;
	if (--qp->wr.setters)
		return;
	qp->wr.ctrl->qpn_ds = qp->qpn8 | htobe32(size);
	qp->sq.cur_post += (size * MLX5_DS + MLX5_SEND_WQE_BB - 1) /
			   MLX5_SEND_WQE_BB;
	qp->wr.nreq++;
}

/* A UMR WQE is complete when built: it takes no setter. */
static void open_umr(struct ibv_qp_ex *qpx, const struct mlx5_umr_req *r)
{
	struct mlx5_qp *qp = to_mqpx(qpx);
	unsigned int ds;
	int err;

	if (!open_wqe(qp, MLX5_OPCODE_UMR, htobe32(r->rkey), false))
		return;
	/* XRC_SEND too: the UMR follows ctrl, no SRQ number is set */
	qp->wr.setters = 1;
	err = mlx5_set_umr(qp, qp->wr.ctrl, r, &ds);
	if (err) {
		qp->wr.setters = 0;
		wr_fail(qp, err);
		return;
	}
	setter_done(qp, ds);
}

static void wr_bind_mw(struct ibv_qp_ex *qpx, struct ibv_mw *mw, uint32_t rkey,
		       const struct ibv_mw_bind_info *info)
{
	struct mlx5_umr_req r = {
		.type = mw->type,
		.rkey = mw->rkey,
		.new_rkey = rkey,
		.info = info,
	};

	open_umr(qpx, &r);
}

static void wr_local_inv(struct ibv_qp_ex *qpx, uint32_t rkey)
{
	struct mlx5_umr_req r = { .type = IBV_MW_TYPE_2, .rkey = rkey };

	open_umr(qpx, &r);
}

static void wr_set_sge_list(struct ibv_qp_ex *qpx, size_t num,
			    const struct ibv_sge *sge)
{
	struct mlx5_qp *qp = to_mqpx(qpx);
	struct mlx5_wqe_data_seg *seg;
	unsigned int size;
	size_t i;

	if (!can_set(qp))
		return;
	if (num > (size_t)qp->sq.max_gs) {
		qp->wr.err = ENOMEM;
		return;
	}
	seg = qp->wr.seg;
	size = qp->wr.size;
	for (i = 0; i < num; i++) {
		if (!sge[i].length)
			continue;
		seg = mlx5_sq_wrap(qp, seg);
		mlx5_set_data(seg, qp->wr.len8 ? 8 : sge[i].length,
			      sge[i].lkey, sge[i].addr);
		seg++;
		size++;
	}
	qp->wr.seg = seg;
	setter_done(qp, size);
}

/* The common one-SGE case, without the list loop. */
static void wr_set_sge(struct ibv_qp_ex *qpx, uint32_t lkey, uint64_t addr,
		       uint32_t length)
{
	struct mlx5_qp *qp = to_mqpx(qpx);
	struct mlx5_wqe_data_seg *seg;
	unsigned int size;

	if (!can_set(qp))
		return;
	size = qp->wr.size;
	if (length) {
		seg = mlx5_sq_wrap(qp, qp->wr.seg);
		qp->wr.seg = seg + 1;
		mlx5_set_data(seg, qp->wr.len8 ? 8 : length, lkey, addr);
		size++;
	}
	setter_done(qp, size);
}

static void wr_set_inline_data_list(struct ibv_qp_ex *qpx, size_t num,
				    const struct ibv_data_buf *buf)
{
	struct mlx5_qp *qp = to_mqpx(qpx);
	struct mlx5_wqe_inl_data_seg *inl;
	size_t total = 0, i;
	unsigned int size;
	uint8_t *dst;

	if (!can_set(qp))
		return;
	for (i = 0; i < num; i++)
		total += buf[i].length;
	if (total > (size_t)qp->max_inline_data) {
		qp->wr.err = ENOMEM;
		return;
	}
	size = qp->wr.size;
	if (total) {
		inl = qp->wr.seg;
		dst = (uint8_t *)(inl + 1);
		for (i = 0; i < num; i++) {
			dst += mlx5_copy_inline(qp, dst, buf[i].addr,
						buf[i].length);
			if (dst >= qp->sq_end)
				dst = qp->sq_start + (dst - qp->sq_end);
		}
		inl->byte_count = htobe32((uint32_t)total | MLX5_INLINE_SEG);
		size += (unsigned int)mlx5_align_up(total + 4, MLX5_DS) /
			MLX5_DS;
		qp->wr.inl_wqe = true;
	}
	setter_done(qp, size);
}

static void wr_set_inline_data(struct ibv_qp_ex *qpx, void *addr,
			       size_t length)
{
	struct ibv_data_buf buf = { .addr = addr, .length = length };

	wr_set_inline_data_list(qpx, 1, &buf);
}

static void wr_set_ud_addr(struct ibv_qp_ex *qpx, struct ibv_ah *ah,
			   uint32_t remote_qpn, uint32_t remote_qkey)
{
	struct mlx5_qp *qp = to_mqpx(qpx);

	if (!can_set(qp))
		return;
	mlx5_set_ud((struct mlx5_wqe_datagram_seg *)(qp->wr.ctrl + 1), ah,
		    remote_qpn, remote_qkey);
	setter_done(qp, qp->wr.size);
}

static void wr_set_xrc_srqn(struct ibv_qp_ex *qpx, uint32_t remote_srqn)
{
	struct mlx5_qp *qp = to_mqpx(qpx);

	if (!can_set(qp))
		return;
	mlx5_set_xrc(qp->wr.ctrl + 1, remote_srqn);
	setter_done(qp, qp->wr.size);
}

/*
 * DCI: the AH's address vector with the DCT number and its access key;
 * the stream id goes in the ctrl segment (0 for the plain setter).
 */
static void wr_set_dc_addr_stream(struct mlx5dv_qp_ex *dvx, struct ibv_ah *ah,
				  uint32_t remote_dctn, uint64_t remote_dc_key,
				  uint16_t stream_id)
{
	struct mlx5_qp *qp =
		(struct mlx5_qp *)((uint8_t *)dvx -
				   offsetof(struct mlx5_qp, dv_qp_ex));
	struct mlx5_wqe_av *av;

	if (!can_set(qp))
		return;
	av = (struct mlx5_wqe_av *)(qp->wr.ctrl + 1);
	memcpy(av, &to_mah(ah)->av, sizeof(*av));
	av->dqp_dct = htobe32(remote_dctn | MLX5_EXTENDED_UD_AV);
	av->key.dc_key = htobe64(remote_dc_key);
	qp->wr.ctrl->dci_stream_channel_id = htobe16(stream_id);
	setter_done(qp, qp->wr.size);
}

static void wr_set_dc_addr(struct mlx5dv_qp_ex *dvx, struct ibv_ah *ah,
			   uint32_t remote_dctn, uint64_t remote_dc_key)
{
	wr_set_dc_addr_stream(dvx, ah, remote_dctn, remote_dc_key, 0);
}

void mlx5_dc_set_wr_ops(struct mlx5_qp *qp)
{
	qp->dv_qp_ex.wr_set_dc_addr = wr_set_dc_addr;
	qp->dv_qp_ex.wr_set_dc_addr_stream = wr_set_dc_addr_stream;
}

/*
 * mlx5dv_wr_raw_wqe: the caller's WQE byte for byte (its ctrl gives the
 * opcode, flags and size in 16-byte units), with the WQE index and QP
 * number of the place it lands in.
 */
static void wr_raw_wqe(struct mlx5dv_qp_ex *dvx, const void *wqe)
{
	struct mlx5_qp *qp = (struct mlx5_qp *)((uint8_t *)dvx -
						offsetof(struct mlx5_qp, dv_qp_ex));
	const struct mlx5_wqe_ctrl_seg *src = wqe;
	unsigned int ds = be32toh(src->qpn_ds) & 0x3f;
	unsigned int cur = qp->sq.cur_post;
	struct mlx5_wqe_ctrl_seg *ctrl;

	if (!open_wqe(qp, 0, 0, false))
		return;
	qp->wr.setters = 1; /* the caller's WQE holds any address vector */
	ctrl = qp->wr.ctrl;
	qp->sq.raw_wqe[cur & (qp->sq.wqe_cnt - 1)] = 1;
	mlx5_copy_inline(qp, ctrl, wqe, (size_t)ds * MLX5_DS);
	ctrl->opmod_idx_opcode =
		(src->opmod_idx_opcode & htobe32(0xff0000ffu)) |
		htobe32((cur & 0xffff) << 8);
	setter_done(qp, ds);
}

static void rollback(struct mlx5_qp *qp)
{
	qp->sq.cur_post = qp->wr.cur_post_saved;
}

static void unlock_sq(struct mlx5_qp *qp)
{
	if (!qp->single_threaded)
		pthread_spin_unlock(&qp->sq.lock);
}

static int wr_complete(struct ibv_qp_ex *qpx)
{
	struct mlx5_qp *qp = to_mqpx(qpx);
	int err = qp->wr.err;

	/* A WQE still waiting for a setter is incomplete. */
	if (wr_unlikely(err || qp->wr.setters)) {
		rollback(qp);
		if (!err)
			err = EINVAL;
	} else if (qp->wr.nreq) {
		mlx5_ring_sq(qp, qp->wr.ctrl, qp->wr.size, qp->wr.nreq,
			     qp->wr.inl_wqe);
	}
	unlock_sq(qp);
	return err;
}

/* Before RTS nothing may be posted: everything is dropped. */
static int wr_complete_not_ready(struct ibv_qp_ex *qpx)
{
	struct mlx5_qp *qp = to_mqpx(qpx);

	rollback(qp);
	unlock_sq(qp);
	return EINVAL;
}

static void wr_abort(struct ibv_qp_ex *qpx)
{
	struct mlx5_qp *qp = to_mqpx(qpx);

	rollback(qp);
	unlock_sq(qp);
}

void mlx5_qp_set_wr_complete(struct mlx5_qp *qp, bool operational)
{
	qp->verbs_qp.qp_ex.wr_complete = operational ? wr_complete
						     : wr_complete_not_ready;
}

/* Only the builders the QP was created for (send_ops_flags) are set. */
void mlx5_qp_set_wr_ops(struct mlx5_qp *qp)
{
	struct ibv_qp_ex *x = &qp->verbs_qp.qp_ex;
	uint64_t ops = qp->send_ops;

	x->wr_start = wr_start;
	x->wr_abort = wr_abort;
	mlx5_qp_set_wr_complete(qp, false);
	x->wr_set_sge = wr_set_sge;
	x->wr_set_sge_list = wr_set_sge_list;
	x->wr_set_inline_data = wr_set_inline_data;
	x->wr_set_inline_data_list = wr_set_inline_data_list;
	if (qp->qp_type == IBV_QPT_UD) {
		x->wr_set_ud_addr = wr_set_ud_addr;
		if (ops & IBV_QP_EX_WITH_SEND)
			x->wr_send = wr_send_ud;
		if (ops & IBV_QP_EX_WITH_SEND_WITH_IMM)
			x->wr_send_imm = wr_send_imm_ud;
		return; /* UD sends nothing else */
	}
	if (qp->qp_type == IBV_QPT_XRC_SEND)
		x->wr_set_xrc_srqn = wr_set_xrc_srqn;
	if (ops & IBV_QP_EX_WITH_SEND)
		x->wr_send = wr_send;
	if (ops & IBV_QP_EX_WITH_SEND_WITH_IMM)
		x->wr_send_imm = wr_send_imm;
	if (ops & IBV_QP_EX_WITH_SEND_WITH_INV)
		x->wr_send_inv = wr_send_inv;
	if (ops & IBV_QP_EX_WITH_RDMA_WRITE)
		x->wr_rdma_write = wr_rdma_write;
	if (ops & IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)
		x->wr_rdma_write_imm = wr_rdma_write_imm;
	if (ops & IBV_QP_EX_WITH_RDMA_READ)
		x->wr_rdma_read = wr_rdma_read;
	if (ops & IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP)
		x->wr_atomic_cmp_swp = wr_atomic_cmp_swp;
	if (ops & IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD)
		x->wr_atomic_fetch_add = wr_atomic_fetch_add;
	if (ops & IBV_QP_EX_WITH_BIND_MW)
		x->wr_bind_mw = wr_bind_mw;
	if (ops & IBV_QP_EX_WITH_LOCAL_INV)
		x->wr_local_inv = wr_local_inv;
}

/* The mlx5 builders the QP was created for (mlx5dv send_ops_flags). */
void mlx5_qp_set_dv_wr_ops(struct mlx5_qp *qp)
{
	if (qp->dv_send_ops & MLX5DV_QP_EX_WITH_RAW_WQE)
		qp->dv_qp_ex.wr_raw_wqe = wr_raw_wqe;
}

struct mlx5dv_qp_ex *mlx5dv_qp_ex_from_ibv_qp_ex(struct ibv_qp_ex *qp)
{
	if (!qp) {
		errno = EINVAL;
		return NULL;
	}
	return &to_mqpx(qp)->dv_qp_ex;
}
