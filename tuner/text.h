/* text.h - strings that came from outside (a file, a store row, another machine, a
 * workload's output) on their way to a place where their characters mean something:
 * a check at load, and an escape for each kind of output. */
#ifndef VMTUNE_TEXT_H
#define VMTUNE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Is s one line of text: no control character (below 0x20, or 0x7f) and valid
 * UTF-8? *bad gets the offset of the first offending byte. */
bool text_oneline(const char *s, size_t *bad);

/* For a terminal or a comment line: control characters and invalid UTF-8 become
 * \xNN, a backslash becomes \\, so the result is one printable line. */
const char *text_safe(const char *s, char *buf, size_t size);

/* For an INI value (tuned's parser: '=' delimits, '#' starts a comment, '%'
 * interpolates): text_safe, '#' left out, '%' doubled. */
const char *text_ini(const char *s, char *buf, size_t size);

/* For one component of a file name: letters, digits, '.', '_' and '-' kept, the
 * rest '_', never "", "." or ".." or a leading '.'. */
const char *text_filename(const char *s, char *buf, size_t size);

/* A number for JSON: json-c would print Infinity or NaN, which no JSON reader
 * takes; those become null. */
struct json_object;
struct json_object *json_number(double v);

#endif
