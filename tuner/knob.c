/* knob.c - knob file I/O: find the file, decode and encode values, write and read back.
 * Knows nothing about searches or journals; callers journal before knob_write(). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <json-c/json.h>

#include "knob.h"
#include "size.h"
#include "vmtune.h"

#define DEBUGFS "/sys/kernel/debug"
#define DEBUGFS_MAGIC 0x64626720

static bool debugfs_ours;

const char *knob_status_name(enum knob_status s)
{
	switch (s) {
	case KS_AVAILABLE:
		return "available";
	case KS_MISSING:
		return "missing";
	case KS_READONLY:
		return "read-only";
	case KS_RESTRICTED:
		return "restricted";
	case KS_WRITEONLY:
		return "write-only";
	}
	return "?";
}

/* On the live system a debugfs path needs debugfs mounted; mount it once. */
static void debugfs_acquire(void)
{
	struct statfs sf;

	if (!vt_live() || debugfs_ours)
		return;
	if (statfs(DEBUGFS, &sf) == 0 && (unsigned long)sf.f_type == DEBUGFS_MAGIC)
		return;
	if (mount("debugfs", DEBUGFS, "debugfs", 0, NULL) == 0) {
		debugfs_ours = true;
		verbose("mounted debugfs on %s (unmounted again at exit)", DEBUGFS);
	}
}

void knob_debugfs_release(void)
{
	if (!debugfs_ours)
		return;
	if (umount(DEBUGFS) == 0)
		verbose("unmounted debugfs from %s", DEBUGFS);
	else
		warning("cannot unmount debugfs from %s: %s", DEBUGFS, strerror(errno));
	debugfs_ours = false;
}

long knob_page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

long knob_mthp_size_kb(int order)
{
	return (knob_page_size() / 1024) << order;
}

const char *knob_mthp_path(char *buf, size_t size, const char *dir, int order)
{
	snprintf(buf, size, "%s/hugepages-%ldkB/enabled", dir, knob_mthp_size_kb(order));
	return buf;
}

bool knob_in_force(const struct knob_def *d, long value)
{
	return !d->pair || value != 0;
}

static int decode_enum(const struct knob_def *d, const char *raw, long *v)
{
	char word[64];
	const char *open = strchr(raw, '['), *close;
	int i;

	if (open) {
		close = strchr(open, ']');
		if (!close || (size_t)(close - open - 1) >= sizeof(word))
			return -1;
		memcpy(word, open + 1, (size_t)(close - open - 1));
		word[close - open - 1] = '\0';
	} else {
		snprintf(word, sizeof(word), "%s", raw);
	}
	for (i = 0; d->choices[i]; i++) {
		if (strcmp(d->choices[i], word) == 0) {
			*v = i;
			return 0;
		}
	}
	return -1;
}

/* The bracketed word of a sysfs enum file, or the content as is. */
static void enum_word(const char *raw, char *out, size_t size)
{
	const char *open = strchr(raw, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close && (size_t)(close - open) <= size)
		snprintf(out, size, "%.*s", (int)(close - open - 1), open + 1);
	else
		snprintf(out, size, "%s", raw);
}

