/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The world's resource tracking, as the kernel's restrack: every user
 * context, PD, CQ, SRQ, QP, MR (and AH and MW, for their PD's count) of
 * every process has a row in struct sim_shared, which RDMA netlink lists
 * (`rdma resource`). Rows of a process that died are dropped when read.
 */
#ifndef RDMA_SIM_RESTRACK_H
#define RDMA_SIM_RESTRACK_H

#include "sim.h"

/* Publish what changed in uv: objects created since the last sync get a
 * row, touched ones refresh theirs. Runs after every successful command.
 * Needs sim_lock. */
void sim_res_sync(struct sim_uvfile *uv);
/* A field of o's row changed (QP state, CQ size, MR keys): its row is
 * rewritten at the next sync. Needs sim_lock. */
void sim_res_touch(struct sim_obj *o);
/* Drop the row of an object being destroyed, or of uv's context. */
void sim_res_forget(struct sim_uvfile *uv, struct sim_obj *o);
void sim_res_forget_ctx(struct sim_uvfile *uv);
/* A new program image in this pid holds no objects (exec). */
void sim_res_forget_pid(pid_t pid);

/* Ids the kernel's own objects take on each port: the MAD layer's PD and
 * CQ have id port-1, user ids of those kinds start after them. */
uint32_t sim_res_first_id(unsigned int kind);

/* Call fn on each live row of dev of kind, in id order, from the row
 * after *pos (-1 to start); stops when fn returns non-zero and leaves *pos
 * at that row. Takes the shared lock. 1 if stopped, 0 at the end. */
int sim_res_walk(unsigned int dev, unsigned int kind, int64_t *pos,
		 int (*fn)(const struct sim_res *r, void *arg), void *arg);
/* Rows of dev of kind; with ref, only those whose field at offset off
 * (a uint32_t of struct sim_res) equals ref. */
uint64_t sim_res_count(unsigned int dev, unsigned int kind, size_t off,
		       uint32_t ref);
#define SIM_RES_ANY ((size_t)-1)

/* A reference a row of kind holds: the id in its uint32_t at offset off
 * of struct sim_res (a QP's pdn, an MR's pdn, ...). */
struct sim_res_ref {
	uint8_t kind;
	size_t off;
};
/* Add to users[i] the rows of dev that name ids[i] through one of the
 * nrefs refs, for n ids in ascending order: the kernel's usecnt of each.
 * One scan of the table for them all. Takes the shared lock. */
void sim_res_users(unsigned int dev, const struct sim_res_ref *refs,
		   unsigned int nrefs, const uint32_t *ids, unsigned int n,
		   uint64_t *users);

#endif
