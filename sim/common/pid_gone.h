/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef RDMA_SIM_PID_GONE_H
#define RDMA_SIM_PID_GONE_H

#include <sys/types.h>

/* 1 if process pid has ended (gone or a zombie), 0 while it runs. */
int sim_pid_gone(pid_t pid);

#endif
