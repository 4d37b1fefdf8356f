// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Memory keys: CREATE_MKEY makes the HCA's record of an MR (PD, range,
 * access, where its bytes are and how: pinned, on-demand paged, or asked
 * of the driver at each access) or of a memory window,
 * created free; DESTROY_MKEY forgets it. The translation of a dma-buf or
 * device-memory MR is never cached: the HCA raises PAGE_FAULT and the
 * driver answers with PAGE_FAULT_RESUME, so a buffer the exporter revoked
 * fails the access, as mlx5_ib's invalidation of a moved dma-buf would.
 *
 * The table is this process's: a fork child starts with none.
 */
#include "hca.h"
#include "hca_cmd.h"
#include "hca_cmd_int.h"

#include <errno.h>
#include <stdlib.h>

static struct hca_table mkey_table; /* by index (key >> 8) */

struct hca_mkey *hca_mkey_find(unsigned int dev, uint32_t key)
{
	struct hca_mkey *mk = hca_table_find(&mkey_table, key >> 8);

	return mk && mk->dev == dev ? mk : NULL;
}

uint64_t hca_mkey_fault(struct hca_mkey *mk)
{
	mk->addr = 0;
	hca_eq_post(HCA_EQE_PAGE_FAULT, HCA_PF_TRANSLATE, mk->dev, mk->key);
	return mk->addr;
}

int hca_mkey_odp_fault(struct hca_mkey *mk, uint64_t addr, uint64_t len,
		       int write)
{
	const struct hca_eqe e = {
		.type = HCA_EQE_PAGE_FAULT,
		.sub_type = write ? HCA_PF_ODP_WRITE : HCA_PF_ODP_READ,
		.dev = (uint16_t)mk->dev,
		.num = mk->key,
		.va = addr,
		.len = len,
	};

	mk->pf_error = 1; /* unless the driver resolves it */
	hca_eq_post_eqe(&e);
	return mk->pf_error ? -EFAULT : 0;
}

static uint8_t create_mkey(const void *in, void *out)
{
	const struct hca_create_mkey_in *c = in;
	int mw = c->hdr.op_mod == HCA_MKEY_MW;
	struct hca_mkey *mk;

	(void)out;
	if (c->hdr.op_mod > HCA_MKEY_MW ||
	    (mw ? c->mw_type != 1 && c->mw_type != 2
		: c->translation > HCA_MKEY_NONE) ||
	    hca_table_find(&mkey_table, c->key >> 8))
		return HCA_STAT_BAD_PARAM_ERR;
	mk = calloc(1, sizeof(*mk));
	if (!mk)
		return HCA_STAT_LIM_ERR;
	mk->dev = c->dev;
	mk->key = c->key;
	mk->pdn = c->pdn;
	if (mw) {
		mk->mw = 1;
		mk->mw_type = c->mw_type;
		mk->free = 1;
	} else {
		mk->access = c->access;
		mk->start = c->start;
		mk->length = c->length;
		mk->odp = c->translation == HCA_MKEY_ODP;
		mk->fault = c->translation == HCA_MKEY_FAULT;
		mk->none = c->translation == HCA_MKEY_NONE;
		mk->addr = c->addr;
	}
	if (hca_table_add(&mkey_table, c->key >> 8, mk)) {
		free(mk);
		return HCA_STAT_LIM_ERR;
	}
	return HCA_STAT_OK;
}

static uint8_t destroy_mkey(const void *in, void *out)
{
	const struct hca_num_in *c = in;
	struct hca_mkey *mk = hca_table_take(&mkey_table, c->num >> 8);

	(void)out;
	if (!mk)
		return HCA_STAT_BAD_RES_ERR;
	free(mk);
	return HCA_STAT_OK;
}

static uint8_t page_fault_resume(const void *in, void *out)
{
	const struct hca_page_fault_resume_in *c = in;
	struct hca_mkey *mk = hca_table_find(&mkey_table, c->key >> 8);

	(void)out;
	if (!mk || !(mk->fault || mk->odp))
		return HCA_STAT_BAD_RES_ERR;
	if (mk->fault)
		mk->addr = c->error ? 0 : c->addr;
	mk->pf_error = c->error;
	hca_stats.odp_faults += mk->odp && c->faulted;
	return HCA_STAT_OK;
}

static const struct hca_cmd_def mkey_defs[] = {
	HCA_CMD(CREATE_MKEY, create_mkey, struct hca_create_mkey_in,
		struct hca_cmd_out),
	HCA_CMD(DESTROY_MKEY, destroy_mkey, struct hca_num_in,
		struct hca_cmd_out),
	HCA_CMD(PAGE_FAULT_RESUME, page_fault_resume,
		struct hca_page_fault_resume_in, struct hca_cmd_out),
};
static void mkey_forked(void)
{
	hca_table_clear(&mkey_table, free);
}

HCA_CMD_TOPIC(mkey, mkey_defs, mkey_forked);
