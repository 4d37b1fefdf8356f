/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
#ifndef MLX5_BENCH_SYSCALL_COUNT_H
#define MLX5_BENCH_SYSCALL_COUNT_H

enum sc_kind { SC_IOCTL, SC_WRITE, SC_MMAP, SC_MUNMAP, SC_OPEN, SC_CLOSE,
	       SC_NUM };

void sc_reset(void);
unsigned long sc_get(enum sc_kind kind);
unsigned long sc_total(void);

#endif
