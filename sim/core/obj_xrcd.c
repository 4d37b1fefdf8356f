// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_XRCD: OPEN_XRCD and CLOSE_XRCD (write), XRCD_DESTROY
 * (ioctl), and OPEN_QP, which the kernel declares under this object.
 *
 * An XRC domain opened with a file's fd is named by the file's inode: the
 * kernel keeps one table per uverbs device, so every process that opens
 * that uverbsN with a file on the same inode reaches the same domain. Here
 * the table is sim_shared's xrcd_files (one row per device and inode, the
 * handles of each process counted by pid). Kernel order and errnos:
 * fd not open → EBADF; no domain on the inode and no O_CREAT → EAGAIN; a
 * domain and O_EXCL → EINVAL; fd −1 → a private domain, oflags ignored.
 * CLOSE_XRCD while this handle's XRC SRQs, TGT QPs or opened QPs live →
 * EBUSY (the framework's use count). OPEN_QP: the XRCD handle travels in
 * pd_handle (bad → EINVAL), the type must be XRC_TGT and the QP number a
 * TGT QP of that domain, made in any process (else EINVAL); the handle
 * holds the QP (xrc_tgt.c), not the creator's handle.
 */
#include "uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A zombie's files are closed: its handles went with them. */
static int holder_dead(int32_t pid)
{
	return pid > 0 && sim_pid_gone(pid);
}

unsigned int sim_holders_reap(struct sim_holder *h)
{
	unsigned int i, live = 0;

	for (i = 0; i < SIM_XRCD_HOLDERS; i++) {
		if (h[i].refs && holder_dead(h[i].pid))
			h[i].refs = 0;
		live += h[i].refs != 0;
	}
	return live;
}

int sim_holders_add(struct sim_holder *h, int delta)
{
	int32_t me = (int32_t)getpid();
	unsigned int i, free_at = SIM_XRCD_HOLDERS;

	for (i = 0; i < SIM_XRCD_HOLDERS; i++) {
		if (h[i].refs && h[i].pid == me) {
			h[i].refs += (uint32_t)delta;
			return 0;
		}
		if (!h[i].refs && free_at == SIM_XRCD_HOLDERS)
			free_at = i;
	}
	if (delta < 0)
		return 0;
	if (free_at == SIM_XRCD_HOLDERS)
		return -ENOMEM;
	h[free_at].pid = me;
	h[free_at].refs = 1;
	return 0;
}

/* Drop holders that died; free the row when none is left. Needs the
 * shared lock. */
static void row_reap(struct sim_xrcd_file *f)
{
	if (!sim_holders_reap(f->holder))
		f->in_use = 0;
}

static struct sim_xrcd_file *row_find(unsigned int dev, const struct stat *st)
{
	struct sim_xrcd_file *f;
	unsigned int i;

	for (i = 0; i < SIM_MAX_XRCD_FILES; i++) {
		f = &sim.sh->xrcd_files[i];
		if (f->in_use)
			row_reap(f);
		if (f->in_use && f->dev == dev &&
		    f->st_dev == (uint64_t)st->st_dev &&
		    f->st_ino == (uint64_t)st->st_ino)
			return f;
	}
	return NULL;
}

/* The domain on the inode of fd (created with O_CREAT): its row. */
static int inode_domain(unsigned int dev, int fd, uint32_t oflags,
			int32_t *slot, uint32_t *xrcdn)
{
	struct sim_xrcd_file *f = NULL;
	struct stat st;
	unsigned int i;
	int ret = 0;

	if (!sim_fd_of_program(fd) || sys.fstat(fd, &st))
		return -EBADF;
	sim_shared_lock(sim.sh);
	f = row_find(dev, &st);
	if (!f && !(oflags & O_CREAT))
		ret = -EAGAIN;
	else if (f && (oflags & O_EXCL))
		ret = -EINVAL;
	for (i = 0; !ret && !f && i < SIM_MAX_XRCD_FILES; i++)
		if (!sim.sh->xrcd_files[i].in_use) {
			f = &sim.sh->xrcd_files[i];
			memset(f, 0, sizeof(*f));
			f->in_use = 1;
			f->dev = dev;
			f->st_dev = (uint64_t)st.st_dev;
			f->st_ino = (uint64_t)st.st_ino;
			f->xrcdn = (uint32_t)(sim.sh->next_id++ & 0xffffff);
		}
	if (!ret)
		ret = f ? sim_holders_add(f->holder, 1) : -ENOMEM;
	if (!ret) {
		*slot = (int32_t)(f - sim.sh->xrcd_files);
		*xrcdn = f->xrcdn;
	}
	sim_shared_unlock(sim.sh);
	return ret;
}

static void xrcd_destroy(struct sim_uvfile *uv, struct sim_obj *o)
{
	struct sim_xrcd *x = sim_xrcd(o);
	struct sim_xrcd_file *f;

	(void)uv;
	if (!o->live || x->slot < 0) /* live: it holds its domain */
		return;
	sim_shared_lock(sim.sh);
	f = &sim.sh->xrcd_files[x->slot];
	sim_holders_add(f->holder, -1);
	row_reap(f);
	sim_shared_unlock(sim.sh);
}

static int xrcd_supported(void)
{
	return sim_driver()->xrc;
}

static int w_open_xrcd(struct sim_wcall *w)
{
	const struct ib_uverbs_open_xrcd *req = w->in;
	struct ib_uverbs_open_xrcd_resp r = {};
	struct sim_xrcd *x = sim_xrcd(w->obj);
	int ret = 0;

	x->slot = -1;
	if (!xrcd_supported())
		return -EOPNOTSUPP;
	if (req->fd == (uint32_t)-1)
		x->xrcdn = sim_shared_number(sim.sh);
	else
		ret = inode_domain(w->uv->dev, (int)req->fd, req->oflags,
				   &x->slot, &x->xrcdn);
	if (!ret) {
		x->obj.live = 1;
		r.xrcd_handle = x->obj.handle;
		snprintf(w->note, sizeof(w->note), "handle=%u xrcdn=%#x%s",
			 r.xrcd_handle, x->xrcdn,
			 x->slot < 0 ? " private" : "");
		ret = sim_wc_out(w, &r, sizeof(r));
	}
	return ret;
}

static int w_close_xrcd(struct sim_wcall *w)
{
	if (!xrcd_supported())
		return -EOPNOTSUPP;
	return sim_wc_destroy(w, &sim_type_xrcd);
}

static int w_open_qp(struct sim_wcall *w)
{
	const struct ib_uverbs_open_qp *req = w->in;
	struct ib_uverbs_create_qp_resp r = {};
	struct sim_qp *qp = sim_qp(w->obj);
	struct sim_xrcd *x;
	int ret;

	if (!xrcd_supported())
		return -EOPNOTSUPP;
	x = sim_xrcd(sim_obj_get(w->uv, req->pd_handle, &sim_type_xrcd, &ret));
	if (!x)
		return -EINVAL;
	if (req->qp_type != IB_QPT_XRC_TGT)
		return -EINVAL;
	qp->qp_type = IB_QPT_XRC_TGT;
	qp->qpn = req->qpn;
	qp->user_handle = req->user_handle;
	/* a TGT QP of the domain, made in any process */
	ret = sim_xrc_tgt_open(w->uv->dev, qp, x->xrcdn);
	if (ret)
		return ret;
	qp->xrcd = x;
	x->obj.usecnt++;
	qp->obj.live = 1;
	if (sim_driver()->open_qp)
		sim_driver()->open_qp(w->uv, qp);
	r.qp_handle = qp->obj.handle;
	r.qpn = qp->qpn;
	snprintf(w->note, sizeof(w->note), "handle=%u qpn=%#x opened",
		 r.qp_handle, r.qpn);
	return sim_wc_out(w, &r, sizeof(r));
}

static const struct sim_attr_spec xrcd_destroy_attrs[] = {
	A_IDR(UVERBS_ATTR_DESTROY_XRCD_HANDLE, sim_type_xrcd, SA_DESTROY),
};

static const struct sim_method xrcd_methods[] = {
	SIM_METHOD(UVERBS_OBJECT_XRCD, "XRCD", UVERBS_METHOD_XRCD_DESTROY,
		   "XRCD_DESTROY", sim_destroy_method, xrcd_destroy_attrs,
		   SIM_M_NEEDS_CTX),
};

static const struct sim_wcmd xrcd_wcmds[] = {
	{IB_USER_VERBS_CMD_OPEN_XRCD, "OPEN_XRCD",
	 sizeof(struct ib_uverbs_open_xrcd),
	 sizeof(struct ib_uverbs_open_xrcd_resp), 1, 1, w_open_xrcd},
	{IB_USER_VERBS_CMD_CLOSE_XRCD, "CLOSE_XRCD",
	 sizeof(struct ib_uverbs_close_xrcd), 0, 0, 1, w_close_xrcd},
	{IB_USER_VERBS_CMD_OPEN_QP, "OPEN_QP", sizeof(struct ib_uverbs_open_qp),
	 sizeof(struct ib_uverbs_create_qp_resp), 1, 1, w_open_qp},
};

/* A driver without alloc_xrcd has no XRCD object. */
static int xrcd_hidden(void)
{
	return !xrcd_supported();
}

const struct sim_obj_type sim_type_xrcd = {
	.name = "XRCD",
	.uapi_id = UVERBS_OBJECT_XRCD,
	.size = sizeof(struct sim_xrcd),
	.order = SIM_ORDER_ROOTS,
	.destroy = xrcd_destroy,
	.hidden = xrcd_hidden,
	.methods = xrcd_methods,
	.nmethods = ARRAY_SIZE(xrcd_methods),
	.wcmds = xrcd_wcmds,
	.nwcmds = ARRAY_SIZE(xrcd_wcmds),
	.wcreates = {IB_USER_VERBS_CMD_OPEN_XRCD},
};
SIM_OBJ_TYPE(sim_type_xrcd);
