/* journal.c - originals are fsync'd to STATE/journal before the first write, and a
 * lock (STATE/lock) lets one vmtune change settings at a time. The journal is a
 * stack: undo walks it backwards, so nested changes unwind to the true originals. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "vmtune.h"

#define JOURNAL_MAX 256
#define JOURNAL_HEADER "# vmtune journal v1: kind mode pid name path value"

#define JOURNAL_KINDS 8
#define KNOB_KIND "knob"

struct entry {
	char kind[16]; /* KNOB_KIND or a registered resource kind */
	char mode;     /* 'T' transient, 'K' kept, 'P' to be kept once its command completes */
	long pid;
	char name[64];
	char path[PATH_MAX];
	char raw[64];
};

static struct entry entries[JOURNAL_MAX];
static int nentries;
static char journal_boot[64]; /* the boot the journal was written in ("" if not known) */
static int lock_fd = -1;
static bool in_session;
static bool atexit_registered;
volatile sig_atomic_t vt_interrupted;

static const struct journal_kind *kinds[JOURNAL_KINDS];
static int nkinds;

void journal_register(const struct journal_kind *k)
{
	for (int i = 0; i < nkinds; i++)
		if (kinds[i] == k)
			return;
	if (nkinds < JOURNAL_KINDS)
		kinds[nkinds++] = k;
}

static const struct journal_kind *kind_find(const char *name)
{
	for (int i = 0; i < nkinds; i++)
		if (strcmp(kinds[i]->name, name) == 0)
			return kinds[i];
	return NULL;
}

static bool is_knob(const struct entry *e)
{
	return strcmp(e->kind, KNOB_KIND) == 0;
}

static void drop_entry(int i);

/* Undone when its process ends: a transient change, or one of a set or apply that
 * never completed (its 'P' entries become 'K' when it does: journal_keep). */
static bool undone_at_exit(const struct entry *e)
{
	return e->mode == 'T' || e->mode == 'P';
}

/* Read a journal's lines from f (name for messages) into the entries. */
int journal_parse(FILE *f, const char *name)
{
	char line[PATH_MAX + 256], kind[16];
	int lineno = 0;

	nentries = 0;
	journal_boot[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		struct entry *e = &entries[nentries];
		char *fields[6], *save = NULL, *tok;
		int n = 0;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "# boot ", 7) == 0)
			snprintf(journal_boot, sizeof(journal_boot), "%s", line + 7);
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (nentries >= JOURNAL_MAX)
			return error("journal '%s' has more than %d entries", name, JOURNAL_MAX);
		for (tok = strtok_r(line, "\t", &save); tok && n < 6; tok = strtok_r(NULL, "\t", &save))
			fields[n++] = tok;
		if (n < 5 || sscanf(fields[0], "%15s", kind) != 1 || strlen(fields[1]) != 1)
			return error("journal '%s' line %d is damaged; fix or remove it by hand", name, lineno);
		memset(e, 0, sizeof(*e));
		snprintf(e->kind, sizeof(e->kind), "%s", kind);
		e->mode = fields[1][0];
		e->pid = strtol(fields[2], NULL, 10);
		snprintf(e->name, sizeof(e->name), "%s", fields[3]);
		snprintf(e->path, sizeof(e->path), "%s", fields[4]);
		if (n == 6)
			snprintf(e->raw, sizeof(e->raw), "%s", fields[5]);
		nentries++;
	}
	return 0;
}

static int journal_load(void)
{
	char path[PATH_MAX];
	FILE *f;
	int fd, rc;

	nentries = 0;
	journal_boot[0] = '\0';
	fd = open(vt_state_path(path, sizeof(path), "journal"), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f)
		return errno == ENOENT ? 0 : error("cannot read journal '%s': %s", path, strerror(errno));
	rc = journal_parse(f, path);
	fclose(f);
	return rc;
}

/* This boot's id: knob values do not survive a reboot, swapfiles do. */
static const char *boot_id(char *buf, size_t size)
{
	char p[PATH_MAX];

	if (read_small_file(vt_path(p, sizeof(p), "/proc/sys/kernel/random/boot_id"), buf, size) < 0)
		buf[0] = '\0';
	return buf;
}

/* Is the journal from an earlier boot? Then its knob entries are void: the kernel
 * started from its defaults (and whatever sysctl.d or a boot profile set since),
 * and writing the old originals back would undo those. */
static bool from_earlier_boot(void)
{
	char now[64];

	return journal_boot[0] && boot_id(now, sizeof(now))[0] && strcmp(now, journal_boot) != 0;
}

