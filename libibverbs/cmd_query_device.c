// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* QUERY_DEVICE and EX_QUERY_DEVICE (write-only commands). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rdma/ib_user_verbs.h>

#include "cmd_write.h"

#define KOFF(field) offsetof(struct ib_uverbs_ex_query_device_resp, field)
#define UOFF(field) offsetof(struct ibv_device_attr_ex, field)

/*
 * Extended fields whose kernel and user layouts agree byte for byte. Each
 * is copied only when the kernel's response_length covers it and the
 * caller's attr_size has room for it; otherwise it stays 0.
 */
static const struct ex_field {
	size_t kern_off;
	size_t user_off;
	size_t len;
} ex_fields[] = {
	/* general_caps and the rc/uc/ud transport caps */
	{KOFF(odp_caps), UOFF(odp_caps), 20},
	{KOFF(timestamp_mask), UOFF(completion_timestamp_mask), 8},
	{KOFF(hca_core_clock), UOFF(hca_core_clock), 8},
	{KOFF(device_cap_flags_ex), UOFF(device_cap_flags_ex), 8},
	/* supported_qpts and the two indirection table limits */
	{KOFF(rss_caps), UOFF(rss_caps), 12},
	{KOFF(max_wq_type_rq), UOFF(max_wq_type_rq), 4},
	{KOFF(raw_packet_caps), UOFF(raw_packet_caps), 4},
	{KOFF(tm_caps), UOFF(tm_caps), 20},
	{KOFF(cq_moderation_caps), UOFF(cq_mod_caps), 4},
	{KOFF(max_dm_size), UOFF(max_dm_size), 8},
	{KOFF(xrc_odp_caps), UOFF(xrc_odp_caps), 4},
};

/* node_guid .. phys_port_cnt have the same order and types both sides. */
#define BASE_KERN_START offsetof(struct ib_uverbs_query_device_resp, node_guid)
#define BASE_KERN_END	offsetof(struct ib_uverbs_query_device_resp, reserved)
#define BASE_USER_START offsetof(struct ibv_device_attr, node_guid)
#define BASE_USER_END                                                          \
	(offsetof(struct ibv_device_attr, phys_port_cnt) +                     \
	 sizeof(((struct ibv_device_attr *)0)->phys_port_cnt))
_Static_assert(BASE_KERN_END - BASE_KERN_START ==
		       BASE_USER_END - BASE_USER_START,
	       "ibv_device_attr no longer mirrors the kernel response");

static void copy_base(struct ibv_device_attr *attr,
		      const struct ib_uverbs_query_device_resp *resp)
{
	uint64_t fw = resp->fw_ver;

	memcpy((uint8_t *)attr + BASE_USER_START,
	       (const uint8_t *)resp + BASE_KERN_START,
	       BASE_KERN_END - BASE_KERN_START);
	snprintf(attr->fw_ver, sizeof(attr->fw_ver), "%u.%u.%03u",
		 (unsigned int)(fw >> 32), (unsigned int)(fw >> 16) & 0xffff,
		 (unsigned int)fw & 0xffff);
}

static void copy_ex(struct ibv_device_attr_ex *attr, size_t attr_size,
		    const struct ib_uverbs_ex_query_device_resp *resp)
{
	const struct ex_field *f;

	for (f = ex_fields; f < ex_fields + sizeof(ex_fields) / sizeof(*f); f++)
		if (resp->response_length >= f->kern_off + f->len &&
		    attr_size >= f->user_off + f->len)
			memcpy((uint8_t *)attr + f->user_off,
			       (const uint8_t *)resp + f->kern_off, f->len);
	if (attr_size >= UOFF(phys_port_cnt_ex) + sizeof(uint32_t))
		attr->phys_port_cnt_ex = resp->base.phys_port_cnt;
}

int ibv_cmd_query_device_any(struct ibv_context *ctx,
			     const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr, size_t attr_size,
			     const struct ibv_udata *udata)
{
	struct ib_uverbs_ex_query_device_resp resp;
	struct ib_uverbs_ex_query_device ex_req = {};
	struct ib_uverbs_query_device req;
	int ret;

	if ((input && input->comp_mask) ||
	    attr_size < sizeof(attr->orig_attr)) {
		errno = EINVAL;
		return EINVAL;
	}
	memset(attr, 0, attr_size);

	if (attr_size > sizeof(attr->orig_attr)) {
		ret = verbs_write_cmd_ex(ctx, IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
					 &ex_req, sizeof(ex_req), &resp,
					 sizeof(resp), udata);
		if (!ret) {
			copy_base(&attr->orig_attr, &resp.base);
			copy_ex(attr, attr_size, &resp);
			return 0;
		}
		/* Only a kernel without the extended command falls back. */
		if (ret != EOPNOTSUPP && ret != ENOSYS)
			return ret;
	}
	ret = verbs_write_cmd(ctx, IB_USER_VERBS_CMD_QUERY_DEVICE, &req,
			      sizeof(req), &resp.base, sizeof(resp.base),
			      attr_size > sizeof(attr->orig_attr) ? NULL
								  : udata);
	if (ret)
		return ret;
	copy_base(&attr->orig_attr, &resp.base);
	return 0;
}
