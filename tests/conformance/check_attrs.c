// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Attribute checks on DEVICE/QUERY_PORT: attr 0 is PORT_NUM (a u8 constant,
 * inline), attr 1 is RESP (PTR_OUT, always a pointer). Each row changes one
 * attribute of the valid call.
 */
#include <errno.h>
#include <string.h>

#include "conf.h"

#define PORT 0 /* index of PORT_NUM in the built command */
#define RESP 1 /* index of RESP */

static uint8_t nine_bytes[9] = {1};
static uint8_t out_small[8];

static void m_unknown_mandatory(struct raw_ioctl *c)
{
	raw_add(c, 0x0fff, 0, UVERBS_ATTR_F_MANDATORY, 0);
}

static void m_unknown_optional(struct raw_ioctl *c)
{
	raw_add(c, 0x0fff, 0, 0, 0);
}

static void m_driver_ns_mandatory(struct raw_ioctl *c)
{
	raw_add(c, 0x1000, 0, UVERBS_ATTR_F_MANDATORY, 0);
}

static void m_duplicate(struct raw_ioctl *c)
{
	raw_add(c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8, UVERBS_ATTR_F_MANDATORY,
		1);
}

static void m_reserved(struct raw_ioctl *c)
{
	c->attrs[PORT].attr_data.reserved = 1;
}

static void m_flag_unknown(struct raw_ioctl *c)
{
	c->attrs[PORT].flags |= 0x0100;
}

static void m_flag_valid_output(struct raw_ioctl *c)
{
	c->attrs[PORT].flags |= UVERBS_ATTR_F_VALID_OUTPUT;
}

static void m_missing_resp(struct raw_ioctl *c)
{
	c->hdr.num_attrs = 1;
}

static void m_port_len0(struct raw_ioctl *c)
{
	c->attrs[PORT].len = 0;
}

static void m_port_len1(struct raw_ioctl *c)
{
	c->attrs[PORT].len = 1;
}

static void m_port_2(struct raw_ioctl *c)
{
	c->attrs[PORT].data = 2;
}

static void m_port_0(struct raw_ioctl *c)
{
	c->attrs[PORT].data = 0;
}

/* 8 bytes is the longest payload the kernel takes inline in data. */
static void m_port_len8(struct raw_ioctl *c)
{
	c->attrs[PORT].len = 8;
}

/* 9 bytes is one past the inline limit: data must now be a pointer. */
static void m_port_len9_ptr(struct raw_ioctl *c)
{
	c->attrs[PORT].len = 9;
	c->attrs[PORT].data = (uintptr_t)nine_bytes;
}

static void m_port_len9_inline(struct raw_ioctl *c)
{
	c->attrs[PORT].len = 9;
}

static void m_resp_legacy_40(struct raw_ioctl *c)
{
	c->attrs[RESP].len = sizeof(struct ib_uverbs_query_port_resp);
}

static void m_resp_len8_ptr(struct raw_ioctl *c)
{
	c->attrs[RESP].len = sizeof(out_small);
	c->attrs[RESP].data = (uintptr_t)out_small;
}

static void m_resp_bigger(struct raw_ioctl *c)
{
	c->attrs[RESP].len += 16;
}

static void m_resp_bad_ptr(struct raw_ioctl *c)
{
	c->attrs[RESP].data = 8;
}

/* These hand the kernel a bad user pointer, so each runs in a child. */
static const struct raw_mutation bad_pointer_rows[] = {
	{"attr.port_num.len9_inline_value", m_port_len9_inline, EINVAL},
	{"attr.resp.bad_pointer", m_resp_bad_ptr, EFAULT},
};

