// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The IPoIB interfaces of InfiniBand ports as the RDMA CM sees them: which
 * port an IP address belongs to (the kernel's rdma_translate_ip finds the
 * netdev holding it, then the port whose GID its hardware address holds).
 */
#include "netdev.h"
#include "sim_shared.h"

#include <errno.h>
#include <string.h>

struct sim_ipoib *sim_ipoib_of(struct sim_shared *sh, unsigned int dev)
{
	uint32_t i;

	for (i = 0; i < sh->net.nipoib; i++)
		if (sh->net.ib[i].dev == dev)
			return &sh->net.ib[i];
	return NULL;
}

int sim_ipoib_find_ip(struct sim_shared *sh, const struct sockaddr *sa,
		      unsigned int *dev)
{
	uint8_t a[16];
	uint32_t i, k;

	if (sim_gid_from_sockaddr(sa, a))
		return -ENODEV;
	for (i = 0; i < sh->net.nipoib; i++)
		for (k = 0; k < sh->net.ib[i].naddr; k++)
			if (!memcmp(sh->net.ib[i].addr[k], a, 16)) {
				*dev = sh->net.ib[i].dev;
				return 0;
			}
	return -ENODEV;
}
