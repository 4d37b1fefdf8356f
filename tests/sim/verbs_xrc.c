// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * XRC domains, XRC SRQs and QPs, OPEN_QP and ADVISE_MR by raw uverbs
 * calls, each expecting the kernel's answer: mlx5 has them all (errnos of
 * uverbs and mlx5_ib), rxe has no XRCD object (OPEN_XRCD EOPNOTSUPP,
 * XRCD_DESTROY EPROTONOSUPPORT) and no advise_mr (EOPNOTSUPP).
 */
#include "verbs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int v_open_xrcd(int fd, int file, uint32_t oflags, uint32_t *handle)
{
	struct ib_uverbs_open_xrcd_resp r = {};
	struct ib_uverbs_open_xrcd c = {
		.response = (uintptr_t)&r,
		.fd = (uint32_t)file,
		.oflags = oflags,
	};
	int ret = raw_write(fd, IB_USER_VERBS_CMD_OPEN_XRCD, &c, sizeof(c),
			    sizeof(r));

	*handle = r.xrcd_handle;
	return ret;
}

/* CREATE_QP of an XRC_TGT: the domain in pd_handle, nothing else. */
int v_create_tgt(int fd, uint32_t xrcd, uint32_t *handle, uint32_t *qpn)
{
	struct ib_uverbs_create_qp_resp r = {};
	struct ib_uverbs_create_qp c = {
		.response = (uintptr_t)&r,
		.pd_handle = xrcd,
		.qp_type = IB_UVERBS_QPT_XRC_TGT,
	};
	int ret = raw_write(fd, IB_USER_VERBS_CMD_CREATE_QP, &c, sizeof(c),
			    sizeof(r));

	*handle = r.qp_handle;
	*qpn = r.qpn;
	return ret;
}

int v_open_qp(int fd, uint32_t xrcd, uint32_t qpn, uint8_t type,
	      uint32_t *handle)
{
	struct ib_uverbs_create_qp_resp r = {};
	struct ib_uverbs_open_qp c = {
		.response = (uintptr_t)&r,
		.pd_handle = xrcd,
		.qpn = qpn,
		.qp_type = type,
	};
	int ret = raw_write(fd, IB_USER_VERBS_CMD_OPEN_QP, &c, sizeof(c),
			    sizeof(r));

	*handle = r.qp_handle;
	return ret;
}

static int create_xsrq(int fd, uint32_t pd, uint32_t xrcd, uint32_t cq)
{
	struct ib_uverbs_create_srq_resp r = {};
	struct ib_uverbs_create_xsrq c = {
		.response = (uintptr_t)&r,
		.srq_type = IB_UVERBS_SRQT_XRC,
		.pd_handle = pd,
		.max_wr = 4,
		.max_sge = 1,
		.xrcd_handle = xrcd,
		.cq_handle = cq,
	};

	return raw_write(fd, IB_USER_VERBS_CMD_CREATE_XSRQ, &c, sizeof(c),
			 sizeof(r));
}

static int advise(int fd, uint32_t pd, uint64_t advice, uint32_t flags,
		  const void *sge, uint16_t len)
{
	struct raw_ioctl c;

	raw_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR);
	raw_attr(&c, UVERBS_ATTR_ADVISE_MR_PD_HANDLE, 0, pd);
	raw_attr(&c, UVERBS_ATTR_ADVISE_MR_ADVICE, 8, advice);
	raw_attr(&c, UVERBS_ATTR_ADVISE_MR_FLAGS, 4, flags);
	raw_attr(&c, UVERBS_ATTR_ADVISE_MR_SGE_LIST, len, (uintptr_t)sge);
	return raw_exec(fd, &c);
}

