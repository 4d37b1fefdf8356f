// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware's command dispatcher, its object tables and its event
 * queue. Each command is one row of a topic's table (hca_cmd_cq.c,
 * hca_cmd_qp.c, hca_cmd_srq.c, hca_cmd_mkey.c): opcode, name, handler and
 * the exact input size; the dispatcher checks the sizes, runs the
 * handler and maps its status to the errno mlx5_core would give.
 *
 * The tables map numbers to what the HCA made for them. A fork child's
 * HCA has made nothing: the engine's fork handler empties every table
 * and frees the copies it inherited (hca_cmd_forked), so a destroy
 * command of the child for a parent's number finds none (BAD_RES) and
 * never touches what the parent's objects name (fabric names, rings).
 */
#include "hca.h"
#include "hca_cmd.h"
#include "hca_cmd_int.h"

#include <errno.h>
#include <stdlib.h>

static const struct hca_cmd_topic *const topics[] = {
	&hca_cmd_eq_topic,  &hca_cmd_cq_topic,	 &hca_cmd_qp_topic,
	&hca_cmd_srq_topic, &hca_cmd_mkey_topic,
};

/* mlx5_core's cmd_status_to_err, and the names --trace prints */
#define STAT(s, e)                                                             \
	{                                                                      \
		HCA_STAT_##s, e, #s                                            \
	}
static const struct {
	uint8_t status;
	int err;
	const char *name;
} status_errs[] = {
	STAT(OK, 0),
	STAT(INT_ERR, EIO),
	STAT(BAD_OP_ERR, EINVAL),
	STAT(BAD_PARAM_ERR, EINVAL),
	STAT(BAD_SYS_STATE_ERR, EIO),
	STAT(BAD_RES_ERR, EINVAL),
	STAT(RES_BUSY, EBUSY),
	STAT(LIM_ERR, ENOMEM),
	STAT(BAD_RES_STATE_ERR, EINVAL),
	STAT(NO_RES_ERR, EAGAIN),
	STAT(BAD_QP_STATE_ERR, EINVAL),
	STAT(BAD_SIZE_OUTS_CQES_ERR, EINVAL),
	STAT(BAD_INP_LEN_ERR, EIO),
	STAT(BAD_OUTP_LEN_ERR, EIO),
};

static const struct hca_cmd_def *find_cmd(uint16_t opcode)
{
	size_t t, i;

	for (t = 0; t < sizeof(topics) / sizeof(topics[0]); t++)
		for (i = 0; i < topics[t]->n; i++)
			if (topics[t]->defs[i].opcode == opcode)
				return &topics[t]->defs[i];
	return NULL;
}

const char *hca_cmd_name(uint16_t opcode)
{
	const struct hca_cmd_def *d = find_cmd(opcode);

	return d ? d->name : NULL;
}

static size_t status_row(uint8_t status)
{
	size_t i;

	for (i = 1; i < sizeof(status_errs) / sizeof(status_errs[0]); i++)
		if (status_errs[i].status == status)
			return i;
	return 1; /* an unknown status: the firmware's internal error */
}

int hca_cmd_exec(const void *in, size_t in_len, void *out, size_t out_len)
{
	const struct hca_cmd_in *h = in;
	struct hca_cmd_out *o = out;
	const struct hca_cmd_def *d;
	uint8_t status;
	size_t i;

	hca_engine_fork_hook();
	if (out_len < sizeof(*o))
		return -EIO;
	hca_land_settle(); /* no offer outlives what a command changes */
	o->syndrome = 0;
	d = in_len >= sizeof(*h) ? find_cmd(h->opcode) : NULL;
	if (!d)
		status = HCA_STAT_BAD_OP_ERR;
	else if (in_len != d->in_size)
		status = HCA_STAT_BAD_INP_LEN_ERR;
	else if (out_len < d->out_size)
		status = HCA_STAT_BAD_OUTP_LEN_ERR;
	else
		status = d->fn(in, out);
	o->status = status;
	if (status && !o->syndrome)
		o->syndrome = d ? d->opcode : 0;
	i = status ? status_row(status) : 0;
	if (sim_tracing())
		sim_trace("hca cmd %s -> %s syndrome %#x", d ? d->name : "?",
			  status_errs[i].name, o->syndrome);
	return -status_errs[i].err;
}

/* ---- tables ---- */
int hca_table_add(struct hca_table *t, uint32_t num, void *obj)
{
	struct hca_table_ent *e;

	if (t->n == t->cap) {
		e = realloc(t->e, (t->cap ? 2 * t->cap : 16) * sizeof(*e));
		if (!e)
			return -ENOMEM;
		t->e = e;
		t->cap = t->cap ? 2 * t->cap : 16;
	}
	t->e[t->n].num = num;
	t->e[t->n].obj = obj;
	t->n++;
	return 0;
}

void *hca_table_find(const struct hca_table *t, uint32_t num)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].num == num)
			return t->e[i].obj;
	return NULL;
}

void *hca_table_take(struct hca_table *t, uint32_t num)
{
	uint32_t i;
	void *obj;

	for (i = 0; i < t->n; i++)
		if (t->e[i].num == num) {
			obj = t->e[i].obj;
			t->e[i] = t->e[--t->n];
			return obj;
		}
	return NULL;
}

void hca_table_clear(struct hca_table *t, void (*free_fn)(void *obj))
{
	uint32_t i;

	for (i = 0; free_fn && i < t->n; i++)
		free_fn(t->e[i].obj);
	t->n = 0;
}

void hca_cmd_forked(void)
{
	size_t t;

	for (t = 0; t < sizeof(topics) / sizeof(topics[0]); t++)
		if (topics[t]->forked)
			topics[t]->forked();
}

/* ---- event queue ---- */
static void (*eq_handler)(const struct hca_eqe *eqe);

void hca_eq_post_eqe(const struct hca_eqe *e)
{
	if (sim_tracing())
		sim_trace("hca eqe type %#x sub %#x dev %u num %#x", e->type,
			  e->sub_type, e->dev, e->num);
	if (eq_handler)
		eq_handler(e);
}

void hca_eq_post(uint8_t type, uint8_t sub_type, unsigned int dev, uint32_t num)
{
	const struct hca_eqe e = {
		.type = type,
		.sub_type = sub_type,
		.dev = (uint16_t)dev,
		.num = num,
	};

	hca_eq_post_eqe(&e);
}

static uint8_t create_eq(const void *in, void *out)
{
	const struct hca_create_eq_in *c = in;

	(void)out;
	if (!c->handler)
		return HCA_STAT_BAD_PARAM_ERR;
	eq_handler = c->handler;
	return HCA_STAT_OK;
}

static const struct hca_cmd_def eq_defs[] = {
	HCA_CMD(CREATE_EQ, create_eq, struct hca_create_eq_in,
		struct hca_cmd_out),
};
HCA_CMD_TOPIC(eq, eq_defs, NULL);
