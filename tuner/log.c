/* log.c - messages to the user, lowercase, "vmtune: " first, no full stop. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text.h"
#include "vmtune.h"

static int log_verbose;
static bool log_quiet;
static FILE *log_sink; /* NULL: stderr */

void log_to(FILE *f)
{
	log_sink = f;
}

void log_setup(int verbosity, bool quiet)
{
	log_verbose = verbosity;
	log_quiet = quiet;
}

/* The progress line: on a terminal one line redrawn in place ("\r", erase to the
 * end), taken away before any other message; elsewhere, or with NO_COLOR set or
 * TERM=dumb, plain lines and no escape sequence at all. */
static bool progress_shown;

bool progress_inplace(void)
{
	const char *term = getenv("TERM"), *nc = getenv("NO_COLOR");

	return !log_sink && isatty(STDERR_FILENO) && !(nc && *nc) && !(term && strcmp(term, "dumb") == 0);
}

void progress_clear(void)
{
	if (progress_shown) {
		fputs("\r\033[K", stderr);
		progress_shown = false;
	}
}

void progress(bool inplace, const char *fmt, ...)
{
	char msg[1024], safe[1024];
	va_list ap;

	if (log_quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	text_safe(msg, safe, sizeof(safe));
	if (inplace && progress_inplace()) {
		fprintf(stderr, "\r\033[K%s", safe);
		fflush(stderr);
		progress_shown = true;
	} else {
		progress_clear();
		fprintf(log_sink ? log_sink : stderr, "%s\n", safe);
	}
}

/* A message carries paths, values and names from files, stores and other
 * machines: it reaches the terminal escaped, as one line. */
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096], safe[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	progress_clear();
	fprintf(log_sink ? log_sink : stderr, "vmtune: %s%s\n", prefix, text_safe(msg, safe, sizeof(safe)));
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void info(const char *fmt, ...)
{
	va_list ap;

	if (log_quiet)
		return;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}

void verbose(const char *fmt, ...)
{
	va_list ap;

	if (!log_verbose)
		return;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}
