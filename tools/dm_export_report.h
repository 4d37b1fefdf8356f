/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * How ibv_dm_export prints its steps: a numbered line per step with its
 * result and duration, and a plain-language reason for every failure.
 */
#ifndef DM_EXPORT_REPORT_H
#define DM_EXPORT_REPORT_H

#include <stdbool.h>

struct report {
	unsigned int steps;
	unsigned int failed;
	unsigned int skipped;
	double t0;		/* start of the current step, seconds */
};

/* Start a step: print its number and description (printf format). */
void step_begin(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* End it: "ok" with @detail, or "FAILED" with @detail. Returns @ok. */
bool step_end(struct report *r, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* End it as skipped, saying why. */
void step_skip(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* What an errno from @what most likely means for the person running this. */
const char *explain_errno(const char *what, int err);

#endif /* DM_EXPORT_REPORT_H */
