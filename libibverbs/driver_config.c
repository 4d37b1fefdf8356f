// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Which provider plug-ins to load: config files and the environment. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "provider.h"
#include "sysfs.h"

int verbs_name_list_add(struct verbs_name_list *list, const char *name)
{
	char **grown;
	size_t i;

	for (i = 0; i < list->num; i++)
		if (!strcmp(list->names[i], name))
			return 0;
	grown = realloc(list->names, (list->num + 1) * sizeof(*grown));
	if (!grown)
		return ENOMEM;
	list->names = grown;
	list->names[list->num] = strdup(name);
	if (!list->names[list->num])
		return ENOMEM;
	list->num++;
	return 0;
}

void verbs_name_list_free(struct verbs_name_list *list)
{
	while (list->num)
		free(list->names[--list->num]);
	free(list->names);
	list->names = NULL;
}

/* One line, already split off: 0 (skip/added), 1 (junk), or -ENOMEM. */
static int parse_line(const char *source, unsigned int lineno, char *line,
		      struct verbs_name_list *list)
{
	char *word, *name, *extra, *save;

	word = strtok_r(line, " \t\r", &save);
	if (!word || word[0] == '#')
		return 0;
	name = strtok_r(NULL, " \t\r", &save);
	extra = strtok_r(NULL, " \t\r", &save);
	if (strcmp(word, "driver") || !name || (extra && extra[0] != '#')) {
		verbs_lib_warn("%s:%u: ignoring unknown line\n", source,
			       lineno);
		return 1;
	}
	return verbs_name_list_add(list, name) ? -ENOMEM : 0;
}

int verbs_parse_driver_config(const char *source, const char *text,
			      struct verbs_name_list *list)
{
	char *copy, *line, *save;
	unsigned int lineno = 0;
	int junk = 0, ret = 0;

	copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	/* strtok_r would merge empty lines and shift the numbers. */
	for (line = copy; line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		ret = parse_line(source, ++lineno, line, list);
		if (ret < 0)
			break;
		junk += ret;
	}
	free(copy);
	return ret < 0 ? ret : junk;
}

static int read_config_file(const char *path, struct verbs_name_list *list)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f)
		return errno;
	ret = getdelim(&text, &size, '\0', f) < 0 && ferror(f) ? EIO : 0;
	fclose(f);
	if (!ret)
		ret = verbs_parse_driver_config(path, text ? text : "", list);
	free(text);
	return ret < 0 ? -ret : 0;
}

static int filter_regular(const struct dirent *ent)
{
	return ent->d_name[0] != '.';
}

int verbs_read_config_dir(const char *dir, struct verbs_name_list *list)
{
	struct dirent **ents;
	char path[PATH_MAX];
	struct stat st;
	int num, i, ret = 0;

	num = scandir(dir, &ents, filter_regular, alphasort);
	if (num < 0) {
		verbs_lib_warn("cannot read config directory %s\n", dir);
		return errno;
	}
	for (i = 0; i < num; i++) {
		if (!ret &&
		    verbs_path_join(path, sizeof(path), dir, ents[i]->d_name) &&
		    !stat(path, &st) && S_ISREG(st.st_mode))
			ret = read_config_file(path, list) == ENOMEM ? ENOMEM
								     : 0;
		free(ents[i]);
	}
	free(ents);
	return ret;
}

int verbs_parse_driver_env(const char *value, struct verbs_name_list *list)
{
	char *copy, *name, *save;
	int ret = 0;

	copy = strdup(value);
	if (!copy)
		return ENOMEM;
	for (name = strtok_r(copy, ":;", &save); name && !ret;
	     name = strtok_r(NULL, ":;", &save))
		ret = verbs_name_list_add(list, name);
	free(copy);
	return ret;
}

int verbs_collect_driver_names(const char *config_dir,
			       struct verbs_name_list *list)
{
	const char *env = NULL;
	int ret;

	if (getuid() == geteuid()) {
		env = getenv("RDMAV_DRIVERS");
		if (!env)
			env = getenv("IBV_DRIVERS");
	}
	if (env) {
		ret = verbs_parse_driver_env(env, list);
		if (ret)
			return ret;
	}
	ret = verbs_read_config_dir(config_dir, list);
	/* A missing config directory only means "nothing configured". */
	return ret == ENOMEM ? ret : 0;
}
