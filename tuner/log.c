/* log.c - messages to the user, lowercase, "vmtune: " first, no full stop. */
#include <stdarg.h>
#include <stdio.h>

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

/* A message carries paths, values and names from files, stores and other
 * machines: it reaches the terminal escaped, as one line. */
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096], safe[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
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