static void check_domains(int fd, uint32_t pd, uint32_t cq)
{
	char path[] = "/tmp/sim-verbs-xrcd-XXXXXX";
	uint32_t x, y, tgt, qpn, op;
	int file = mkstemp(path);

	EXPECT(file >= 0, "mkstemp");
	EXPECT_ERR(v_open_xrcd(fd, 900, O_CREAT, &x), EBADF);
	EXPECT_ERR(v_open_xrcd(fd, file, 0, &x), EAGAIN);
	EXPECT_ERR(v_open_xrcd(fd, file, O_CREAT, &x), 0);
	EXPECT_ERR(v_open_xrcd(fd, file, O_CREAT | O_EXCL, &y), EINVAL);
	EXPECT_ERR(v_open_xrcd(fd, file, 0, &y), 0); /* the same domain */
	EXPECT_ERR(create_xsrq(fd, pd, 0xdead, cq), EINVAL);
	EXPECT_ERR(create_xsrq(fd, pd, x, 0xdead), EINVAL);
	EXPECT_ERR(v_create_tgt(fd, 0xdead, &tgt, &qpn), EINVAL);
	EXPECT_ERR(v_create_tgt(fd, x, &tgt, &qpn), 0);
	/* the TGT QP holds the handle it was made through */
	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_XRCD,
			       UVERBS_METHOD_XRCD_DESTROY, x),
		   EBUSY);
	EXPECT_ERR(v_open_qp(fd, y, qpn, IB_UVERBS_QPT_RC, &op), EINVAL);
	EXPECT_ERR(v_open_qp(fd, y, qpn + 1, IB_UVERBS_QPT_XRC_TGT, &op),
		   EINVAL);
	EXPECT_ERR(v_open_qp(fd, 0xdead, qpn, IB_UVERBS_QPT_XRC_TGT, &op),
		   EINVAL);
	EXPECT_ERR(v_open_qp(fd, y, qpn, IB_UVERBS_QPT_XRC_TGT, &op), 0);
	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_XRCD,
			       UVERBS_METHOD_XRCD_DESTROY, y),
		   EBUSY);
	EXPECT_ERR(raw_destroy_qp(fd, op, NULL), 0);
	EXPECT_ERR(raw_destroy_qp(fd, tgt, NULL), 0);
	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_XRCD,
			       UVERBS_METHOD_XRCD_DESTROY, x),
		   0);
	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_XRCD,
			       UVERBS_METHOD_XRCD_DESTROY, y),
		   0);
	/* gone with its last handle */
	EXPECT_ERR(v_open_xrcd(fd, file, 0, &x), EAGAIN);
	EXPECT_ERR(v_open_xrcd(fd, -1, O_EXCL, &x), 0); /* private */
	EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_XRCD,
			       UVERBS_METHOD_XRCD_DESTROY, x),
		   0);
	close(file);
	unlink(path);
}

/* A domain on the inode of the file at path, opened by a dying process. */
static int hold_domain(void *path)
{
	int fd = raw_open_ctx(NULL), file = open(path, O_RDONLY);
	uint32_t x;

	return fd < 0 || file < 0 || v_open_xrcd(fd, file, O_CREAT, &x);
}

/* Its only holder died (not reaped yet): the domain is gone. */
static void check_zombie_holder(int fd)
{
	char path[] = "/tmp/sim-verbs-xrcd-XXXXXX";
	int file = mkstemp(path);
	pid_t pid = raw_zombie(hold_domain, path);
	uint32_t x;

	EXPECT(file >= 0 && pid > 0, "no zombie holding an XRCD");
	EXPECT_ERR(v_open_xrcd(fd, file, 0, &x), EAGAIN);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	close(file);
	unlink(path);
}

static void check_advise(int fd, uint32_t pd)
{
	size_t len = 2 * (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *buf = aligned_alloc(4096, len);
	struct ib_uverbs_sge sge = {(uintptr_t)buf, 64, 0};
	uint32_t mr;

	EXPECT(buf, "alloc");
	EXPECT_ERR(raw_reg_mr(fd, pd, buf, len, &mr), 0);
	sge.lkey = 0; /* no MR has key 0 */
	EXPECT_ERR(advise(fd, pd, IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
			  IB_UVERBS_ADVISE_MR_FLAG_FLUSH, &sge, sizeof(sge)),
		   v_rxe ? EOPNOTSUPP : ENOENT);
	if (!v_rxe) {
		EXPECT_ERR(advise(fd, pd, 0, 2, &sge, sizeof(sge)), EINVAL);
		EXPECT_ERR(advise(fd, pd, 3, 0, &sge, sizeof(sge)), EOPNOTSUPP);
		EXPECT_ERR(advise(fd, pd, 1ull << 32, 0, &sge, sizeof(sge)),
			   EINVAL);
		EXPECT_ERR(advise(fd, pd, 0, 0, &sge, sizeof(sge) + 1), EINVAL);
	}
	EXPECT_ERR(
		raw_destroy(fd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, mr),
		0);
	free(buf);
}

void v_check_xrc(void)
{
	uint32_t pd, cq, x;
	int fd = v_env(&pd, &cq);

	if (fd < 0)
		return;
	if (v_rxe) {
		EXPECT_ERR(v_open_xrcd(fd, -1, 0, &x), EOPNOTSUPP);
		EXPECT_ERR(raw_destroy(fd, UVERBS_OBJECT_XRCD,
				       UVERBS_METHOD_XRCD_DESTROY, 1),
			   EPROTONOSUPPORT);
	} else {
		check_domains(fd, pd, cq);
		check_zombie_holder(fd);
	}
	check_advise(fd, pd);
	close(fd);
}
