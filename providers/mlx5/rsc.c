// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The table a CQE is resolved through: user index (cqe_version 1) or QP /
 * SRQ number (version 0) -> the QP or SRQ. Writers lock; the poller reads
 * without a lock, which is safe because a resource is only removed after
 * the kernel destroyed it, so no new CQE can name it.
 */
#include <errno.h>
#include <stdlib.h>

#include "datapath.h"

#define CHUNK_LEN (1u << MLX5_RSC_CHUNK_SHIFT)
#define CHUNK_MASK (CHUNK_LEN - 1)

/* Every table's directory until its first store; never written. */
static struct mlx5_rsc_dir no_dir;

void mlx5_rsc_table_init(struct mlx5_rsc_table *t)
{
	t->dir = &no_dir;
	t->nchunks = 0;
	pthread_mutex_init(&t->lock, NULL);
}

/* Chunks still there hold resources never destroyed (a chunk goes when
 * its last entry does), so the walk usually stops at once. */
void mlx5_rsc_table_cleanup(struct mlx5_rsc_table *t)
{
	unsigned int i;

	for (i = 0; t->nchunks && i < MLX5_RSC_CHUNKS; i++) {
		if (t->dir->chunk[i]) {
			free(t->dir->chunk[i]);
			t->nchunks--;
		}
	}
	if (t->dir != &no_dir)
		free(t->dir);
	pthread_mutex_destroy(&t->lock);
}

static int store_locked(struct mlx5_rsc_table *t, uint32_t key,
			struct mlx5_rsc *rsc)
{
	unsigned int c = key >> MLX5_RSC_CHUNK_SHIFT;
	struct mlx5_rsc_dir *d = t->dir;

	if (key >> MLX5_RSC_KEY_BITS)
		return EINVAL;
	if (d == &no_dir) {
		d = calloc(1, sizeof(*d));
		if (!d)
			return ENOMEM;
		t->dir = d;
	}
	if (!d->chunk[c]) {
		d->chunk[c] = calloc(CHUNK_LEN, sizeof(*d->chunk[c]));
		if (!d->chunk[c])
			return ENOMEM;
		t->nchunks++;
	}
	if (d->chunk[c][key & CHUNK_MASK])
		return EEXIST;
	d->chunk[c][key & CHUNK_MASK] = rsc;
	d->refcnt[c]++;
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
		struct mlx5_rsc **chunk = t->dir->chunk[c];

		if (t->dir->refcnt[c] == CHUNK_LEN)
			continue;
		for (i = 0; i < CHUNK_LEN; i++)
			if (!chunk || !chunk[i])
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
	struct mlx5_rsc_dir *d;

	pthread_mutex_lock(&t->lock);
	d = t->dir;
	if (d->chunk[c] && d->chunk[c][key & CHUNK_MASK]) {
		d->chunk[c][key & CHUNK_MASK] = NULL;
		if (!--d->refcnt[c]) {
			free(d->chunk[c]);
			d->chunk[c] = NULL;
			t->nchunks--;
		}
	}
	pthread_mutex_unlock(&t->lock);
}
