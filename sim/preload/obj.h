/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * uverbs objects of the simulated kernel. Each object kind is declared once,
 * in its own file, as a struct sim_obj_type (name, size, destroy function,
 * place in the teardown order, when it is hidden, its ioctl methods and
 * write() commands) and registered with SIM_OBJ_TYPE(); the framework finds
 * every type through that registry, so adding an object touches one file
 * (and the build list).
 */
#ifndef RDMA_SIM_OBJ_H
#define RDMA_SIM_OBJ_H

#include <stddef.h>
#include <stdint.h>

struct sim_uvfile;
struct sim_method;
struct sim_wcmd;
struct sim_obj;

/*
 * Teardown at the last close of a uverbs file, lowest first: an object
 * never outlives one it holds (a QP holds its CQs, an MR its PD).
 */
enum sim_destroy_order {
	SIM_ORDER_USERS,  /* QP, AH, MR: hold PDs, CQs, SRQs, DMs */
	SIM_ORDER_SRQ,	  /* SRQ: holds a PD (and a CQ for XRC) */
	SIM_ORDER_QUEUES, /* CQ, DM, UAR: hold a channel or nothing */
	SIM_ORDER_ROOTS,  /* PD, completion channel */
	SIM_ORDER_COUNT,
};

struct sim_obj_type {
	const char *name; /* uAPI object name without UVERBS_OBJECT_ */
	uint16_t uapi_id; /* UVERBS_OBJECT_* / driver object id */
	size_t size;	  /* bytes of the struct embedding sim_obj; 0: none */
	uint8_t order;	  /* enum sim_destroy_order */
	/* Release what the object holds (use counts, driver state, entries).
	 * Runs once its own use count is 0; NULL: nothing to release. */
	void (*destroy)(struct sim_uvfile *uv, struct sim_obj *o);
	/* 1: the object does not exist for this driver/configuration, its
	 * methods answer EPROTONOSUPPORT (the kernel's uapi "needs fn"). */
	int (*hidden)(void);
	const struct sim_method *methods;
	unsigned int nmethods;
	const struct sim_wcmd *wcmds; /* write() commands of this object */
	unsigned int nwcmds;
};

/* The common head of every object; kinds embed it as their first member. */
struct sim_obj {
	struct sim_obj *next;
	const struct sim_obj_type *type;
	uint32_t handle;
	uint32_t usecnt; /* objects that depend on this one */
	void *drv; /* the driver's private state; the core never uses it */
};

#define sim_container_of(p, T, m) ((T *)((char *)(p)-offsetof(T, m)))

/* Put a type in the registry (a linker section walked by the core). */
#define SIM_OBJ_TYPE(t)                                                        \
	static const struct sim_obj_type *const sim_reg_##t                    \
		__attribute__((used, section("sim_obj_types"))) = &(t)

extern const struct sim_obj_type *const __start_sim_obj_types[];
extern const struct sim_obj_type *const __stop_sim_obj_types[];
#define sim_for_each_type(pp)                                                  \
	for ((pp) = __start_sim_obj_types; (pp) < __stop_sim_obj_types; (pp)++)

/* The registered type with this uAPI object id, or NULL. */
const struct sim_obj_type *sim_type_by_id(uint16_t uapi_id);

/* ---- the object kinds (declared in obj_<kind>.c) ---- */
extern const struct sim_obj_type sim_type_pd, sim_type_mr, sim_type_dm;

struct sim_pd {
	struct sim_obj obj;
	uint32_t pdn;
};

struct sim_entry;
struct sim_dm {
	struct sim_obj obj;
	uint64_t length; /* as requested */
	uint32_t dm_type;
	int alloc; /* MEMIC slot, -1 for SW ICM */
	uint64_t start_offset;
	uint16_t page_index;
	struct sim_entry *base;
};

/* What the HCA needs to check an access against a registration. */
enum sim_mr_backing { SIM_MR_USER, SIM_MR_DM, SIM_MR_DMABUF };

struct sim_mr {
	struct sim_obj obj;
	struct sim_pd *pd;
	struct sim_dm *dm; /* SIM_MR_DM */
	uint8_t backing;   /* enum sim_mr_backing */
	uint32_t lkey, rkey;
	uint64_t addr;	 /* SIM_MR_USER: process address of byte 0 */
	uint64_t offset; /* SIM_MR_DM/DMABUF: offset into the DM / buffer */
	uint64_t length;
	uint64_t iova; /* address the MR is accessed at */
	uint32_t access;
	int dmabuf_slot; /* SIM_MR_DMABUF: sim_shared exports[] slot */
	uint32_t dmabuf_gen;
};

static inline struct sim_pd *sim_pd(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_pd, obj) : NULL;
}

static inline struct sim_mr *sim_mr(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_mr, obj) : NULL;
}

static inline struct sim_dm *sim_dm(struct sim_obj *o)
{
	return o ? sim_container_of(o, struct sim_dm, obj) : NULL;
}

/* New object of type t with the lowest free handle; NULL on ENOMEM. */
struct sim_obj *sim_obj_new(struct sim_uvfile *uv,
			    const struct sim_obj_type *t);
struct sim_obj *sim_obj_find(struct sim_uvfile *uv, uint32_t handle);
/* The object behind handle if it has type t: else NULL, *err = -ENOENT
 * (no such handle) or -EINVAL (another type), as uverbs answers. */
struct sim_obj *sim_obj_get(struct sim_uvfile *uv, uint32_t handle,
			    const struct sim_obj_type *t, int *err);
/* Destroy one object: -EBUSY while others use it, else 0. */
int sim_obj_destroy(struct sim_uvfile *uv, struct sim_obj *o);

#endif
