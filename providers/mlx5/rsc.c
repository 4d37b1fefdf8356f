// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The table a CQE is resolved through: user index (cqe_version 1) or QP /
 * SRQ number (version 0) -> the QP or SRQ. Writers lock; the poller reads
 * without a lock, which is safe because a resource is only removed after
 * the kernel destroyed it, so no new CQE can name it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datapath.h"

#define CHUNK_LEN (1u << MLX5_RSC_CHUNK_SHIFT)
#define CHUNK_MASK (CHUNK_LEN - 1)

void mlx5_rsc_table_init(struct mlx5_rsc_table *t)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
}

void mlx5_rsc_table_cleanup(struct mlx5_rsc_table *t)
{
	unsigned int i;

	for (i = 0; i < MLX5_RSC_CHUNKS; i++)
		free(t->chunk[i]);
	pthread_mutex_destroy(&t->lock);
}

static int store_locked(struct mlx5_rsc_table *t, uint32_t key,
			struct mlx5_rsc *rsc)
{
	unsigned int c = key >> MLX5_RSC_CHUNK_SHIFT;

	if (key >> MLX5_RSC_KEY_BITS)
		return EINVAL;
	if (!t->chunk[c]) {
		t->chunk[c] = calloc(CHUNK_LEN, sizeof(*t->chunk[c]));
		if (!t->chunk[c])
			return ENOMEM;
	}
	if (t->chunk[c][key & CHUNK_MASK])
		return EEXIST;
	t->chunk[c][key & CHUNK_MASK] = rsc;
	t->refcnt[c]++;
	rsc->rsn = key;
	return 0;
}

int mlx5_rsc_store(struct mlx5_rsc_table *t, uint32_t key,
		   struct mlx5_rsc *rsc)
{
	int err;

	pthread_mutex_lock(&t->lock);
	err = store_locked(t, key, rsc);
	pthread_mutex_unlock(&t->lock);
	return err;
}

int32_t mlx5_rsc_store_free(struct mlx5_rsc_table *t, struct mlx5_rsc *rsc)
{
	uint32_t c, i;
	int32_t key = -1;

	pthread_mutex_lock(&t->lock);
	for (c = 0; c < MLX5_RSC_CHUNKS && key < 0; c++) {
		if (t->refcnt[c] == CHUNK_LEN)
			continue;
		for (i = 0; i < CHUNK_LEN; i++)
			if (!t->chunk[c] || !t->chunk[c][i])
				break;
		/* 0xffffff means "no user index" to the kernel. */
		if ((c << MLX5_RSC_CHUNK_SHIFT | i) == 0xffffff)
			break;
		if (!store_locked(t, c << MLX5_RSC_CHUNK_SHIFT | i, rsc))
			key = (int32_t)(c << MLX5_RSC_CHUNK_SHIFT | i);
		else
			break;
	}
	pthread_mutex_unlock(&t->lock);
	if (key < 0)
		errno = ENOMEM;
	return key;
}

void mlx5_rsc_clear(struct mlx5_rsc_table *t, uint32_t key)
{
	unsigned int c = (key >> MLX5_RSC_CHUNK_SHIFT) &
			 (MLX5_RSC_CHUNKS - 1);

	pthread_mutex_lock(&t->lock);
	if (t->chunk[c] && t->chunk[c][key & CHUNK_MASK]) {
		t->chunk[c][key & CHUNK_MASK] = NULL;
		if (!--t->refcnt[c]) {
			free(t->chunk[c]);
			t->chunk[c] = NULL;
		}
	}
	pthread_mutex_unlock(&t->lock);
}