static int read_value(struct knob_state *st, long *v)
{
	char buf[256], word[64], p[PATH_MAX];
	int r, order, k = 0;
	long bytes;

	switch (st->kp->codec) {
	case KC_INT:
	case KC_HEX:
	case KC_PAGES_ORDER:
		r = read_small_file(st->path, buf, sizeof(buf));
		if (r < 0)
			return r;
		errno = 0;
		bytes = strtol(buf, NULL, st->kp->codec == KC_HEX ? 16 : 10);
		if (errno)
			return -EINVAL;
		if (st->kp->codec != KC_PAGES_ORDER) {
			*v = bytes;
			return 0;
		}
		for (order = 0; (knob_page_size() << order) < bytes && order < 20; order++)
			;
		*v = order;
		return 0;
	case KC_ENUM:
		r = read_small_file(st->path, buf, sizeof(buf));
		if (r < 0)
			return r;
		return decode_enum(st->def, buf, v) < 0 ? -EINVAL : 0;
	case KC_MTHP:
		/* k = the largest order such that every size up to page size<<k that has a
		 * file is "always"; sizes without a file (8kB here) are skipped */
		for (order = 1; order <= st->def->max; order++) {
			knob_mthp_path(p, sizeof(p), st->path, order);
			r = read_small_file(p, buf, sizeof(buf));
			if (r == -ENOENT)
				continue;
			if (r < 0)
				return r;
			enum_word(buf, word, sizeof(word));
			if (strcmp(word, "always") != 0)
				break;
			k = order;
		}
		*v = k;
		return 0;
	}
	return -EINVAL;
}

bool knob_value_exists(const struct knob_state *st, long v)
{
	char p[PATH_MAX];

	if (!st->kp || st->kp->codec != KC_MTHP || v <= 0)
		return true;
	knob_mthp_path(p, sizeof(p), st->path, (int)v);
	return access(p, F_OK) == 0;
}

static bool mthp_present(const char *dir)
{
	char p[PATH_MAX];
	int order;

	for (order = 1; order <= 8; order++) {
		knob_mthp_path(p, sizeof(p), dir, order);
		if (access(p, F_OK) == 0)
			return true;
	}
	return false;
}

void knob_probe(const struct knob_def *d, struct knob_state *st)
{
	int i, r;
	long v;

	memset(st, 0, sizeof(*st));
	st->def = d;
	st->status = KS_MISSING;
	snprintf(st->why, sizeof(st->why), "no such file on this kernel");
	for (i = 0; i < KNOB_MAX_PATHS && d->paths[i].path; i++) {
		const struct knob_path *kp = &d->paths[i];

		if (strncmp(kp->path, DEBUGFS "/", strlen(DEBUGFS) + 1) == 0)
			debugfs_acquire();
		vt_path(st->path, sizeof(st->path), kp->path);
		if (kp->codec == KC_MTHP) {
			size_t n = strlen(st->path);
			if (n > 1 && st->path[n - 1] == '/')
				st->path[n - 1] = '\0';
			if (!mthp_present(st->path))
				continue;
		} else if (access(st->path, F_OK) < 0) {
			continue;
		}
		st->kp = kp;
		break;
	}
	if (!st->kp) {
		st->path[0] = '\0';
		return;
	}
	r = read_value(st, &v);
	if (r == -EACCES && st->kp->codec == KC_INT && access(st->path, W_OK) == 0) {
		st->status = KS_WRITEONLY;
		snprintf(st->why, sizeof(st->why), "%s can be written but not read", st->path);
		return;
	}
	if (r == -EPERM || r == -EACCES) {
		st->status = KS_RESTRICTED;
		snprintf(st->why, sizeof(st->why), "%s: %s%s", st->path, strerror(-r),
			 strstr(st->path, DEBUGFS) ? " (kernel lockdown restricts debugfs)" : "");
		return;
	}
	if (r < 0) {
		st->status = KS_RESTRICTED;
		snprintf(st->why, sizeof(st->why), "cannot read %s: %s", st->path, strerror(-r));
		return;
	}
	st->have_value = true;
	st->value = v;
	st->why[0] = '\0';
	{
		char p[PATH_MAX];
		if (st->kp->codec == KC_MTHP)
			knob_mthp_path(p, sizeof(p), st->path, 2);
		else
			snprintf(p, sizeof(p), "%s", st->path);
		st->status = access(p, W_OK) == 0 ? KS_AVAILABLE : KS_READONLY;
		/* root is refused only by a read-only mount or the file's kind; others by mode */
		if (st->status == KS_READONLY)
			snprintf(st->why, sizeof(st->why), "%s is not writable: %s%s", st->path, strerror(errno),
				 errno == EACCES && geteuid() != 0 ? " (run as root)" : "");
	}
}

