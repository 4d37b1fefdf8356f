// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory windows and REREG_MR through write(): ALLOC_MW's type and PD
 * checks, the PD a window holds, DEALLOC_MW and the ioctl MW_DESTROY,
 * BIND_MW (never implemented), and REREG_MR, which rxe has only since
 * 6.12 (and then without translation).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"

static int alloc_mw(uint32_t pd, uint8_t type, uint32_t *handle, uint32_t *rkey)
{
	struct ib_uverbs_alloc_mw_resp r = {};
	struct ib_uverbs_alloc_mw cmd = {
		.response = (uintptr_t)&r,
		.pd_handle = pd,
		.mw_type = type,
	};
	int err = raw_write(conf_fd, IB_USER_VERBS_CMD_ALLOC_MW, &cmd,
			    sizeof(cmd), sizeof(r));

	*handle = r.mw_handle;
	*rkey = r.rkey;
	return err;
}

static int handle_cmd(uint32_t command, uint32_t handle)
{
	return raw_write(conf_fd, command, &handle, sizeof(handle), 0);
}

static int rereg(uint32_t mr, uint32_t flags, uint32_t pd, uint32_t access)
{
	struct ib_uverbs_rereg_mr_resp r;
	struct ib_uverbs_rereg_mr cmd = {
		.response = (uintptr_t)&r,
		.mr_handle = mr,
		.flags = flags,
		.pd_handle = pd,
		.access_flags = access,
	};

	return raw_write(conf_fd, IB_USER_VERBS_CMD_REREG_MR, &cmd, sizeof(cmd),
			 sizeof(r));
}

static void check_windows(uint32_t pd)
{
	uint32_t mw1 = 0, mw2 = 0, rkey1 = 0, rkey2 = 0, h, k;
	uint32_t bind[12] = {};

	conf_expect("mw.alloc.type1", 0, alloc_mw(pd, 1, &mw1, &rkey1));
	conf_expect("mw.alloc.type2", 0, alloc_mw(pd, 2, &mw2, &rkey2));
	conf_expect_u("mw.alloc.keys_differ", 1, rkey1 >> 8 != rkey2 >> 8);
	conf_expect("mw.alloc.type0", EINVAL, alloc_mw(pd, 0, &h, &k));
	conf_expect("mw.alloc.type3", EINVAL, alloc_mw(pd, 3, &h, &k));
	conf_expect("mw.alloc.unknown_pd", ENOENT,
		    alloc_mw(pd + 1000, 1, &h, &k));
	conf_expect("mw.dealloc_pd.with_live_mw", EBUSY,
		    handle_cmd(IB_USER_VERBS_CMD_DEALLOC_PD, pd));
	conf_expect("mw.bind_mw.write", EOPNOTSUPP,
		    raw_write(conf_fd, IB_USER_VERBS_CMD_BIND_MW, bind,
			      sizeof(bind), 0));
	conf_expect("mw.dealloc.ok", 0,
		    handle_cmd(IB_USER_VERBS_CMD_DEALLOC_MW, mw1));
	conf_expect("mw.dealloc.again", ENOENT,
		    handle_cmd(IB_USER_VERBS_CMD_DEALLOC_MW, mw1));
	conf_expect("mw.dealloc.pd_handle", EINVAL,
		    handle_cmd(IB_USER_VERBS_CMD_DEALLOC_MW, pd));
	conf_expect("mw.destroy_ioctl.ok", 0,
		    raw_destroy(conf_fd, UVERBS_OBJECT_MW,
				UVERBS_METHOD_MW_DESTROY, mw2));
}

static void check_rereg(uint32_t pd, void *page)
{
	uint32_t mr = 0;

	if (raw_reg_mr(conf_fd, pd, page, 4096, &mr)) {
		conf_expect("rereg.reg_mr", 0, EIO);
		return;
	}
	/* 6.1's rxe has no rereg_user_mr: the command does not exist */
	conf_expect_kv("rereg.flags0", EOPNOTSUPP, EINVAL, rereg(mr, 0, 0, 0));
	conf_expect_kv("rereg.flags8", EOPNOTSUPP, EOPNOTSUPP,
		       rereg(mr, 8, 0, 0));
	conf_expect_kv("rereg.access.remote_write_alone", EOPNOTSUPP, EINVAL,
		       rereg(mr, 4, 0, IB_UVERBS_ACCESS_REMOTE_WRITE));
	conf_expect_kv("rereg.access.ok", EOPNOTSUPP, 0,
		       rereg(mr, 4, 0,
			     IB_UVERBS_ACCESS_LOCAL_WRITE |
				     IB_UVERBS_ACCESS_REMOTE_READ));
	conf_expect_kv("rereg.pd.same", EOPNOTSUPP, 0, rereg(mr, 2, pd, 0));
	conf_expect_kv("rereg.unknown_mr", EOPNOTSUPP, ENOENT,
		       rereg(mr + 1000, 4, 0, IB_UVERBS_ACCESS_LOCAL_WRITE));
	conf_expect("rereg.dereg", 0,
		    handle_cmd(IB_USER_VERBS_CMD_DEREG_MR, mr));
}

void check_mw(void)
{
	void *page = aligned_alloc(4096, 4096);
	uint32_t pd = 0;

	if (!page || raw_alloc_pd(conf_fd, &pd)) {
		conf_expect("mw.alloc_pd", 0, EIO);
		free(page);
		return;
	}
	memset(page, 0, 4096);
	check_windows(pd);
	check_rereg(pd, page);
	conf_expect("mw.dealloc_pd", 0,
		    handle_cmd(IB_USER_VERBS_CMD_DEALLOC_PD, pd));
	free(page);
}
