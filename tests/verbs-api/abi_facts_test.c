// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The layout facts of the reference sheet (abi-facts.md section 5) for
 * what is newer than the rdma-core 44 headers the layout comparison can
 * use, asserted against our public headers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <infiniband/verbs.h>

#define CTX_OFF(slot)                                                          \
	((long)offsetof(struct verbs_context, slot) -                          \
	 (long)offsetof(struct verbs_context, context))

static void test_verbs_context_slots(void **state)
{
	static const struct {
		const char *name;
		long off, want;
	} slots[] = {
		{ "free_buf", CTX_OFF(free_buf), -368 },
		{ "alloc_buf", CTX_OFF(alloc_buf), -360 },
		{ "dm_export_dmabuf_fd", CTX_OFF(dm_export_dmabuf_fd), -352 },
		{ "reg_mr_ex", CTX_OFF(reg_mr_ex), -344 },
		{ "dealloc_dmah", CTX_OFF(dealloc_dmah), -336 },
		{ "alloc_dmah", CTX_OFF(alloc_dmah), -328 },
		{ "query_port", CTX_OFF(query_port), -320 },
		{ "advise_mr", CTX_OFF(advise_mr), -312 },
		{ "alloc_null_mr", CTX_OFF(alloc_null_mr), -304 },
		{ "read_counters", CTX_OFF(read_counters), -296 },
		{ "destroy_counters", CTX_OFF(destroy_counters), -272 },
		{ "reg_dm_mr", CTX_OFF(reg_dm_mr), -264 },
		{ "alloc_dm", CTX_OFF(alloc_dm), -256 },
		{ "free_dm", CTX_OFF(free_dm), -248 },
		{ "modify_flow_action_esp", CTX_OFF(modify_flow_action_esp),
		  -240 },
		{ "create_cq_ex", CTX_OFF(create_cq_ex), -120 },
		{ "priv", CTX_OFF(priv), -112 },
		{ "query_device_ex", CTX_OFF(query_device_ex), -104 },
		{ "ibv_destroy_flow", CTX_OFF(ibv_destroy_flow), -96 },
		{ "close_xrcd", CTX_OFF(close_xrcd), -24 },
		{ "_ABI_placeholder3", CTX_OFF(_ABI_placeholder3), -16 },
		{ "sz", CTX_OFF(sz), -8 },
	};
	size_t i;

	for (i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
		if (slots[i].off != slots[i].want)
			fail_msg("verbs_context.%s at %ld, want %ld",
				 slots[i].name, slots[i].off, slots[i].want);
	assert_int_equal(sizeof(struct verbs_context), 696);
}

static void test_context(void **state)
{
	assert_int_equal(sizeof(struct ibv_context), 328);
	assert_int_equal(offsetof(struct ibv_context, ops), 8);
	assert_int_equal(sizeof(struct ibv_context_ops), 256);
	assert_int_equal(offsetof(struct ibv_context, cmd_fd), 264);
	assert_int_equal(offsetof(struct ibv_context, async_fd), 268);
	assert_int_equal(offsetof(struct ibv_context, num_comp_vectors), 272);
	assert_int_equal(offsetof(struct ibv_context, mutex), 280);
	assert_int_equal(offsetof(struct ibv_context, abi_compat), 320);
}

static void test_dm_and_mr(void **state)
{
	assert_int_equal(sizeof(struct ibv_alloc_dm_attr), 16);
	assert_int_equal(offsetof(struct ibv_alloc_dm_attr, log_align_req), 8);
	assert_int_equal(offsetof(struct ibv_alloc_dm_attr, comp_mask), 12);
	assert_int_equal(sizeof(struct ibv_dm), 32);
	assert_int_equal(offsetof(struct ibv_dm, memcpy_to_dm), 8);
	assert_int_equal(offsetof(struct ibv_dm, memcpy_from_dm), 16);
	assert_int_equal(offsetof(struct ibv_dm, comp_mask), 24);
	assert_int_equal(offsetof(struct ibv_dm, handle), 28);
	assert_int_equal(IBV_DM_MASK_HANDLE, 1);

	assert_int_equal(sizeof(struct ibv_mr), 48);
	assert_int_equal(offsetof(struct ibv_mr, pd), 8);
	assert_int_equal(offsetof(struct ibv_mr, addr), 16);
	assert_int_equal(offsetof(struct ibv_mr, length), 24);
	assert_int_equal(offsetof(struct ibv_mr, handle), 32);
	assert_int_equal(offsetof(struct ibv_mr, lkey), 36);
	assert_int_equal(offsetof(struct ibv_mr, rkey), 40);

	assert_int_equal(sizeof(struct ibv_device_attr), 232);
	assert_int_equal(sizeof(struct ibv_device_attr_ex), 400);
	assert_int_equal(offsetof(struct ibv_device_attr_ex, comp_mask), 232);
	assert_int_equal(offsetof(struct ibv_device_attr_ex, odp_caps), 240);
	assert_int_equal(offsetof(struct ibv_device_attr_ex, cq_mod_caps), 368);
	assert_int_equal(offsetof(struct ibv_device_attr_ex, max_dm_size), 376);
	assert_int_equal(offsetof(struct ibv_device_attr_ex, pci_atomic_caps),
			 384);
	assert_int_equal(offsetof(struct ibv_device_attr_ex, xrc_odp_caps),
			 392);
	assert_int_equal(offsetof(struct ibv_device_attr_ex, phys_port_cnt_ex),
			 396);
}

static void test_access_flags(void **state)
{
	static const struct {
		long value, want;
	} flags[] = {
		{ IBV_ACCESS_LOCAL_WRITE, 1 },
		{ IBV_ACCESS_REMOTE_WRITE, 2 },
		{ IBV_ACCESS_REMOTE_READ, 4 },
		{ IBV_ACCESS_REMOTE_ATOMIC, 8 },
		{ IBV_ACCESS_MW_BIND, 0x10 },
		{ IBV_ACCESS_ZERO_BASED, 0x20 },
		{ IBV_ACCESS_ON_DEMAND, 0x40 },
		{ IBV_ACCESS_HUGETLB, 0x80 },
		{ IBV_ACCESS_FLUSH_GLOBAL, 0x100 },
		{ IBV_ACCESS_FLUSH_PERSISTENT, 0x200 },
		{ IBV_ACCESS_RELAXED_ORDERING, 0x100000 },
		{ IBV_ACCESS_OPTIONAL_RANGE, 0x3ff00000 },
	};
	size_t i;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		assert_int_equal(flags[i].value, flags[i].want);
}

static void test_mr_init_attr(void **state)
{
	assert_int_equal(sizeof(struct ibv_mr_init_attr), 72);
	assert_int_equal(offsetof(struct ibv_mr_init_attr, access), 8);
	assert_int_equal(offsetof(struct ibv_mr_init_attr, comp_mask), 16);
	assert_int_equal(offsetof(struct ibv_mr_init_attr, iova), 24);
	assert_int_equal(offsetof(struct ibv_mr_init_attr, addr), 32);
	assert_int_equal(offsetof(struct ibv_mr_init_attr, fd), 40);
	assert_int_equal(offsetof(struct ibv_mr_init_attr, fd_offset), 48);
	assert_int_equal(offsetof(struct ibv_mr_init_attr, dmah), 56);
	assert_int_equal(offsetof(struct ibv_mr_init_attr, buf), 64);
	assert_int_equal(IBV_REG_MR_MASK_IOVA, 1);
	assert_int_equal(IBV_REG_MR_MASK_ADDR, 2);
	assert_int_equal(IBV_REG_MR_MASK_FD, 4);
	assert_int_equal(IBV_REG_MR_MASK_FD_OFFSET, 8);
	assert_int_equal(IBV_REG_MR_MASK_DMAH, 16);
	assert_int_equal(IBV_REG_MR_MASK_BUF, 32);
}

/* perftest (TPH support) uses these names; values as upstream's verbs.h. */
static void test_dmah(void **state)
{
	struct ibv_dmah_init_attr attr = {
		.tph_mem_type = IBV_TPH_MEM_TYPE_PM,
	};

	assert_int_equal(IBV_TPH_MEM_TYPE_VM, 0);
	assert_int_equal(IBV_TPH_MEM_TYPE_PM, 1);
	assert_int_equal(attr.tph_mem_type, 1);
	assert_int_equal(IBV_DMAH_INIT_ATTR_MASK_CPU_ID, 1);
	assert_int_equal(IBV_DMAH_INIT_ATTR_MASK_PH, 2);
	assert_int_equal(IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE, 4);
	assert_int_equal(sizeof(struct ibv_dmah_init_attr), 12);
	assert_int_equal(offsetof(struct ibv_dmah_init_attr, ph), 8);
	assert_int_equal(offsetof(struct ibv_dmah_init_attr, tph_mem_type), 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verbs_context_slots),
		cmocka_unit_test(test_context),
		cmocka_unit_test(test_dm_and_mr),
		cmocka_unit_test(test_access_flags),
		cmocka_unit_test(test_mr_init_attr),
		cmocka_unit_test(test_dmah),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