int knob_parse_value(const struct knob_def *d, const char *text, long *v, char *why, size_t whylen)
{
	char tmp[160];
	long n;
	int i;

	if (d->type == KT_ENUM) {
		for (i = 0; d->choices[i]; i++) {
			if (strcmp(d->choices[i], text) == 0) {
				*v = i;
				return 0;
			}
		}
		n = snprintf(why, whylen, "%s=%s: not one of", d->name, text);
		for (i = 0; d->choices[i] && n > 0 && (size_t)n < whylen; i++)
			n += snprintf(why + n, whylen - (size_t)n, " %s", d->choices[i]);
		return -1;
	}
	if (d->type == KT_BYTES) {
		uint64_t b;
		if (parse_size(text, &b, tmp, sizeof(tmp)) < 0) {
			snprintf(why, whylen, "%s: %s", d->name, tmp);
			return -1;
		}
		if (b > (uint64_t)d->max) {
			snprintf(why, whylen, "%s=%s is out of range %ld..%ld", d->name, text, d->min, d->max);
			return -1;
		}
		*v = (long)b;
		return 0;
	}
	if (parse_long(text, LONG_MIN, LONG_MAX, &n, tmp, sizeof(tmp)) < 0) {
		snprintf(why, whylen, "%s=%s: not an integer", d->name, text);
		return -1;
	}
	if (n < d->min || n > d->max) {
		snprintf(why, whylen, "%s=%s is out of range %ld..%ld", d->name, text, d->min, d->max);
		return -1;
	}
	*v = n;
	return 0;
}

json_object *knob_value_json(const struct knob_def *d, long v)
{
	char buf[64];

	return d->type == KT_ENUM ? json_object_new_string(knob_format_value(d, v, buf, sizeof(buf)))
				  : json_object_new_int64(v);
}

const char *knob_format_value(const struct knob_def *d, long v, char *buf, size_t size)
{
	if (d->type == KT_ENUM && v >= 0 && v < knob_choice_count(d))
		snprintf(buf, size, "%s", d->choices[v]);
	else
		snprintf(buf, size, "%ld", v);
	return buf;
}

int knob_assignments(const struct knob_def *d, long value, struct knob_assignment *a, int max)
{
	struct knob_state st;
	const struct knob_path *kp;
	char p[PATH_MAX], dir[PATH_MAX];
	int n = 0, order;

	if (max < 1)
		return 0;
	knob_probe(d, &st);
	kp = st.kp ? st.kp : &d->paths[0]; /* the path this kernel has, else the first */
	switch (kp->codec) {
	case KC_INT:
	case KC_HEX:
	case KC_ENUM:
		snprintf(a[0].path, sizeof(a[0].path), "%s", kp->path);
		knob_format_value(d, value, a[0].value, sizeof(a[0].value));
		a[0].sysctl = strncmp(kp->path, "/proc/sys/", 10) == 0;
		return 1;
	case KC_PAGES_ORDER:
		snprintf(a[0].path, sizeof(a[0].path), "%s", kp->path);
		snprintf(a[0].value, sizeof(a[0].value), "%ld", knob_page_size() << value);
		a[0].sysctl = false;
		return 1;
	case KC_MTHP:
		snprintf(dir, sizeof(dir), "%s", kp->path);
		if (dir[0] && dir[strlen(dir) - 1] == '/')
			dir[strlen(dir) - 1] = '\0';
		for (order = 1; order <= d->max && n < max; order++) {
			if (access(vt_path(p, sizeof(p), knob_mthp_path(a[n].path, sizeof(a[n].path), dir, order)),
				   F_OK) < 0)
				continue;
			snprintf(a[n].value, sizeof(a[n].value), "%s", order <= value ? "always" : "never");
			a[n++].sysctl = false;
		}
		return n;
	}
	return 0;
}

