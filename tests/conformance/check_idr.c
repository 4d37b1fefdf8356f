// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * IDR handle checks: handles are per context and per object type, and a
 * destroyed handle is gone. PDs come from write(ALLOC_PD), destruction goes
 * through ioctl(PD_DESTROY).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "conf.h"

static void check_foreign_and_destroyed(int other_fd)
{
	uint32_t pd;
	int err;

	err = raw_alloc_pd(conf_fd, &pd);
	conf_expect("idr.alloc_pd_for_idr_checks", 0, err);
	/* The other context owns no object: the same number means nothing. */
	conf_expect("idr.pd_destroy.handle_of_other_context", ENOENT,
		    raw_destroy_pd(other_fd, pd));
	conf_expect("idr.pd_destroy.owner_ok", 0, raw_destroy_pd(conf_fd, pd));
	conf_expect("idr.pd_destroy.destroyed_handle", ENOENT,
		    raw_destroy_pd(conf_fd, pd));
	conf_expect("idr.pd_destroy.never_allocated", ENOENT,
		    raw_destroy_pd(conf_fd, 0x7fffffff));
}

static void check_type_and_len(void *page)
{
	struct raw_ioctl cmd;
	uint32_t pd, mr;
	int err;

	err = raw_alloc_pd(conf_fd, &pd);
	if (!err)
		err = raw_reg_mr(conf_fd, pd, page, 4096, &mr);
	conf_expect("idr.setup_pd_and_mr", 0, err);
	if (err)
		return;
	conf_expect("idr.pd_destroy.mr_handle_wrong_type", EINVAL,
		    mr == pd ? EINVAL : raw_destroy_pd(conf_fd, mr));

	raw_init(&cmd, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY);
	raw_add(&cmd, UVERBS_ATTR_DESTROY_PD_HANDLE, 4, UVERBS_ATTR_F_MANDATORY,
		pd);
	conf_expect("idr.pd_destroy.len4_on_idr", EINVAL,
		    raw_exec(conf_fd, &cmd));
	conf_expect("idr.pd_destroy.with_live_mr", EBUSY,
		    raw_destroy_pd(conf_fd, pd));

	raw_init(&cmd, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY);
	raw_add(&cmd, UVERBS_ATTR_DESTROY_MR_HANDLE, 0, UVERBS_ATTR_F_MANDATORY,
		mr);
	conf_expect("idr.mr_destroy.ok", 0, raw_exec(conf_fd, &cmd));
	conf_expect("idr.pd_destroy.after_mr_gone", 0,
		    raw_destroy_pd(conf_fd, pd));
}

void check_idr(void)
{
	void *page;
	int other;

	conf_print_header("IDR handles");
	other = raw_open_context();
	conf_expect("idr.second_context_open", 0, other < 0 ? errno : 0);
	if (other >= 0) {
		check_foreign_and_destroyed(other);
		close(other);
	}
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		conf_expect("idr.mmap_page", 0, errno);
		return;
	}
	check_type_and_len(page);
	munmap(page, 4096);
}
