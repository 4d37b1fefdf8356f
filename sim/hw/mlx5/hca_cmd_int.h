/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The command dispatcher's view of its topics, and the HCA's tables
 * (hca_cmd.c); inside hw/mlx5 only. */
#ifndef RDMA_SIM_HCA_CMD_INT_H
#define RDMA_SIM_HCA_CMD_INT_H

#include <stddef.h>
#include <stdint.h>

/* One command: its handler returns the status (HCA_STAT_*). */
struct hca_cmd_def {
	uint16_t opcode;
	const char *name;
	uint8_t (*fn)(const void *in, void *out);
	size_t in_size, out_size;
};

struct hca_cmd_topic {
	const struct hca_cmd_def *defs;
	size_t n;
	/* in a fork child: free the copies of the parent's objects and
	 * empty the tables (the child's HCA has made nothing yet) */
	void (*forked)(void);
};

#define HCA_CMD(op, handler, in_t, out_t)                                      \
	{                                                                      \
		.opcode = HCA_CMD_##op, .name = #op, .fn = (handler),          \
		.in_size = sizeof(in_t), .out_size = sizeof(out_t)             \
	}
#define HCA_CMD_TOPIC(t, defs, fork_fn)                                        \
	const struct hca_cmd_topic hca_cmd_##t##_topic = {                     \
		(defs), sizeof(defs) / sizeof((defs)[0]), (fork_fn)}

extern const struct hca_cmd_topic hca_cmd_eq_topic, hca_cmd_cq_topic,
	hca_cmd_qp_topic, hca_cmd_srq_topic, hca_cmd_mkey_topic;

/* A number -> object table of the HCA. */
struct hca_table_ent {
	uint32_t num;
	void *obj;
};
struct hca_table {
	uint32_t n, cap;
	struct hca_table_ent *e;
};
int hca_table_add(struct hca_table *t, uint32_t num, void *obj);
void *hca_table_find(const struct hca_table *t, uint32_t num);
/* Remove num's entry; its object, or NULL. */
void *hca_table_take(struct hca_table *t, uint32_t num);
/* Free every object of t with free_fn (NULL: none) and empty t. */
void hca_table_clear(struct hca_table *t, void (*free_fn)(void *obj));
/* Unlink obj from the engine list *head (if it is there). */
#define HCA_LIST_UNLINK(head, obj)                                             \
	do {                                                                   \
		__typeof__(obj) *p_ = (head);                                  \
		while (*p_ && *p_ != (obj))                                    \
			p_ = &(*p_)->next;                                     \
		if (*p_)                                                       \
			*p_ = (obj)->next;                                     \
	} while (0)

#endif
