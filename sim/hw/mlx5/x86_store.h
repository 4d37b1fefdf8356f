/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What a CPU store to a device register wrote: the instruction at the
 * faulting RIP decoded far enough to know its length, the address it
 * stores to and the bytes it stores. Only the plain stores that drivers
 * and libraries use on MMIO (MOV from a register or an immediate, MOVNTI,
 * the SSE/AVX register stores) are known; anything else is left to be
 * single-stepped.
 */
#ifndef RDMA_SIM_X86_STORE_H
#define RDMA_SIM_X86_STORE_H

#include <stdint.h>
#include <ucontext.h>

struct x86_store {
	unsigned int len;   /* instruction bytes */
	unsigned int width; /* bytes stored */
	uintptr_t addr;	    /* effective address of the store */
	uint8_t val[32];
};

/* Decode the store at the interrupted RIP of uc. 0, or -1 if the
 * instruction is not one of the stores above (or not on x86-64). */
int x86_store_decode(const ucontext_t *uc, struct x86_store *st);

#endif