/* Write the whole journal atomically: tmp file, fsync, rename, fsync dir. */
static int journal_save(void)
{
	char boot[64];
	char path[PATH_MAX], tmp[PATH_MAX];
	FILE *f;
	int i, r;

	vt_state_path(path, sizeof(path), "journal");
	if (nentries == 0) {
		if (unlink(path) < 0 && errno != ENOENT)
			return error("cannot remove journal '%s': %s", path, strerror(errno));
		file_sync_dir(path);
		return 0;
	}
	f = file_atomic_open(path, tmp);
	if (!f)
		return error("cannot write journal '%s': %s", tmp, strerror(errno));
	fprintf(f, "%s\n", JOURNAL_HEADER);
	if (boot_id(boot, sizeof(boot))[0])
		fprintf(f, "# boot %s\n", boot);
	for (i = 0; i < nentries; i++) {
		const struct entry *e = &entries[i];
		fprintf(f, "%s\t%c\t%ld\t%s\t%s\t%s\n", e->kind, e->mode, e->pid, e->name[0] ? e->name : "-", e->path,
			e->raw);
	}
	crashpoint("journal-before-rename");
	if ((r = file_atomic_commit(f, tmp, path, 0600)) < 0)
		return error("cannot write journal '%s': %s", path, strerror(-r));
	return 0;
}

static void on_signal(int sig)
{
	vt_interrupted = sig;
}

/* SIGABRT (a library's abort, a failed assertion), SIGSEGV and the like: no code
 * may run but what is async-signal-safe. Put back this process's own knob files
 * from the journal in memory with open/write/close (of a ratio/bytes pair, the
 * member in force), leave the journal file as it is for `vmtune restore` and the
 * next command's warning (cgroups and swapfiles too), then die of the signal. */
