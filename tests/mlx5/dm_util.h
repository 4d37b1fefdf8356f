/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Shared pieces of the mlx5 DM tests that run under rdma-sim: opening the
 * first device, counting the process's fds and mappings (leak checks), and
 * byte patterns.
 */
#ifndef MLX5_DM_TEST_UTIL_H
#define MLX5_DM_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "fds.h"

struct dm_env {
	struct ibv_device **list;
	int num_devices;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint64_t max_dm_size;
};

/* Open device @index with a PD and its max_dm_size. 0 or an errno. */
int dm_env_open(struct dm_env *env, int index);
/*
 * Under rdma-sim only: dm_env_open of mlx5_0, and the process's fabric
 * socket and the context's first BF UAR made now (both stay for good), so
 * a test counting fds and mappings sees only its own. 0, or -1 after
 * printing why.
 */
int dm_env_open_sim(struct dm_env *env);
void dm_env_close(struct dm_env *env);

/* Only MAP_SHARED mappings (DM, UAR, device pages; never libc's heap). */
int count_shared_maps(void);

/* /proc/self/maps as one malloc'ed string (NULL on error). */
char *read_maps(void);
/* Print the lines of /proc/self/maps that are not in @before. */
void print_new_maps(const char *before);

/* The process's fds and mappings at one point, to compare with later. */
struct leak_mark {
	int fds;
	int maps;
	char *maps_text;
};

void leak_mark_take(struct leak_mark *m);
/*
 * Count again into @fds and @maps; when the mappings differ from @m,
 * print the new ones. Frees @m's text.
 */
void leak_mark_recount(struct leak_mark *m, int *fds, int *maps);

void fill_pattern(uint8_t *buf, size_t len, unsigned int seed);

/* True if this process has both CAP_SYS_RAWIO and CAP_NET_RAW. */
int have_raw_caps(void);

/* A DM of @len bytes on @ctx, or NULL (errno set). */
struct ibv_dm *alloc_dm(struct ibv_context *ctx, size_t len,
			uint32_t log_align);

/* munmap() an mlx5dv_dm_map_op_addr() mapping of a @dm_len-byte DM. */
int unmap_op_addr(void *op, size_t dm_len);

#endif /* MLX5_DM_TEST_UTIL_H */