static int add_file(struct knob_file *files, int n, int max, const char *name, const char *path, bool is_enum)
{
	char buf[256];
	int r;

	if (n >= max)
		return error("%s: more than %d files to journal", name, max);
	r = read_small_file(path, buf, sizeof(buf));
	if (r < 0)
		return error("cannot read '%s': %s", path, strerror(-r));
	if (r == 0 || buf[0] == '\0')
		return error("%s reads empty: its value cannot be journalled, so it is not written", path);
	snprintf(files[n].name, sizeof(files[n].name), "%s", name);
	snprintf(files[n].path, sizeof(files[n].path), "%s", path);
	if (is_enum)
		enum_word(buf, files[n].raw, sizeof(files[n].raw));
	else
		snprintf(files[n].raw, sizeof(files[n].raw), "%s", buf);
	return n + 1;
}

/* The files of a related knob (pair, affected), if it exists here. */
static int add_related(struct knob_file *files, int n, int max, const char *name)
{
	struct knob_state rs;

	knob_probe(knob_find(name), &rs);
	if (!rs.kp || rs.status == KS_WRITEONLY)
		return n;
	return add_file(files, n, max, name, rs.path, rs.kp->codec == KC_ENUM);
}

int knob_files(const struct knob_state *st, struct knob_file *files, int max)
{
	const struct knob_def *d = st->def;
	char p[PATH_MAX];
	int n = 0, order;

	if (!st->kp)
		return error("%s: %s", d->name, st->why);
	if (d->affects && (n = add_related(files, n, max, d->affects)) < 0)
		return -1;
	if (st->kp->codec == KC_MTHP) {
		for (order = 1; order <= d->max && n >= 0; order++) {
			knob_mthp_path(p, sizeof(p), st->path, order);
			if (access(p, F_OK) == 0)
				n = add_file(files, n, max, d->name, p, true);
		}
	} else {
		n = add_file(files, n, max, d->name, st->path, st->kp->codec == KC_ENUM);
	}
	if (n >= 0 && d->pair)
		n = add_related(files, n, max, d->pair);
	return n;
}

static int write_raw(const char *path, const char *raw)
{
	int r = write_small_file(path, raw);

	if (r < 0)
		return error("cannot write '%s' to %s: %s", raw, path, strerror(-r));
	return 0;
}

int knob_write(struct knob_state *st, long v, long *readback)
{
	char raw[64], p[PATH_MAX];
	int order;

	if (!st->kp)
		return error("%s: %s", st->def->name, st->why);
	switch (st->kp->codec) {
	case KC_INT:
	case KC_HEX:
		snprintf(raw, sizeof(raw), "%ld", v);
		if (write_raw(st->path, raw) < 0)
			return -1;
		break;
	case KC_PAGES_ORDER:
		snprintf(raw, sizeof(raw), "%ld", knob_page_size() << v);
		if (write_raw(st->path, raw) < 0)
			return -1;
		break;
	case KC_ENUM:
		if (write_raw(st->path, st->def->choices[v]) < 0)
			return -1;
		break;
	case KC_MTHP:
		for (order = 1; order <= st->def->max; order++) {
			knob_mthp_path(p, sizeof(p), st->path, order);
			if (access(p, F_OK) < 0)
				continue;
			if (write_raw(p, order <= v ? "always" : "never") < 0)
				return -1;
		}
		break;
	}
	if (read_value(st, readback) < 0)
		return error("%s: cannot read back %s after writing", st->def->name, st->path);
	st->value = *readback;
	st->have_value = true;
	return 0;
}

