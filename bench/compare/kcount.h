/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Kernel calls made by the libraries, as a kernel would count them: the
 * benchmark executable defines the libc entry points (exported, so
 * libibverbs, its providers and libnl bind to them first) and counts
 * each before passing it on with RTLD_NEXT, to rdma-sim or libc. The
 * simulator's own system calls never pass through here.
 */
#ifndef RDMA_BENCH_KCOUNT_H
#define RDMA_BENCH_KCOUNT_H

enum kc_kind {
	KC_OPEN,  /* open, openat, fopen, opendir's openat */
	KC_READ,  /* read, getdents64 under readdir */
	KC_CLOSE, /* close, fclose, closedir */
	KC_STAT,  /* stat, fstat, fstatat, lstat, statx, opendir's fstat */
	KC_SOCK,  /* socket, bind, getsockname, setsockopt, getsockopt */
	KC_SEND,  /* sendmsg, sendto, send */
	KC_RECV,  /* recvmsg, recvmmsg, recvfrom, recv */
	KC_IOCTL,
	KC_WRITE,
	KC_MMAP, /* mmap, munmap */
	KC_POLL, /* poll, select */
	KC_NUM
};

extern const char *const kc_names[KC_NUM];
void kc_start(void);
void kc_stop(void);
unsigned long kc_get(enum kc_kind kind);
unsigned long kc_total(void);

#endif
