// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Opt-in diagnostics: silent unless the environment asks. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "log.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static bool log_ready;
static int log_level;
static FILE *log_file;

/* Called with log_lock held. */
static void log_load_env(void)
{
	const char *level = getenv("VERBS_LOG_LEVEL");
	const char *path = getenv("VERBS_LOG_FILE");

	log_level = level ? atoi(level) : 0;
	if (getenv("IBV_SHOW_WARNINGS") && log_level < VERBS_LOG_WARN)
		log_level = VERBS_LOG_WARN;

	log_file = stderr;
	/* A set-uid program must not write where its caller chooses. */
	if (path && log_level > 0 && getuid() == geteuid()) {
		FILE *f = fopen(path, "ae");

		if (f)
			log_file = f;
	}
	log_ready = true;
}

static int log_current_level(void)
{
	int level;

	pthread_mutex_lock(&log_lock);
	if (!log_ready)
		log_load_env();
	level = log_level;
	pthread_mutex_unlock(&log_lock);
	return level;
}

bool verbs_log_enabled(enum verbs_log_level level)
{
	return log_current_level() >= (int)level;
}

void verbs_log_reset(void)
{
	pthread_mutex_lock(&log_lock);
	if (log_ready && log_file != stderr)
		fclose(log_file);
	log_ready = false;
	pthread_mutex_unlock(&log_lock);
}

void verbs_log(struct ibv_context *ctx, enum verbs_log_level level,
	       const char *fmt, ...)
{
	va_list ap;

	if (!verbs_log_enabled(level))
		return;

	pthread_mutex_lock(&log_lock);
	if (ctx && ctx->device)
		fprintf(log_file, "libibverbs: %s: ", ctx->device->name);
	else
		fputs("libibverbs: ", log_file);
	va_start(ap, fmt);
	vfprintf(log_file, fmt, ap);
	va_end(ap);
	fflush(log_file);
	pthread_mutex_unlock(&log_lock);
}