static const struct raw_mutation attr_rows[] = {
	{"attr.unknown_id.mandatory", m_unknown_mandatory, EPROTONOSUPPORT},
	{"attr.unknown_id.optional", m_unknown_optional, 0},
	{"attr.driver_ns_0x1000.mandatory", m_driver_ns_mandatory,
	 EPROTONOSUPPORT},
	{"attr.duplicate_port_num", m_duplicate, EINVAL},
	{"attr.reserved_nonzero", m_reserved, EINVAL},
	{"attr.flags.unknown_bit_0x100", m_flag_unknown, 0},
	{"attr.flags.valid_output_on_input", m_flag_valid_output, 0},
	{"attr.missing_mandatory_resp", m_missing_resp, EINVAL},
	{"attr.port_num.len0", m_port_len0, EINVAL},
	{"attr.port_num.len1_inline", m_port_len1, EINVAL},
	{"attr.port_num.value2_no_such_port", m_port_2, EINVAL},
	{"attr.port_num.value0", m_port_0, EINVAL},
	{"attr.port_num.len8_inline", m_port_len8, 0},
	{"attr.port_num.len9_pointer", m_port_len9_ptr, EINVAL},
	{"attr.resp.len40_legacy_size", m_resp_legacy_40, EINVAL},
	{"attr.resp.len8_pointer", m_resp_len8_ptr, EINVAL},
	{"attr.resp.len_plus_16", m_resp_bigger, 0},
};

/* RESP with 16 spare bytes: the kernel zero-fills a longer buffer. */
struct resp_room {
	struct ib_uverbs_query_port_resp_ex resp;
	uint8_t tail[16];
};

static void check_resp_tail(void)
{
	struct resp_room room;
	struct raw_ioctl cmd;
	unsigned int i, nonzero = 0;

	memset(&room, 0xff, sizeof(room));
	raw_query_port_cmd(&cmd, &room, sizeof(room));
	conf_expect("attr.resp.len_plus_16_ok", 0, raw_exec(conf_fd, &cmd));
	for (i = 0; i < sizeof(room.tail); i++)
		nonzero += room.tail[i] != 0;
	conf_expect_u("attr.resp.len_plus_16_tail_nonzero_bytes", 0, nonzero);
}

void check_attrs(void)
{
	struct resp_room room;
	struct ib_uverbs_query_port_resp_ex resp;
	struct raw_ioctl cmd;
	unsigned int i;
	int err;

	conf_print_header("ioctl attributes (DEVICE/QUERY_PORT)");
	for (i = 0; i < sizeof(attr_rows) / sizeof(attr_rows[0]); i++) {
		raw_query_port_cmd(&cmd, &room, sizeof(room.resp));
		attr_rows[i].mutate(&cmd);
		conf_expect(attr_rows[i].name, attr_rows[i].expected,
			    raw_exec(conf_fd, &cmd));
	}
	for (i = 0; i < sizeof(bad_pointer_rows) / sizeof(*bad_pointer_rows);
	     i++) {
		raw_query_port_cmd(&cmd, &room, sizeof(room.resp));
		bad_pointer_rows[i].mutate(&cmd);
		conf_expect(bad_pointer_rows[i].name,
			    bad_pointer_rows[i].expected,
			    raw_exec_isolated(conf_fd, &cmd));
	}

	/* The kernel marks a written PTR_OUT with VALID_OUTPUT. */
	memset(&resp, 0, sizeof(resp));
	raw_query_port_cmd(&cmd, &resp, sizeof(resp));
	err = raw_exec(conf_fd, &cmd);
	conf_expect("attr.resp.query_port_ok", 0, err);
	conf_expect_u("attr.resp.valid_output_flag_set", 1,
		      !!(cmd.attrs[RESP].flags & UVERBS_ATTR_F_VALID_OUTPUT));
	conf_expect_u("attr.resp.port_state_active", CONF_PORT_ACTIVE,
		      resp.legacy_resp.state);
	conf_expect_u("attr.resp.link_layer_ethernet", CONF_LINK_LAYER_ETHERNET,
		      resp.legacy_resp.link_layer);
	check_resp_tail();
}
