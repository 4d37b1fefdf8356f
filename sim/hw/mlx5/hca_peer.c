// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The HCA's DMA into a host process it does not run in. The HCA of a
 * simulated process runs inside that process; a peer's memory is
 * reached from outside, here, and nowhere else (landings today).
 */
#include "hca.h"

#include <errno.h>
#include <sys/uio.h>

static int denied; /* this process may not write into others */

int hca_peer_write(int32_t pid, const struct iovec *loc, int nl,
		   const struct iovec *rem, int nr, size_t want)
{
	if (denied)
		return 0;
	if (process_vm_writev(pid, loc, (unsigned long)nl, rem,
			      (unsigned long)nr, 0) == (ssize_t)want)
		return 1;
	if (errno == EPERM) /* e.g. yama: never again, the ring it is */
		denied = 1;
	return 0;
}

int hca_peer_denied(void)
{
	return denied;
}
