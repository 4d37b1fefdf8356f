// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Bad arguments the kernel itself judges, and the errno the caller sees:
 * the same on Debian's libraries and on ours (run with LD_LIBRARY_PATH).
 *  - ibv_create_cq with the completion channel of another context: the
 *    kernel finds the fd is not an event file of this ufile, EBADF;
 *  - ibv_create_qp with a QP type no uAPI knows (0x55): EINVAL (but
 *    EOPNOTSUPP when it asks for send_ops_flags, which the provider checks
 *    first).
 * Usage: debian_errnos DEVICE (built against Debian's libibverbs)
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <string.h>

#include "judge.h"
#include "qp_link.h"

static struct ibv_context *open_dev(const char *name)
{
	return qp_link_open(name, NULL);
}

static void foreign_channel(struct ibv_context *a, struct ibv_context *b)
{
	struct ibv_cq_init_attr_ex ax = {.cqe = 4};
	struct ibv_comp_channel *ch = ibv_create_comp_channel(b);
	struct ibv_cq_ex *cqx;
	struct ibv_cq *cq;

	CHECK(ch, "create_comp_channel: %s", strerror(errno));
	if (!ch)
		return;
	errno = 0;
	cq = ibv_create_cq(a, 4, NULL, ch, 0);
	CHECK(!cq && errno == EBADF,
	      "create_cq, channel of another context: %p errno %d (%s), want "
	      "EBADF",
	      (void *)cq, errno, strerror(errno));
	if (cq)
		ibv_destroy_cq(cq);
	ax.channel = ch;
	errno = 0;
	cqx = ibv_create_cq_ex(a, &ax);
	CHECK(!cqx && errno == EBADF,
	      "create_cq_ex, channel of another context: %p errno %d (%s), "
	      "want EBADF",
	      (void *)cqx, errno, strerror(errno));
	if (cqx)
		ibv_destroy_cq(ibv_cq_ex_to_cq(cqx));
	/* Its own channel is fine, and the channel is still free to go. */
	cq = ibv_create_cq(b, 4, NULL, ch, 0);
	CHECK(cq, "create_cq on the channel's own context: %s",
	      strerror(errno));
	if (cq)
		CHECK(!ibv_destroy_cq(cq), "destroy_cq");
	CHECK(!ibv_destroy_comp_channel(ch), "destroy_comp_channel");
}

static void unknown_qp_type(struct ibv_context *ctx)
{
	struct ibv_qp_init_attr_ex ax = {
		.cap = {.max_send_wr = 4,
			.max_recv_wr = 4,
			.max_send_sge = 1,
			.max_recv_sge = 1},
		.qp_type = (enum ibv_qp_type)0x55,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
	};
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_cq *cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	struct ibv_qp_init_attr a;
	struct ibv_qp *qp;

	CHECK(pd && cq, "pd/cq: %s", strerror(errno));
	if (!pd || !cq)
		goto out;
	ax.pd = pd;
	ax.send_cq = ax.recv_cq = cq;
	memcpy(&a, &ax, sizeof(a));
	errno = 0;
	qp = ibv_create_qp(pd, &a);
	CHECK(!qp && errno == EINVAL,
	      "create_qp type 0x55: %p errno %d (%s), want EINVAL", (void *)qp,
	      errno, strerror(errno));
	if (qp)
		ibv_destroy_qp(qp);
	errno = 0;
	qp = ibv_create_qp_ex(ctx, &ax);
	CHECK(!qp && errno == EINVAL,
	      "create_qp_ex type 0x55: %p errno %d (%s), want EINVAL",
	      (void *)qp, errno, strerror(errno));
	if (qp)
		ibv_destroy_qp(qp);
	/* With send_ops_flags the provider judges those first: no ops for
	 * a type it lacks, EOPNOTSUPP (libmlx5 and librxe alike). */
	ax.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	ax.send_ops_flags = IBV_QP_EX_WITH_SEND;
	errno = 0;
	qp = ibv_create_qp_ex(ctx, &ax);
	CHECK(!qp && errno == EOPNOTSUPP,
	      "create_qp_ex type 0x55, send_ops_flags: %p errno %d (%s), want "
	      "EOPNOTSUPP",
	      (void *)qp, errno, strerror(errno));
	if (qp)
		ibv_destroy_qp(qp);
out:
	if (cq)
		CHECK(!ibv_destroy_cq(cq), "destroy_cq");
	if (pd)
		CHECK(!ibv_dealloc_pd(pd), "dealloc_pd");
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "mlx5_0";
	struct ibv_context *a = open_dev(dev), *b = open_dev(dev);

	CHECK(a && b, "open %s twice: %s", dev, strerror(errno));
	if (a && b) {
		foreign_channel(a, b);
		unknown_qp_type(a);
	}
	if (b)
		CHECK(!ibv_close_device(b), "close b");
	if (a)
		CHECK(!ibv_close_device(a), "close a");
	fprintf(stderr, "debian_errnos %s: %d failure(s)\n", dev, failures);
	return failures ? 1 : 0;
}