static void on_fatal(int sig)
{
	pid_t me = getpid();

	for (int i = nentries - 1; i >= 0; i--) {
		const struct entry *e = &entries[i];
		const struct knob_def *d;
		char buf[sizeof(e->raw) + 1];
		size_t len = strlen(e->raw);
		int fd;

		if (!is_knob(e) || !undone_at_exit(e) || e->pid != (long)me || !(d = knob_find(e->name)))
			continue;
		if (d->pair && strcmp(e->raw, "0") == 0)
			continue; /* its partner's write restores it */
		memcpy(buf, e->raw, len);
		buf[len] = '\n';
		if ((fd = open(e->path, O_WRONLY | O_CLOEXEC)) >= 0) {
			if (write(fd, buf, len + 1) < 0) { /* nothing more can be done here */
			}
			close(fd);
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* One lock for the whole system (under --root, for that tree): two vmtune
 * processes cannot change settings at once, whatever their state dirs. */
#define LOCK_PATH "/run/vmtune.lock"

static int lock_take(void)
{
	char path[PATH_MAX], buf[32];
	int fd;

	vt_path(path, sizeof(path), "/run");
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return error("cannot create '%s' for the lock: %s", path, strerror(errno));
	fd = open(vt_path(path, sizeof(path), LOCK_PATH), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return error("cannot open lock '%s': %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
		buf[n > 0 ? n : 0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		close(fd);
		return error(
		    "another vmtune (pid %s) is changing settings (lock '%s'); wait for it to finish or stop it",
		    buf[0] ? buf : "?", path);
	}
	if (ftruncate(fd, 0) == 0) {
		snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
		if (pwrite(fd, buf, strlen(buf), 0) < 0)
			warning("cannot record pid in '%s': %s", path, strerror(errno));
	}
	lock_fd = fd;
	return 0;
}

/* Is some live vmtune holding the lock? */
static bool lock_busy(void)
{
	char path[PATH_MAX];
	int fd = open(vt_path(path, sizeof(path), LOCK_PATH), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	bool busy = false;

	if (fd < 0)
		return false;
	if (flock(fd, LOCK_SH | LOCK_NB) < 0)
		busy = errno == EWOULDBLOCK;
	close(fd);
	return busy;
}

static void session_atexit(void)
{
	session_end();
}

int session_begin(void)
{
	struct sigaction sa;

	if (in_session)
		return 0;
	if (vt_state_dir_ensure() < 0)
		return EXIT_ENV;
	if (lock_take() < 0)
		return EXIT_ENV;
	{
		/* a journal.tmp under the lock is a save that a killed vmtune never
		 * committed: what it adds was not written yet (the journal comes first) */
		char tmp[PATH_MAX];
		if (unlink(vt_state_path(tmp, sizeof(tmp), "journal.tmp")) == 0)
			verbose("removed %s, the uncommitted save of a vmtune that was killed", tmp);
	}
	if (journal_load() < 0) {
		close(lock_fd);
		lock_fd = -1;
		return EXIT_INTERNAL;
	}
	if (from_earlier_boot()) {
		int i, dropped = 0;
		for (i = nentries - 1; i >= 0; i--)
			if (is_knob(&entries[i])) {
				drop_entry(i);
				dropped++;
			}
		if (dropped)
			info("the journal in %s is from before the last reboot: %d knob entr%s dropped (the kernel "
			     "reset those at boot; writing them back would undo what was set since)",
			     vt_state_dir(), dropped, dropped == 1 ? "y" : "ies");
		if (journal_save() < 0) {
			close(lock_fd);
			lock_fd = -1;
			return EXIT_ENV;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: blocking calls return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL); /* `vmtune -v search ... | head`: stop and restore */
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	in_session = true;
	if (!atexit_registered)
		atexit(session_atexit);
	atexit_registered = true;
	return 0;
}

static bool entry_present(const char *path, char mode, long pid)
{
	int i;

	for (i = 0; i < nentries; i++) {
		if (!is_knob(&entries[i]) || strcmp(entries[i].path, path) != 0)
			continue;
		if (mode == 'P' && entries[i].mode == 'K')
			return true; /* an earlier set's original is the true one */
		if (mode == entries[i].mode && mode != 'K' && entries[i].pid == pid)
			return true;
	}
	return false;
}

int journal_knob(const struct knob_state *st, bool keep)
{
	struct knob_file files[KNOB_MAX_FILES];
	int n, i, added = 0;
	char mode = keep ? 'P' : 'T';

	if (!in_session)
		return error("internal error: knob write outside a session");
	n = knob_files(st, files, KNOB_MAX_FILES);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct entry *e;

		if (entry_present(files[i].path, mode, (long)getpid()))
			continue;
		if (strpbrk(files[i].raw, "\t\n"))
			return error("%s: value in %s cannot be journalled", files[i].name, files[i].path);
		if (nentries >= JOURNAL_MAX)
			return error("journal is full (%d entries); run 'vmtune restore'", JOURNAL_MAX);
		e = &entries[nentries++];
		memset(e, 0, sizeof(*e));
		snprintf(e->kind, sizeof(e->kind), "%s", KNOB_KIND);
		e->mode = mode;
		e->pid = (long)getpid();
		snprintf(e->name, sizeof(e->name), "%s", files[i].name);
		snprintf(e->path, sizeof(e->path), "%s", files[i].path);
		snprintf(e->raw, sizeof(e->raw), "%s", files[i].raw);
		added++;
	}
	return added ? journal_save() : 0;
}

int journal_keep(void)
{
	int i, n = 0;

	for (i = 0; i < nentries; i++)
		if (entries[i].mode == 'P' && entries[i].pid == (long)getpid()) {
			entries[i].mode = 'K';
			n++;
		}
	return n ? journal_save() : 0;
}

int journal_resource(const struct journal_kind *kind, const char *path)
{
	struct entry *e;

	if (!in_session)
		return error("internal error: resource created outside a session");
	if (nentries >= JOURNAL_MAX)
		return error("journal is full (%d entries); run 'vmtune restore'", JOURNAL_MAX);
	e = &entries[nentries++];
	memset(e, 0, sizeof(*e));
	journal_register(kind);
	snprintf(e->kind, sizeof(e->kind), "%s", kind->name);
	e->mode = 'T';
	e->pid = (long)getpid();
	snprintf(e->name, sizeof(e->name), "-");
	snprintf(e->path, sizeof(e->path), "%s", path);
	return journal_save();
}

static void drop_entry(int i)
{
	memmove(&entries[i], &entries[i + 1], (size_t)(nentries - i - 1) * sizeof(entries[0]));
	nentries--;
}

int journal_forget(const struct journal_kind *kind, const char *path)
{
	int i;

	for (i = nentries - 1; i >= 0; i--) {
		if (strcmp(entries[i].kind, kind->name) == 0 && strcmp(entries[i].path, path) == 0) {
			drop_entry(i);
			return journal_save();
		}
	}
	return 0;
}

/* Undo the selected entries: the resources newest first, then the knob files
 * (knob_files_restore). Entries that were put back leave the journal; the rest
 * stay for a later `vmtune restore`. */
static int undo(bool *sel, int *count)
{
	static struct knob_file files[JOURNAL_MAX];
	bool ok[JOURNAL_MAX];
	int idx[JOURNAL_MAX], i, k, nf = 0, failed = 0, done = 0;

	for (i = nentries - 1; i >= 0; i--) {
		struct entry *e = &entries[i];
		const struct journal_kind *kind;
		int r;

		if (!sel[i] || is_knob(e))
			continue;
		if ((kind = kind_find(e->kind)) && kind->valid(e->path))
			r = kind->undo(e->path);
		else if (kind)
			r = error("journal entry %s '%s' names nothing vmtune makes; left alone (remove it by hand)",
				  e->kind, e->path);
		else
			r = error("journal entry of unknown kind '%s' (%s) left alone; remove it by hand", e->kind,
				  e->path);
		if (r < 0) {
			failed++;
			sel[i] = false; /* stays in the journal */
		} else {
			done++;
		}
	}
	crashpoint("restore-midway"); /* the resources undone, the knobs not yet */
	for (i = 0; i < nentries; i++) {
		if (!sel[i] || !is_knob(&entries[i]))
			continue;
		snprintf(files[nf].name, sizeof(files[nf].name), "%s", entries[i].name);
		snprintf(files[nf].path, sizeof(files[nf].path), "%s", entries[i].path);
		snprintf(files[nf].raw, sizeof(files[nf].raw), "%s", entries[i].raw);
		idx[nf++] = i;
	}
	if (nf)
		knob_files_restore(files, nf, ok, NULL);
	for (k = 0; k < nf; k++) {
		if (ok[k]) {
			done++;
		} else {
			sel[idx[k]] = false; /* stays in the journal */
			failed++;
		}
	}
	for (i = nentries - 1; i >= 0; i--)
		if (sel[i])
			drop_entry(i);
	if (count)
		*count = done;
	if (journal_save() < 0)
		return -1;
	return failed ? -1 : 0;
}

int journal_undo_transient(void)
{
	bool sel[JOURNAL_MAX] = { false };
	int i, any = 0, r;

	if (!in_session)
		return 0;
	for (i = 0; i < nentries; i++) {
		sel[i] = undone_at_exit(&entries[i]) && entries[i].pid == (long)getpid();
		any |= sel[i];
	}
	if (!any)
		return 0;
	r = undo(sel, NULL);
	if (r < 0)
		error("some settings could not be put back; run 'vmtune restore'");
	return r;
}

int session_end(void)
{
	int r;

	if (!in_session) {
		knob_debugfs_release();
		return 0;
	}
	r = journal_undo_transient();
	in_session = false;
	knob_debugfs_release();
	if (lock_fd >= 0) {
		close(lock_fd);
		lock_fd = -1;
	}
	return r;
}

int journal_restore_all(int *count)
{
	bool sel[JOURNAL_MAX];
	int i;

	for (i = 0; i < nentries; i++)
		sel[i] = true;
	return undo(sel, count);
}

void journal_warn_stale(void)
{
	char path[PATH_MAX];
	int i, knobs = 0;
	long pid = 0;
	char extra[PATH_MAX * 2] = "";
	bool old_boot;

	if (access(vt_state_path(path, sizeof(path), "journal"), F_OK) < 0)
		return;
	if (lock_busy())
		return; /* a live vmtune owns the transient entries */
	if (journal_load() < 0)
		return;
	old_boot = from_earlier_boot();
	for (i = 0; i < nentries; i++) {
		if (!undone_at_exit(&entries[i]) || (old_boot && is_knob(&entries[i])))
			continue; /* kept on purpose, or void since the reboot */
		pid = entries[i].pid;
		if (is_knob(&entries[i]))
			knobs += !knob_file_holds(entries[i].path,
						  entries[i].raw); /* a crash handler may have put it back */
		else {
			size_t n = strlen(extra);
			snprintf(extra + n, sizeof(extra) - n, ", %s %s", entries[i].kind, entries[i].path);
		}
	}
	if (pid && old_boot && extra[0])
		warning("vmtune (pid %ld) ended without restoring before the last reboot (its knob changes did not "
			"survive it); left over: %s; run 'vmtune restore' to remove them",
			pid, extra + 2);
	else if (pid && !old_boot)
		warning("vmtune (pid %ld) ended without restoring: %d knob file(s)%s still changed; "
			"run 'vmtune restore' to put them back",
			pid, knobs, extra);
}
