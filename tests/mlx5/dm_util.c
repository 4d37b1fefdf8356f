// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dm_util.h"

int dm_env_open(struct dm_env *env, int index)
{
	struct ibv_device_attr_ex attr;
	int err;

	memset(env, 0, sizeof(*env));
	env->list = ibv_get_device_list(&env->num_devices);
	if (!env->list)
		return errno;
	if (index >= env->num_devices) {
		err = ENODEV;
		goto err_list;
	}
	env->ctx = ibv_open_device(env->list[index]);
	if (!env->ctx) {
		err = errno;
		goto err_list;
	}
	memset(&attr, 0, sizeof(attr));
	err = ibv_query_device_ex(env->ctx, NULL, &attr);
	if (err)
		goto err_ctx;
	env->max_dm_size = attr.max_dm_size;
	env->pd = ibv_alloc_pd(env->ctx);
	if (!env->pd) {
		err = errno;
		goto err_ctx;
	}
	return 0;

err_ctx:
	ibv_close_device(env->ctx);
err_list:
	ibv_free_device_list(env->list);
	memset(env, 0, sizeof(*env));
	return err;
}

void dm_env_close(struct dm_env *env)
{
	if (env->pd)
		ibv_dealloc_pd(env->pd);
	if (env->ctx)
		ibv_close_device(env->ctx);
	if (env->list)
		ibv_free_device_list(env->list);
	memset(env, 0, sizeof(*env));
}

char *read_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int c;

	if (!f)
		return NULL;
	mem = open_memstream(&buf, &len);
	if (mem) {
		while ((c = fgetc(f)) != EOF)
			fputc(c, mem);
		fclose(mem);
	}
	fclose(f);
	return buf;
}

void print_new_maps(const char *before)
{
	char *now = read_maps(), *line, *save = NULL;

	if (!now || !before)
		return;
	for (line = strtok_r(now, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!strstr(before, line))
			fprintf(stderr, "  new mapping: %s\n", line);
	free(now);
}

void leak_mark_take(struct leak_mark *m)
{
	m->fds = count_fds();
	m->maps = count_maps();
	m->maps_text = read_maps();
}

void leak_mark_recount(struct leak_mark *m, int *fds, int *maps)
{
	*fds = count_fds();
	*maps = count_maps();
	if (*maps != m->maps)
		print_new_maps(m->maps_text);
	free(m->maps_text);
	m->maps_text = NULL;
}

int count_shared_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512], perms[8];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %7s", perms) == 1 && perms[3] == 's')
			n++;
	fclose(f);
	return n;
}

void fill_pattern(uint8_t *buf, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 29 + seed * 101 + 7);
}

int have_raw_caps(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	unsigned long long eff = 0;
	char line[256];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	/* CAP_NET_RAW is 13, CAP_SYS_RAWIO is 17. */
	return (eff & (1ULL << 13)) && (eff & (1ULL << 17));
}

struct ibv_dm *alloc_dm(struct ibv_context *ctx, size_t len,
			uint32_t log_align)
{
	struct ibv_alloc_dm_attr attr = { .length = len,
					  .log_align_req = log_align };

	return ibv_alloc_dm(ctx, &attr);
}

int unmap_op_addr(void *op, size_t dm_len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)op & ~(uintptr_t)(page - 1);

	return munmap((void *)start, (dm_len + page - 1) & ~(page - 1));
}
