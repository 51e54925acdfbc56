/* text.c - checking and escaping strings from outside for where they land. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

/* The length of the UTF-8 sequence at s, or 0 if it is not valid. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong 3- and 4-byte forms, surrogates, beyond U+10FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) || (s[0] == 0xf0 && s[1] < 0x90) ||
	    (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

bool text_oneline(const char *s, size_t *bad)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	while (*p) {
		if (is_control(*p) || !(n = utf8_len(p))) {
			if (bad)
				*bad = (size_t)((const char *)p - s);
			return false;
		}
		p += n;
	}
	return true;
}

static const char *escape(const char *s, char *buf, size_t size, bool ini)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, n;

	if (size == 0)
		return buf;
	while (*p && o + 1 < size) {
		char piece[8];
		size_t len;

		if (is_control(*p) || !(n = utf8_len(p))) {
			snprintf(piece, sizeof(piece), "\\x%02x", *p);
			n = 1;
		} else if (*p == '\\') {
			snprintf(piece, sizeof(piece), "\\\\");
		} else if (ini && *p == '#') {
			piece[0] = '\0';
		} else if (ini && *p == '%') {
			snprintf(piece, sizeof(piece), "%%%%");
		} else {
			memcpy(piece, p, n);
			piece[n] = '\0';
		}
		len = strlen(piece);
		if (o + len + 1 > size)
			break;
		memcpy(buf + o, piece, len);
		o += len;
		p += n;
	}
	buf[o] = '\0';
	return buf;
}

const char *text_safe(const char *s, char *buf, size_t size)
{
	return escape(s ? s : "", buf, size, false);
}

const char *text_ini(const char *s, char *buf, size_t size)
{
	return escape(s ? s : "", buf, size, true);
}

const char *text_filename(const char *s, char *buf, size_t size)
{
	size_t i;

	snprintf(buf, size, "%s", s && *s ? s : "unnamed");
	for (i = 0; buf[i]; i++)
		if (!((buf[i] >= 'a' && buf[i] <= 'z') || (buf[i] >= 'A' && buf[i] <= 'Z') ||
		      (buf[i] >= '0' && buf[i] <= '9') || buf[i] == '_' || buf[i] == '-' || (buf[i] == '.' && i > 0)))
			buf[i] = '_';
	return buf;
}

struct json_object *json_number(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}
