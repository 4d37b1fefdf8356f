// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The compat names of libibverbs.so.1 that only refuse: the 33 verbs at
 * IBVERBS_1.0 and rdma-core 65's provider interface at IBVERBS_PRIVATE_65
 * (compat_1_0.c, compat_providers_v65.c). Each is looked up at its exact
 * version (dlvsym), called, and must return with errno EOPNOTSUPP and a
 * value its kind reports failure with: 0 (NULL, or nothing), -1, or
 * EOPNOTSUPP itself. The list is the one check_symbols_65.sh compares the
 * library with, so a name added there is called here too.
 *
 * usage: verbs_api_compat_refusals LIBIBVERBS UPSTREAM_65_LIST
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Real at PRIVATE_65, or not a function: checked elsewhere. */
static const char *const not_refusals[] = {
	"ibv_query_gid_type",		    /* compat_v44.c, real */
	"verbs_register_driver_65",	    /* declines with a warning */
	"verbs_allow_disassociate_destroy", /* data */
};

static int is_refusal(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(not_refusals) / sizeof(not_refusals[0]); i++)
		if (!strcmp(name, not_refusals[i]))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	char line[256], *at, *ver;
	int checked = 0, fail = 0;
	void *lib;
	FILE *f;

	if (argc != 3)
		return 2;
	lib = dlopen(argv[1], RTLD_NOW);
	f = fopen(argv[2], "r");
	if (!lib || !f) {
		printf("FAIL: cannot open %s or %s\n", argv[1], argv[2]);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		long (*fn)(void);
		long ret;

		line[strcspn(line, "\n")] = '\0';
		at = strchr(line, '@');
		if (line[0] == '#' || !at)
			continue;
		*at = '\0';
		ver = at + 1 + (at[1] == '@');
		if (strcmp(ver, "IBVERBS_PRIVATE_65") &&
		    (strcmp(ver, "IBVERBS_1.0") || at[1] == '@'))
			continue;
		if (!is_refusal(line))
			continue;
		*(void **)&fn = dlvsym(lib, line, ver);
		if (!fn) {
			printf("FAIL: %s@%s not found\n", line, ver);
			fail = 1;
			continue;
		}
		errno = 0;
		ret = fn();
		if (errno != EOPNOTSUPP ||
		    (ret != 0 && ret != -1 && ret != EOPNOTSUPP)) {
			printf("FAIL: %s@%s returned %ld, errno %d\n", line,
			       ver, ret, errno);
			fail = 1;
		}
		checked++;
	}
	fclose(f);
	dlclose(lib);
	/* 33 verbs and 89 of the 92 provider names. */
	if (checked != 33 + 89) {
		printf("FAIL: %d compat names called, want 122\n", checked);
		fail = 1;
	}
	printf("%d compat names refuse with EOPNOTSUPP\n", checked);
	return fail;
}