/* Is path one of the files this knob (or its pair) may own under the current root? */
static bool knob_owns_path(const struct knob_def *d, const char *path)
{
	char p[PATH_MAX], q[PATH_MAX];
	int i, order;

	for (i = 0; i < KNOB_MAX_PATHS && d->paths[i].path; i++) {
		vt_path(p, sizeof(p), d->paths[i].path);
		if (d->paths[i].codec != KC_MTHP) {
			if (strcmp(p, path) == 0)
				return true;
			continue;
		}
		p[strlen(p) - 1] = '\0'; /* the trailing slash */
		for (order = 1; order <= d->max; order++) {
			knob_mthp_path(q, sizeof(q), p, order);
			if (strcmp(q, path) == 0)
				return true;
		}
	}
	return false;
}

int knob_file_restore(const char *name, const char *path, const char *raw)
{
	const struct knob_def *d = knob_find(name);

	if (!d)
		return error("journal names unknown knob '%s'", name);
	if (!knob_owns_path(d, path))
		return error("journal entry for %s names '%s', which is not its file under this root", name, path);
	if (strncmp(path + strlen(vt_root()), DEBUGFS "/", strlen(DEBUGFS) + 1) == 0)
		debugfs_acquire();
	return write_raw(path, raw);
}

bool knob_file_holds(const char *path, const char *raw)
{
	char buf[256], word[64];

	if (read_small_file(path, buf, sizeof(buf)) < 0)
		return false;
	enum_word(buf, word, sizeof(word));
	return strcmp(strchr(buf, '[') ? word : buf, raw) == 0;
}

/* Is file i the zero half of a ratio/bytes pair whose other half, also being put
 * back, holds the value in force? Writing that one zeroes this one, and writing 0
 * to a *_bytes file is refused by the kernel. */
static bool pair_covered(const struct knob_file *files, int n, int i)
{
	const struct knob_def *d = knob_find(files[i].name), *p;

	if (!d || !d->pair || knob_in_force(d, strtol(files[i].raw, NULL, 10)) || !(p = knob_find(d->pair)))
		return false;
	for (int j = 0; j < n; j++)
		if (strcmp(files[j].name, p->name) == 0 && knob_in_force(p, strtol(files[j].raw, NULL, 10)))
			return true;
	return false;
}

int knob_files_restore(const struct knob_file *files, int n, bool *ok, int *written)
{
	bool deferred[KNOB_RESTORE_MAX] = { false };
	int i, j, failed = 0;

	if (n > KNOB_RESTORE_MAX)
		return error("internal error: %d files to put back, at most %d", n, KNOB_RESTORE_MAX);
	if (written)
		*written = 0;
	for (i = n - 1; i >= 0; i--) {
		ok[i] = true;
		if (pair_covered(files, n, i)) {
			deferred[i] = true;
			continue;
		}
		/* no needless writes: writing min_free_kbytes, say, makes the kernel
		 * treat it as user-set and stop adjusting it */
		if (knob_file_holds(files[i].path, files[i].raw))
			continue;
		if (knob_file_restore(files[i].name, files[i].path, files[i].raw) < 0) {
			ok[i] = false;
			continue;
		}
		verbose("restored %s: %s = %s", files[i].name, files[i].path, files[i].raw);
		if (written)
			(*written)++;
	}
	/* the kernel zeroed the covered half when the other was written; a tree
	 * without that kernel behaviour (--root) gets the 0 written */
	for (i = n - 1; i >= 0; i--)
		if (deferred[i] && !knob_file_holds(files[i].path, files[i].raw) &&
		    knob_file_restore(files[i].name, files[i].path, files[i].raw) < 0)
			ok[i] = false;
	/* verify each file's final value: the oldest record of a file is written last */
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && strcmp(files[j].path, files[i].path) != 0; j++)
			;
		if (ok[i] && j == i && !knob_file_holds(files[i].path, files[i].raw)) {
			char buf[256] = "";
			read_small_file(files[i].path, buf, sizeof(buf));
			error("%s: %s reads '%s' after restore, expected '%s'", files[i].name, files[i].path, buf,
			      files[i].raw);
			ok[i] = false;
		}
		failed += !ok[i];
	}
	return failed ? -1 : 0;
}
