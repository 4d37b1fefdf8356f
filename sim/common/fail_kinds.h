/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Names accepted as KIND by --fail KIND:N:ERRNO (see sim/README.md). */
#ifndef RDMA_SIM_FAIL_KINDS_H
#define RDMA_SIM_FAIL_KINDS_H

extern const char *const sim_fail_kinds[];

/* 1 if name is a known fault-injection kind. */
int sim_fail_kind_known(const char *name);

#endif
