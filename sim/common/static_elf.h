/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Statically linked programs (static_elf.c). */
#ifndef RDMA_SIM_STATIC_ELF_H
#define RDMA_SIM_STATIC_ELF_H

#include <stddef.h>

/* Is the file at path an x86-64 ELF program without PT_INTERP? 1 or 0. */
int sim_static_elf(const char *path);
/* Is prog (looked up in $PATH like execvp) static? 1 and its path, or 0. */
int sim_static_program(const char *prog, char *path, size_t len);

#endif
