/* sysctld.c - reads the sysctl.d directories the way systemd-sysctl does (the
 * same file name in an earlier directory hides a later one) to find settings that
 * would fight a profile's. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysctld.h"
#include "vmtune.h"

static const char *const dirs[] = { "/etc/sysctl.d",	 "/run/sysctl.d", "/usr/local/lib/sysctl.d",
				    "/usr/lib/sysctl.d", "/lib/sysctl.d", NULL };

static int scan_file(const char *path, const char *key,
		     void (*found)(void *arg, const char *file, int line, const char *value), void *arg)
{
	FILE *f = fopen(path, "re");
	char line[1024], k[256];
	int n = 0, lineno = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *eq, *v, *end;
		size_t i;

		lineno++;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '-') /* "-key = value": ignore errors */
			p++;
		if (*p == '#' || *p == ';' || !(eq = strchr(p, '=')))
			continue;
		for (end = eq; end > p && isspace((unsigned char)end[-1]); end--)
			;
		if ((size_t)(end - p) >= sizeof(k))
			continue;
		memcpy(k, p, (size_t)(end - p));
		k[end - p] = '\0';
		for (i = 0; k[i]; i++) /* vm/swappiness is vm.swappiness */
			if (k[i] == '/')
				k[i] = '.';
		if (strcmp(k, key) != 0)
			continue;
		for (v = eq + 1; isspace((unsigned char)*v); v++)
			;
		v[strcspn(v, "\r\n")] = '\0';
		found(arg, path, lineno, v);
		n++;
	}
	fclose(f);
	return n;
}

int sysctld_find(const char *key, void (*found)(void *arg, const char *file, int line, const char *value), void *arg)
{
	char seen[64][256], path[PATH_MAX], dir[PATH_MAX];
	int nseen = 0, n = 0, d, i, j, count;
	char **names;

	for (d = 0; dirs[d]; d++) {
		vt_path(dir, sizeof(dir), dirs[d]);
		count = file_list(dir, ".conf", &names);
		for (i = 0; i < count; i++) {
			bool hidden = false;

			for (j = 0; j < nseen; j++)
				hidden |= strcmp(seen[j], names[i]) == 0;
			if (hidden)
				continue;
			if (nseen < 64)
				snprintf(seen[nseen++], sizeof(seen[0]), "%s", names[i]);
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			n += scan_file(path, key, found, arg);
		}
		if (count > 0)
			file_list_free(names, count);
	}
	n += scan_file(vt_path(path, sizeof(path), "/etc/sysctl.conf"), key, found, arg);
	return n;
}
