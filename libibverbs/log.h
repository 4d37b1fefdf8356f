/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Library-internal logging. Nothing is printed unless VERBS_LOG_LEVEL (a
 * number, see enum verbs_log_level) or IBV_SHOW_WARNINGS (any value, means
 * warnings) ask for it; VERBS_LOG_FILE redirects the output from stderr.
 */
#ifndef RDMA_DM_LOG_H
#define RDMA_DM_LOG_H

#include <stdbool.h>

#include "driver.h"

/* True when messages of @level would be printed. */
bool verbs_log_enabled(enum verbs_log_level level);

/* Forget the cached environment (tests change it between cases). */
void verbs_log_reset(void);

#define verbs_lib_warn(...)  verbs_log(NULL, VERBS_LOG_WARN, __VA_ARGS__)
#define verbs_lib_debug(...) verbs_log(NULL, VERBS_LOG_DEBUG, __VA_ARGS__)

#endif /* RDMA_DM_LOG_H */
