/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * --fault rules: what rdma-sim's wire, HCA and kernel do wrong on purpose.
 * The launcher parses them (sim_fault_parse) into the world's shared
 * configuration; every process's engine applies them (hw/mlx5/
 * hca_fault.c). Decisions come from --seed and what the receiving QP saw,
 * never from the clock, so a seed replays the same faults.
 */
#ifndef RDMA_SIM_FAULT_H
#define RDMA_SIM_FAULT_H

#include <stddef.h>
#include <stdint.h>

#define SIM_MAX_FAULTS 16

enum sim_fault_kind {
	SIM_FAULT_DROP,	     /* the packet is lost */
	SIM_FAULT_DUP,	     /* it arrives twice */
	SIM_FAULT_REORDER,   /* it arrives after the next one */
	SIM_FAULT_DELAY,     /* it arrives ms later */
	SIM_FAULT_CORRUPT,   /* ICRC error: the receiver drops it */
	SIM_FAULT_LINK_FLAP, /* the port goes down at ms, up for_ms later */
	SIM_FAULT_EVENT,     /* an async event at ms */
	SIM_FAULT_CQE_ERR,   /* the Nth send WQE completes in error */
	SIM_FAULT_KINDS
};

/* Rules that act on packets as they arrive. */
#define SIM_FAULT_ON_WIRE(k) ((k) <= SIM_FAULT_CORRUPT)

struct sim_fault_rule {
	uint8_t kind;
	uint8_t any_dev; /* no dev=: every device */
	uint16_t dev;
	uint32_t qpn;	 /* 0: every QP */
	uint32_t rate;	 /* per million packets (rate=), 0 with packet= */
	uint64_t packet; /* packet=: the Nth packet of each matching QP */
	uint64_t upto;	 /* upto=: only among a QP's first N packets (0: all) */
	uint32_t ms;	 /* delay: how long; link-flap, event: when */
	uint32_t for_ms; /* link-flap: how long the port is down */
	uint32_t event;	 /* event: ibv_event_type */
	uint32_t status; /* cqe-error: the mlx5 CQE syndrome */
	uint32_t wqe;	 /* cqe-error: which send WQE (1-based) */
};

/* Parse "KIND:KEY=VALUE,..." into r. 0, or -1 with a message in err. */
int sim_fault_parse(const char *arg, struct sim_fault_rule *r, char *err,
		    size_t errlen);
/* Is dev's port down ms milliseconds after the world was made? */
int sim_fault_link_down(const struct sim_fault_rule *r, unsigned int n,
			uint64_t ms, unsigned int dev);
/* Names for --help and traces ("drop", "QP_FATAL", "REM_ACCESS_ERR"). */
const char *sim_fault_kind_name(unsigned int kind);
const char *sim_fault_event_name(uint32_t event);
const char *sim_fault_status_name(uint32_t syndrome);
/* The ib_wc_status of the same name (rxe's CQEs carry it), 0 if none. */
uint32_t sim_fault_wc_status(uint32_t syndrome);

#endif
