// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include "skip.h"

#include <stdarg.h>
#include <stdio.h>

static int skipped;
static int teardown_open; /* begun, not ended: an assert left it */

void test_note_skip(const char *fmt, ...)
{
	va_list ap;

	skipped++;
	fputs("SKIP: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

int test_exit_status(int failed)
{
	/* Any failure is 1: a count of 77 must not read as a skip. */
	if (failed || teardown_open)
		return 1;
	return skipped ? TEST_SKIP_EXIT : 0;
}

void test_teardown_begin(void)
{
	teardown_open = 1;
}

int test_teardown_end(void)
{
	teardown_open = 0;
	return 0;
}
