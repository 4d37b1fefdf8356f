// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device page files: the bytes behind an mmap entry that is not MEMIC (a
 * UAR page), shared by every CPU mapping of the entry and by the importers
 * of its dma-bufs, in any process. <dir>/pages-<pid>.<id> is made by the
 * process that owns the entry and removed when the entry goes (object
 * destroy or the context's end): a removed file is a revoked export, and
 * mappings made before keep a private, unlinked inode, never someone
 * else's pages. Opened through fd_private.c: a full descriptor table of
 * the program's must not fail them.
 */
#include "sim.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static uint32_t last_id;

void sim_page_file_path(char *buf, size_t len, int32_t pid, uint32_t id)
{
	snprintf(buf, len, "%s/pages-%d.%u", sim.dir, pid, id);
}

int64_t sim_page_file_new(uint32_t npages)
{
	char path[SIM_PATH_LEN + 48];
	uint32_t id = ++last_id;
	int fd, err = 0;

	sim_page_file_path(path, sizeof(path), getpid(), id);
	fd = sim_open_private(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
			      0600);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)npages * (off_t)sim.sh->cfg.page_size)) {
		err = -errno;
		unlink(path);
	}
	sim_close_private(fd);
	return err ? (int64_t)err : (int64_t)id;
}

void sim_page_file_remove(uint32_t id)
{
	char path[SIM_PATH_LEN + 48];

	sim_page_file_path(path, sizeof(path), getpid(), id);
	unlink(path);
}

void *sim_page_file_map(int32_t pid, uint32_t id, void *addr, size_t len,
			int prot, int flags)
{
	char path[SIM_PATH_LEN + 48];
	void *p;
	int fd, err;

	sim_page_file_path(path, sizeof(path), pid, id);
	fd = sim_open_private(path, O_RDWR | O_CLOEXEC, 0);
	if (fd < 0)
		return MAP_FAILED;
	p = sys.mmap(addr, len, prot, (flags & ~MAP_TYPE) | MAP_SHARED, fd, 0);
	err = errno;
	sim_close_private(fd);
	errno = err;
	return p;
}
