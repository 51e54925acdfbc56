/* tools.c - fio, stress-ng, sysbench, Redis and PostgreSQL as workloads. Each spec
 * is "TOOL:" and the tool's own options; vmtune adds only what it needs to read the
 * tool's numbers (fio's JSON, stress-ng's YAML, redis-benchmark's CSV, pgbench's
 * per-transaction log) and, for a server, where it lives. A server (redis-server,
 * postgres) is started for every run inside the run's memory cgroup, so the
 * pressure vmtune sets up is the server's; the client (redis-benchmark, pgbench)
 * runs outside it. The data a server reads (the Redis keyspace, pgbench's tables)
 * is built once per process and spec, before the first run, and kept out of every
 * measured time; it lives in a directory journalled before it is made, removed
 * with the server stopped when the command ends, and by `vmtune restore` after a
 * kill -9. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <grp.h>
#include <json-c/json.h>
#include <libpq-fe.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wordexp.h>
#include <yaml.h>

#include "extract.h"
#include "text.h"
#include "tools.h"
#include "vmtune.h"

const struct tool tools[] = {
	{ "fio", "fio", "fio", "iops",
	  "fio's jobs, read from its JSON (IOPS, bandwidth, completion-latency percentiles)", false },
	{ "stress-ng", "stress-ng", "stress-ng", "bogo_ops_s",
	  "stress-ng's stressors, bogo ops/s from its YAML metrics", false },
	{ "sysbench", "sysbench", "sysbench", "events_s",
	  "a sysbench test (memory, cpu, fileio ...): rates and latency", false },
	{ "redis", "redis-server, redis-tools", "redis-benchmark", "rps",
	  "redis-server in the cgroup holding keyspace -r of -d bytes, redis-benchmark's CSV from outside", true },
	{ "pgbench", "postgresql", "pgbench", "tps",
	  "a PostgreSQL server in the cgroup, pgbench's tables at scale -s, pgbench from outside", true },
	{ NULL, NULL, NULL, NULL, NULL, false },
};

/* Every metric a tool reports, and its direction ('+' higher is better). A name
 * ending in '*' covers the names it begins; per job or per test the same names
 * come after "NAME.". */
static const char *const metric_table[][16] = {
	{ "iops+", "read_iops+", "write_iops+", "read_mib_s+", "write_mib_s+", "read_clat_p50_ms-", "read_clat_p95_ms-",
	  "read_clat_p99_ms-", "read_clat_p999_ms-", "write_clat_p50_ms-", "write_clat_p95_ms-", "write_clat_p99_ms-",
	  "write_clat_p999_ms-", NULL },
	{ "bogo_ops_s+", "bogo_ops+", NULL },
	{ "events_s+", "ops_s+", "mib_s+", "tps+", "lat_min_ms-", "lat_avg_ms-", "lat_max_ms-", "lat_p*-", "total_s-",
	  NULL },
	{ "rps+", "avg_ms-", "min_ms-", "p50_ms-", "p95_ms-", "p99_ms-", "max_ms-", NULL },
	{ "tps+", "lat_avg_ms-", "lat_p50_ms-", "lat_p95_ms-", "lat_p99_ms-", "lat_max_ms-", NULL },
};

const struct tool *tool_of(const char *spec, const char **args)
{
	for (int i = 0; tools[i].name; i++) {
		size_t n = strlen(tools[i].name);
		if (strncmp(spec, tools[i].name, n) == 0 && spec[n] == ':') {
			if (args)
				*args = spec + n + 1;
			return &tools[i];
		}
	}
	return NULL;
}

static int tool_index(const struct tool *t)
{
	return (int)(t - tools);
}

static bool in_path(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH");
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s", path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (char *save, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, size, "%s/%s", d, name);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

int tool_binary(const struct tool *t, char *out, size_t size)
{
	if (in_path(t->binary, out, size))
		return 0;
	return error("%s: the program '%s' is not installed (Debian's %s; `make` installs it)", t->name, t->binary,
		     t->package);
}

int tool_metric(const struct tool *t, const char *name, bool *maximize)
{
	const char *const *m = metric_table[tool_index(t)];
	const char *base = strrchr(name, '.') ? strrchr(name, '.') + 1 : name;
	char list[512] = "";

	for (int i = 0; m[i]; i++) {
		size_t len = strlen(m[i]) - 1;
		bool star = m[i][len - 1] == '*';
		if (star ? strncmp(base, m[i], len - 1) == 0 && base[len - 1]
			 : strncmp(base, m[i], len) == 0 && base[len] == '\0') {
			*maximize = m[i][len] == '+';
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%.*s (%s)", i ? ", " : "", (int)len, m[i],
			 m[i][len] == '+' ? "higher is better" : "lower is better");
	}
	if (strcmp(name, "elapsed") == 0) {
		*maximize = false;
		return 0;
	}
	return error("%s reports no metric '%s'; it reports %s, each also per job or test as NAME.METRIC, and elapsed",
		     t->name, name, list);
}

/* --- words ------------------------------------------------------------------------ */

struct words {
	int n;
	char **w;
};

static int split(const char *tool, const char *args, struct words *ws)
{
	wordexp_t we;
	int r = wordexp(args, &we, WRDE_NOCMD);

	ws->n = 0;
	ws->w = NULL;
	if (r != 0)
		return error("%s: its options cannot be split into words (unbalanced quotes or $(...)?)", tool);
	ws->w = calloc(we.we_wordc + 1, sizeof(char *));
	for (size_t i = 0; ws->w && i < we.we_wordc; i++)
		ws->w[ws->n++] = strdup(we.we_wordv[i]);
	wordfree(&we);
	return ws->w ? 0 : error("out of memory");
}

static void words_free(struct words *ws)
{
	for (int i = 0; i < ws->n; i++)
		free(ws->w[i]);
	free(ws->w);
	ws->w = NULL;
	ws->n = 0;
}

/* Is word w option name (as "-x", "-xVALUE", "--long" or "--long=VALUE")? */
static bool is_opt(const char *w, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(w, name, n) != 0)
		return false;
	if (name[1] == '-')
		return w[n] == '\0' || w[n] == '=';
	return true; /* a short option, its value joined or not */
}

/* The value of an option with an argument at word i (joined or the next word). */
static const char *opt_value(const struct words *ws, int *i, const char *name)
{
	const char *w = ws->w[*i];
	size_t n = strlen(name);

	if (w[n] == '=' && name[1] == '-')
		return w + n + 1;
	if (w[n] && name[1] != '-')
		return w + n;
	if (*i + 1 < ws->n)
		return ws->w[++*i];
	return NULL;
}

/* --- the argv --------------------------------------------------------------------- */

struct argv_b {
	int n, cap;
	char **v;
};

static void add(struct argv_b *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct argv_b *a, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? 2 * a->cap : 32;
		a->v = realloc(a->v, (size_t)a->cap * sizeof(char *));
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

/* --- the tool's data directory ---------------------------------------------------- */

#define PG_DATA_PREFIX "/var/tmp/vmtune-pg-"

static bool data_dir_ours(const char *path)
{
	const char *sd = vt_state_dir(), *base = strrchr(path, '/');
	size_t n = strlen(sd);

	if (!base || path[0] != '/' || strstr(path, "/../") || strstr(path, "/./") || strchr(path, '\n'))
		return false;
	if (strncmp(path, PG_DATA_PREFIX, strlen(PG_DATA_PREFIX)) == 0 && !strchr(path + strlen(PG_DATA_PREFIX), '/'))
		return true;
	return strncmp(path, sd, n) == 0 && path + n == base && strncmp(base + 1, "data-", 5) == 0;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return (flag == FTW_DP ? rmdir(p) : unlink(p)) < 0 && errno != ENOENT ? -1 : 0;
}

/* SIGKILL every process whose working directory is inside dir (the servers chdir
 * into their data), then wait until each one killed is gone from /proc, reaped,
 * not a zombie still counted (at most 10 s). */
static void kill_inside(const char *dir)
{
	size_t n = strlen(dir);
	pid_t killed[256];
	int nk = 0;

	for (int round = 0; round < 50; round++) {
		DIR *d = opendir("/proc");
		struct dirent *e;
		int found = 0;

		if (!d)
			break;
		while ((e = readdir(d))) {
			char link[64], cwd[4096];
			ssize_t len;

			if (e->d_name[0] < '0' || e->d_name[0] > '9')
				continue;
			snprintf(link, sizeof(link), "/proc/%s/cwd", e->d_name);
			len = readlink(link, cwd, sizeof(cwd) - 1);
			if (len <= 0)
				continue;
			cwd[len] = '\0';
			if (strncmp(cwd, dir, n) == 0 && (cwd[n] == '\0' || cwd[n] == '/' || cwd[n] == ' ')) {
				pid_t pid = (pid_t)atol(e->d_name);
				kill(pid, SIGKILL);
				if (nk < (int)(sizeof(killed) / sizeof(killed[0])))
					killed[nk++] = pid;
				found++;
			}
		}
		closedir(d);
		if (!found)
			break;
		/* our own children: reap them, so that they are gone, not zombies */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		usleep(100 * 1000);
	}
	for (int t = 0; t < 200; t++) {
		int left = 0;
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		for (int i = 0; i < nk; i++)
			left += kill(killed[i], 0) == 0;
		if (!left)
			return;
		usleep(50 * 1000);
	}
}

static int data_undo(const char *path)
{
	if (!data_dir_ours(path))
		return error("journal: %s is not a tool data directory of vmtune's", path);
	kill_inside(path);
	if (nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0 && errno != ENOENT)
		return error("cannot remove %s: %s", path, strerror(errno));
	return 0;
}

const struct journal_kind tool_data_journal_kind = { .name = "tooldata", .undo = data_undo, .valid = data_dir_ours };

/* The data directories made by this process, by what they hold. */
static struct made {
	char key[1024], dir[4096];
} made[16];
static int nmade;

/* A directory for key: the one made before when it is still there (*fresh false),
 * else a new one, journalled first (*fresh true). pg: outside the state dir, for
 * the postgres user (the state dir is root's alone). */
static int data_dir(const char *tool, const char *key, bool pg, char *dir, size_t size, bool *fresh)
{
	static int seq;
	struct stat st;
	int i;

	for (i = 0; i < nmade; i++)
		if (strcmp(made[i].key, key) == 0) {
			if (stat(made[i].dir, &st) == 0) {
				snprintf(dir, size, "%s", made[i].dir);
				*fresh = false;
				return 0;
			}
			break;
		}
	if (pg)
		snprintf(dir, size, PG_DATA_PREFIX "%ld-%d", (long)getpid(), ++seq);
	else
		snprintf(dir, size, "%s/data-%s-%ld-%d", vt_state_dir(), tool, (long)getpid(), ++seq);
	if (journal_resource(&tool_data_journal_kind, dir) < 0)
		return -1;
	if (mkdir(dir, 0700) < 0)
		return error("cannot create %s: %s", dir, strerror(errno));
	if (i == nmade && nmade < (int)(sizeof(made) / sizeof(made[0])))
		nmade++;
	if (i < (int)(sizeof(made) / sizeof(made[0]))) {
		snprintf(made[i].key, sizeof(made[i].key), "%s", key);
		snprintf(made[i].dir, sizeof(made[i].dir), "%s", dir);
	}
	*fresh = true;
	return 0;
}

/* Forget a directory whose data could not be built: the next run starts again. */
static void data_drop(const char *dir)
{
	for (int i = 0; i < nmade; i++)
		if (strcmp(made[i].dir, dir) == 0)
			made[i].key[0] = '\0';
	data_undo(dir);
	journal_forget(&tool_data_journal_kind, dir);
}

/* --- servers ---------------------------------------------------------------------- */

struct server {
	pid_t pid;
	char log[4200];
	const char *what;
};

/* The last lines of a server's log, one line, for a message. */
static const char *log_tail(const char *path, char *out, size_t size)
{
	char buf[4096], safe[4096 * 4];
	FILE *f = fopen(path, "re");
	size_t n = 0;
	long end;

	out[0] = '\0';
	if (!f)
		return out;
	fseek(f, 0, SEEK_END);
	end = ftell(f);
	fseek(f, end > 600 ? end - 600 : 0, SEEK_SET);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
	text_safe(buf, safe, sizeof(safe));
	snprintf(out, size, "%s", safe);
	return out;
}

/* Start argv in dir (its log there), in cg when given, as user pw when given. */
static int server_spawn(struct server *s, char *const argv[], const char *dir, const char *log, const struct cgroup *cg,
			const struct passwd *pw)
{
	pid_t parent = getpid();

	snprintf(s->log, sizeof(s->log), "%s", log);
	s->pid = fork();
	if (s->pid < 0)
		return error("fork: %s", strerror(errno));
	if (s->pid == 0) {
		sigset_t none;
		int fd;

		setpgid(0, 0);
		if (cg && cgroup_attach(cg, getpid()) < 0)
			_exit(126);
		fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		if ((fd = open("/dev/null", O_RDONLY)) >= 0)
			dup2(fd, 0);
		if (pw && (fchown(1, pw->pw_uid, pw->pw_gid) < 0 || setgroups(0, NULL) < 0 || setgid(pw->pw_gid) < 0 ||
			   setuid(pw->pw_uid) < 0))
			_exit(126);
		if (chdir(dir) < 0)
			_exit(126);
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* after setuid, which clears it */
		if (getppid() != parent)
			_exit(126);
		for (int sig = 1; sig < NSIG; sig++)
			signal(sig, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execv(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(s->pid, s->pid);
	return 0;
}

static bool server_alive(struct server *s, int *status)
{
	return s->pid > 0 && waitpid(s->pid, status, WNOHANG) == 0;
}

static int server_died(struct server *s, int status)
{
	char tail[700];

	s->pid = -1;
	return error("%s %s before it answered (%s %d); its log %s ends: %s", s->what,
		     WIFSIGNALED(status) ? "was killed" : "exited", WIFSIGNALED(status) ? "signal" : "status",
		     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), s->log,
		     log_tail(s->log, tail, sizeof(tail)));
}

/* Stop it with sig, then SIGKILL after wait seconds; reaped either way. */
static void server_stop(struct server *s, int sig, double wait)
{
	int st;

	if (s->pid <= 0)
		return;
	kill(s->pid, sig);
	for (double t = 0; t < wait; t += 0.05) {
		if (waitpid(s->pid, &st, WNOHANG) != 0) {
			s->pid = -1;
			return;
		}
		usleep(50 * 1000);
	}
	kill(-s->pid, SIGKILL);
	kill(s->pid, SIGKILL);
	waitpid(s->pid, &st, 0);
	s->pid = -1;
}

/* --- Redis ------------------------------------------------------------------------ */

static int unix_connect(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct timeval tv = { 30, 0 };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* One command, one line of reply into reply (without CRLF). */
static int redis_cmd(const char *sock, const char *cmd, char *reply, size_t size)
{
	int fd = unix_connect(sock);
	size_t n = 0;

	reply[0] = '\0';
	if (fd < 0)
		return -1;
	if (write_all(fd, cmd, strlen(cmd)) < 0) {
		close(fd);
		return -1;
	}
	while (n + 1 < size) {
		ssize_t r = read(fd, reply + n, 1);
		if (r <= 0 || reply[n] == '\n')
			break;
		n++;
	}
	close(fd);
	while (n && (reply[n - 1] == '\r' || reply[n - 1] == '\n'))
		n--;
	reply[n] = '\0';
	return 0;
}

/* Wait until the server answers PING with PONG (not LOADING): 0, or -1 said. */
static int redis_wait(struct server *s, const char *sock, double timeout)
{
	double end = vt_now() + timeout;
	char reply[256];
	int st;

	while (vt_now() < end && !vt_interrupted) {
		if (!server_alive(s, &st))
			return server_died(s, st);
		if (redis_cmd(sock, "PING\r\n", reply, sizeof(reply)) == 0 && strcmp(reply, "+PONG") == 0)
			return 0;
		usleep(50 * 1000);
	}
	if (vt_interrupted)
		return -1;
	return error("%s did not answer within %.0f s (log: %s)", s->what, timeout, s->log);
}

struct redis_data {
	long keys, size;
};

static int redis_opts(const struct words *ws, struct redis_data *d, char *why, size_t whysize)
{
	d->keys = 0;
	d->size = 3; /* redis-benchmark's default -d */
	for (int i = 0; i < ws->n; i++) {
		const char *w = ws->w[i], *v;
		char *end;
		long *into = NULL;

		if (is_opt(w, "-h") || is_opt(w, "-p") || is_opt(w, "-s") || is_opt(w, "-u") || is_opt(w, "-a") ||
		    is_opt(w, "--user")) {
			snprintf(why, whysize,
				 "redis: %s is vmtune's to set (the server it starts has its own unix socket)", w);
			return -1;
		}
		if (is_opt(w, "-r"))
			into = &d->keys;
		else if (is_opt(w, "-d"))
			into = &d->size;
		if (!into)
			continue;
		v = opt_value(ws, &i, into == &d->keys ? "-r" : "-d");
		errno = 0;
		*into = v ? strtol(v, &end, 10) : 0;
		if (!v || errno || *end || *into <= 0 || *into > (into == &d->keys ? 100000000L : 1L << 24)) {
			snprintf(why, whysize, "redis: %s needs a positive number (got '%s')",
				 into == &d->keys ? "-r" : "-d", v ? v : "");
			return -1;
		}
	}
	if (!d->keys) {
		snprintf(why, whysize,
			 "redis: give -r KEYSPACE: vmtune loads every key of it (-d bytes each) into the server before "
			 "the first run, and redis-benchmark reads them");
		return -1;
	}
	return 0;
}

static void redis_conf(const char *dir)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/redis.conf", dir);
	f = fopen(path, "we");
	if (!f)
		return;
	fprintf(f,
		"port 0\nunixsocket %s/redis.sock\nunixsocketperm 700\ndir %s\ndbfilename dump.rdb\nsave \"\"\n"
		"appendonly no\ndaemonize no\nprotected-mode yes\nlogfile \"\"\n",
		dir, dir);
	fclose(f);
}

static char **redis_server_argv(const char *dir)
{
	static char bin[4096], conf[4200];
	static char *argv[3];

	if (!in_path("redis-server", bin, sizeof(bin)))
		return NULL;
	snprintf(conf, sizeof(conf), "%s/redis.conf", dir);
	argv[0] = bin;
	argv[1] = conf;
	argv[2] = NULL;
	return argv;
}

/* Every key of the keyspace, as redis-benchmark names them (key:%012d), with
 * -d bytes of letters each (not one repeated byte: zram and zswap would
 * compress the whole set to nothing), in batches, then SAVE. */
static int redis_load(const char *sock, const struct redis_data *d)
{
	const long batch = 1000;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t cap = (size_t)batch * ((size_t)d->size + 64);
	char *buf = malloc(cap), reply[6 * 1000 + 1];
	int fd = unix_connect(sock), rc = 0;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return error("redis: cannot connect to the server to load the keyspace");
	}
	for (long k = 0; k < d->keys && rc == 0 && !vt_interrupted; k += batch) {
		long m = d->keys - k < batch ? d->keys - k : batch;
		size_t n = 0, want = 5 * (size_t)m, got = 0;

		for (long j = 0; j < m; j++) {
			n += (size_t)sprintf(buf + n, "*3\r\n$3\r\nSET\r\n$16\r\nkey:%012ld\r\n$%ld\r\n", k + j,
					     d->size);
			for (long b = 0; b < d->size; b++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				buf[n++] = (char)('a' + x % 26);
			}
			buf[n++] = '\r';
			buf[n++] = '\n';
		}
		if (write_all(fd, buf, n) < 0)
			rc = error("redis: the server stopped taking the keyspace at key %ld", k);
		while (rc == 0 && got < want) {
			ssize_t r = read(fd, reply + got, want - got);
			if (r <= 0)
				rc = error("redis: the server stopped answering while loading (at key %ld)", k);
			else
				got += (size_t)r;
		}
		reply[got] = '\0';
		if (rc == 0 && (reply[0] != '+' || strstr(reply, "-"))) {
			char safe[200];
			reply[strcspn(reply, "\r")] = '\0';
			rc = error("redis: loading the keyspace: %s", text_safe(reply, safe, sizeof(safe)));
		}
	}
	close(fd);
	free(buf);
	if (rc == 0 && vt_interrupted)
		rc = -1;
	if (rc == 0 && (redis_cmd(sock, "SAVE\r\n", reply, sizeof(reply)) < 0 || strcmp(reply, "+OK") != 0))
		rc = error("redis: SAVE of the loaded keyspace failed: %s", reply);
	return rc;
}

/* --- PostgreSQL ------------------------------------------------------------------- */

static int pg_bin(const char *name, char *out, size_t size)
{
	glob_t g;
	int rc = -1;

	if (glob("/usr/lib/postgresql/*/bin/postgres", 0, NULL, &g) == 0 && g.gl_pathc) {
		/* the newest major version: the longest, then the greatest name */
		const char *best = g.gl_pathv[0];
		for (size_t i = 1; i < g.gl_pathc; i++)
			if (strlen(g.gl_pathv[i]) > strlen(best) ||
			    (strlen(g.gl_pathv[i]) == strlen(best) && strcmp(g.gl_pathv[i], best) > 0))
				best = g.gl_pathv[i];
		snprintf(out, size, "%.*s%s", (int)(strlen(best) - strlen("postgres")), best, name);
		rc = access(out, X_OK) == 0 ? 0 : -1;
	}
	globfree(&g);
	if (rc < 0)
		error("pgbench: PostgreSQL's %s is not installed (Debian's postgresql; `make` installs it)", name);
	return rc;
}

/* Does pgbench's option w take its argument from the next word? (its getopt:
 * b c D f F h I j L M P R s t T U p, and the long ones that take one) */
static bool pg_takes_arg(const char *w)
{
	static const char *const longs[] = { "--builtin",
					     "--client",
					     "--define",
					     "--file",
					     "--fillfactor",
					     "--host",
					     "--init-steps",
					     "--jobs",
					     "--latency-limit",
					     "--protocol",
					     "--progress",
					     "--rate",
					     "--scale",
					     "--transactions",
					     "--time",
					     "--username",
					     "--port",
					     "--aggregate-interval",
					     "--log-prefix",
					     "--max-tries",
					     "--partition-method",
					     "--partitions",
					     "--random-seed",
					     "--sampling-rate",
					     "--tablespace",
					     "--index-tablespace",
					     "--shared-buffers",
					     NULL };

	if (w[1] == '-') {
		for (int i = 0; longs[i]; i++)
			if (strcmp(w, longs[i]) == 0)
				return true;
		return false;
	}
	return w[1] && strchr("bcDfFhIjLMPRstTUp", w[1]) && w[2] == '\0';
}

struct pg_data {
	long scale;
	char shared_buffers[32];
};

static int pg_opts(struct words *ws, struct pg_data *d, char *why, size_t whysize)
{
	d->scale = 10;
	snprintf(d->shared_buffers, sizeof(d->shared_buffers), "16MB");
	for (int i = 0; i < ws->n; i++) {
		const char *w = ws->w[i], *v;
		char *end;
		int first = i;

		if (w[0] != '-') {
			snprintf(why, whysize, "pgbench: '%s': the database is vmtune's (give options only)", w);
			return -1;
		}
		if (pg_takes_arg(w) && !is_opt(w, "-s") && !is_opt(w, "--scale") && !is_opt(w, "--shared-buffers") &&
		    !is_opt(w, "-h") && !is_opt(w, "-p") && !is_opt(w, "-U") && !is_opt(w, "--host") &&
		    !is_opt(w, "--port") && !is_opt(w, "--username") && !is_opt(w, "-I") &&
		    !is_opt(w, "--log-prefix")) {
			i++; /* its argument, whatever it looks like */
			continue;
		}
		if (is_opt(w, "-i") || is_opt(w, "--initialize") || is_opt(w, "-I") || is_opt(w, "-h") ||
		    is_opt(w, "--host") || is_opt(w, "-p") || is_opt(w, "--port") || is_opt(w, "-U") ||
		    is_opt(w, "--username") || is_opt(w, "-l") || is_opt(w, "--log") || is_opt(w, "--log-prefix") ||
		    is_opt(w, "-d") || is_opt(w, "--debug")) {
			snprintf(why, whysize,
				 "pgbench: %s is vmtune's to set (it initialises the tables once, starts the server on "
				 "its own socket, and reads pgbench's per-transaction log)",
				 w);
			return -1;
		}
		if (is_opt(w, "-s") || is_opt(w, "--scale")) {
			v = opt_value(ws, &i, w[1] == '-' ? "--scale" : "-s");
			errno = 0;
			d->scale = v ? strtol(v, &end, 10) : 0;
			if (!v || errno || *end || d->scale < 1 || d->scale > 100000) {
				snprintf(why, whysize, "pgbench: -s needs a scale factor from 1 to 100000 (got '%s')",
					 v ? v : "");
				return -1;
			}
		} else if (is_opt(w, "--shared-buffers")) {
			v = opt_value(ws, &i, "--shared-buffers");
			if (!v || !*v || strlen(v) >= sizeof(d->shared_buffers) ||
			    strspn(v, "0123456789kMGBT") != strlen(v)) {
				snprintf(why, whysize, "pgbench: --shared-buffers needs a size such as 16MB (got '%s')",
					 v ? v : "");
				return -1;
			}
			snprintf(d->shared_buffers, sizeof(d->shared_buffers), "%s", v);
		} else
			continue;
		/* vmtune's: the scale is the tables', the shared buffers the server's; not pgbench's run options */
		for (int k = first; k <= i; k++)
			free(ws->w[k]);
		memmove(ws->w + first, ws->w + i + 1, (size_t)(ws->n - i - 1) * sizeof(char *));
		ws->n -= i + 1 - first;
		ws->w[ws->n] = NULL;
		i = first - 1;
	}
	return 0;
}

static int pg_run_as(char *const argv[], const char *dir, const char *log, const struct passwd *pw, double timeout)
{
	struct server s = { .what = argv[0] };
	char tail[700];
	int st = 0;

	if (server_spawn(&s, argv, dir, log, NULL, pw) < 0)
		return -1;
	for (double end = vt_now() + timeout; server_alive(&s, &st);) {
		if (vt_interrupted || vt_now() > end) {
			server_stop(&s, SIGKILL, 0);
			return vt_interrupted ? -1 : error("%s took longer than %.0f s", argv[0], timeout);
		}
		usleep(50 * 1000);
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	return error("%s failed (%s %d); %s ends: %s", argv[0], WIFSIGNALED(st) ? "signal" : "status",
		     WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st), log, log_tail(log, tail, sizeof(tail)));
}

static int pg_start(struct server *s, const char *dir, const struct pg_data *d, const struct cgroup *cg,
		    const struct passwd *pw, bool building)
{
	char bin[4096], data[4200], sock[4200], sb[64], log[4200];
	char *argv[16];
	int n = 0;

	if (pg_bin("postgres", bin, sizeof(bin)) < 0)
		return -1;
	snprintf(data, sizeof(data), "%s/data", dir);
	snprintf(sock, sizeof(sock), "unix_socket_directories=%s", dir);
	snprintf(sb, sizeof(sb), "shared_buffers=%s", d->shared_buffers);
	snprintf(log, sizeof(log), "%s/server.log", dir);
	argv[n++] = bin;
	argv[n++] = "-D";
	argv[n++] = data;
	argv[n++] = "-c";
	argv[n++] = "listen_addresses=";
	argv[n++] = "-c";
	argv[n++] = sock;
	argv[n++] = "-c";
	argv[n++] = sb;
	if (building) { /* the tables are built once; their durability is nobody's concern */
		argv[n++] = "-c";
		argv[n++] = "fsync=off";
	}
	argv[n] = NULL;
	s->what = "postgres";
	return server_spawn(s, argv, data, log, cg, pw);
}

static int pg_wait(struct server *s, const char *dir, double timeout)
{
	char conn[4300];
	double end = vt_now() + timeout;
	int st;

	snprintf(conn, sizeof(conn), "host=%s dbname=postgres user=postgres connect_timeout=5", dir);
	while (vt_now() < end && !vt_interrupted) {
		if (!server_alive(s, &st))
			return server_died(s, st);
		if (PQping(conn) == PQPING_OK)
			return 0;
		usleep(50 * 1000);
	}
	return vt_interrupted ? -1 : error("postgres did not answer within %.0f s (log: %s)", timeout, s->log);
}

/* initdb, the tables at the scale, then a clean stop (its checkpoint). */
static int pg_build(const char *dir, const struct pg_data *d, const struct passwd *pw)
{
	char initdb[4096], pgb[4096], data[4200], log[4200], scale[32];
	struct server s;
	int rc;

	if (pg_bin("initdb", initdb, sizeof(initdb)) < 0)
		return -1;
	if (!in_path("pgbench", pgb, sizeof(pgb)))
		return error("pgbench: the program is not installed (Debian's postgresql-client)");
	if (chown(dir, pw->pw_uid, pw->pw_gid) < 0)
		return error("cannot give %s to the postgres user: %s", dir, strerror(errno));
	snprintf(data, sizeof(data), "%s/data", dir);
	snprintf(log, sizeof(log), "%s/build.log", dir);
	{
		char *argv[] = {
			initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", NULL
		};
		if (pg_run_as(argv, dir, log, pw, 300) < 0)
			return -1;
	}
	if (pg_start(&s, dir, d, NULL, pw, true) < 0)
		return -1;
	if ((rc = pg_wait(&s, dir, 120)) == 0) {
		char host[4200],
		    *argv[] = { pgb, "-i", "-q", "-s", scale, "-h", host, "-U", "postgres", "postgres", NULL };
		snprintf(scale, sizeof(scale), "%ld", d->scale);
		snprintf(host, sizeof(host), "%s", dir);
		rc = pg_run_as(argv, dir, log, NULL, 3600);
	}
	server_stop(&s, SIGINT, 120);
	return rc;
}

/* --- one run ---------------------------------------------------------------------- */

struct tool_run {
	const struct tool *t;
	struct server srv;
	char dir[4096], file[4200];
	struct argv_b a;
};

/* A data file the build wrote: written back and out of the page cache. */
static int evict_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	int fd;

	(void)st;
	(void)ftw;
	if (type != FTW_F || (fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return 0;
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return 0;
}

static int build_data(struct tool_run *tr, const struct words *ws, const char *args, const struct passwd *pw,
		      struct redis_data *rd, struct pg_data *pd, bool *fresh)
{
	char key[1024];
	const struct tool *t = tr->t;

	if (strcmp(t->name, "redis") == 0)
		snprintf(key, sizeof(key), "redis -r %ld -d %ld", rd->keys, rd->size);
	else if (strcmp(t->name, "pgbench") == 0)
		snprintf(key, sizeof(key), "pgbench -s %ld", pd->scale);
	else
		snprintf(key, sizeof(key), "%s:%s", t->name, args);
	(void)ws;
	if (data_dir(t->name, key, strcmp(t->name, "pgbench") == 0, tr->dir, sizeof(tr->dir), fresh) < 0)
		return -1;
	if (!*fresh || !t->server)
		return 0;
	{
		double t0 = vt_now();
		int rc;

		info("%s: building its data once, outside every measured time (%s) in %s", t->name, key, tr->dir);
		if (strcmp(t->name, "redis") == 0) {
			char sock[4200], log[4200], **argv = redis_server_argv(tr->dir);
			struct server s = { .what = "redis-server" };

			if (!argv)
				return error(
				    "redis: redis-server is not installed (Debian's redis-server; `make` installs it)");
			redis_conf(tr->dir);
			snprintf(sock, sizeof(sock), "%s/redis.sock", tr->dir);
			snprintf(log, sizeof(log), "%s/server.log", tr->dir);
			rc = server_spawn(&s, argv, tr->dir, log, NULL, NULL);
			if (rc == 0 && (rc = redis_wait(&s, sock, 60)) == 0)
				rc = redis_load(sock, rd);
			server_stop(&s, SIGTERM, 60);
		} else
			rc = pg_build(tr->dir, pd, pw);
		if (rc < 0) {
			data_drop(tr->dir);
			return -1;
		}
		/* the build read and wrote the whole data set after the run's settle steps; left in
		 * the page cache (charged to no run's cgroup), it would make the first measured run
		 * read from memory what every later one, after drop-caches, reads from disk */
		nftw(tr->dir, evict_one, 16, FTW_PHYS | FTW_MOUNT);
		info("%s: its data is built (%.1f s), and out of the page cache", t->name, vt_now() - t0);
	}
	return 0;
}

int tool_check(const struct tool *t, const char *args)
{
	struct words ws;
	char why[512] = "";
	int rc = 0;

	if (split(t->name, args, &ws) < 0)
		return -1;
	if (strcmp(t->name, "redis") == 0) {
		struct redis_data d;
		rc = redis_opts(&ws, &d, why, sizeof(why));
	} else if (strcmp(t->name, "pgbench") == 0) {
		struct pg_data d;
		rc = pg_opts(&ws, &d, why, sizeof(why));
	} else
		for (int i = 0; i < ws.n && rc == 0; i++) {
			const char *w = ws.w[i];
			if ((!strcmp(t->name, "fio") && (is_opt(w, "--output-format") || is_opt(w, "--output") ||
							 is_opt(w, "--minimal") || is_opt(w, "--terse-version"))) ||
			    (!strcmp(t->name, "stress-ng") && (is_opt(w, "--yaml") || is_opt(w, "-Y")))) {
				snprintf(why, sizeof(why), "%s: %s is vmtune's to set (it reads the tool's %s)",
					 t->name, w, !strcmp(t->name, "fio") ? "JSON on stdout" : "--yaml metrics");
				rc = -1;
			}
		}
	if (rc == 0 && !strcmp(t->name, "stress-ng")) {
		bool ends = false;
		for (int i = 0; i < ws.n; i++)
			ends |= is_opt(ws.w[i], "-t") || is_opt(ws.w[i], "--timeout") ||
				(strncmp(ws.w[i], "--", 2) == 0 && strstr(ws.w[i], "-ops"));
		if (!ends) {
			snprintf(
			    why, sizeof(why),
			    "stress-ng: give -t DURATION or --STRESSOR-ops N (without either it runs until stopped)");
			rc = -1;
		}
	}
	if (rc == 0 && ws.n == 0) {
		snprintf(why, sizeof(why), "%s: give the tool's options after '%s:'", t->name, t->name);
		rc = -1;
	}
	words_free(&ws);
	return rc < 0 ? error("%s", why) : 0;
}

int tool_begin(const char *spec, const struct cgroup *cg, double timeout, struct tool_run **trp, char ***argv,
	       bool *client_in_cgroup)
{
	const char *args;
	const struct tool *t = tool_of(spec, &args);
	struct tool_run *tr;
	struct words ws;
	struct redis_data rd = { 0, 0 };
	struct pg_data pd = { 0, "" };
	struct passwd *pw = NULL;
	char bin[4096], why[512];
	bool fresh = false;
	int rc = 0;

	*trp = NULL;
	if (!t || tool_check(t, args) < 0 || tool_binary(t, bin, sizeof(bin)) < 0 || split(t->name, args, &ws) < 0)
		return -1;
	tr = calloc(1, sizeof(*tr));
	if (!tr) {
		words_free(&ws);
		return error("out of memory");
	}
	tr->t = t;
	tr->srv.pid = -1;
	if (!strcmp(t->name, "redis"))
		rc = redis_opts(&ws, &rd, why, sizeof(why));
	else if (!strcmp(t->name, "pgbench")) {
		rc = pg_opts(&ws, &pd, why, sizeof(why));
		if (rc == 0 && !(pw = getpwnam("postgres")))
			rc = -1,
			snprintf(why, sizeof(why),
				 "pgbench: the server needs the user 'postgres' (Debian's postgresql makes it)");
	}
	if (rc < 0)
		error("%s", why);
	if (rc == 0)
		rc = build_data(tr, &ws, args, pw, &rd, &pd, &fresh);
	*client_in_cgroup = !t->server;
	add(&tr->a, "%s", bin);
	if (rc == 0 && !strcmp(t->name, "fio")) {
		bool where = false;
		for (int i = 0; i < ws.n; i++)
			where |= is_opt(ws.w[i], "--directory") || is_opt(ws.w[i], "--filename") || ws.w[i][0] != '-';
		for (int i = 0; i < ws.n; i++)
			add(&tr->a, "%s", ws.w[i]);
		add(&tr->a, "--output-format=json");
		if (!where) /* its files in vmtune's data directory: laid out once, removed at the end */
			add(&tr->a, "--directory=%s", tr->dir);
	} else if (rc == 0 && !strcmp(t->name, "stress-ng")) {
		bool temp = false;
		snprintf(tr->file, sizeof(tr->file), "%s/metrics.yaml", tr->dir);
		unlink(tr->file);
		for (int i = 0; i < ws.n; i++) {
			temp |= is_opt(ws.w[i], "--temp-path");
			add(&tr->a, "%s", ws.w[i]);
		}
		add(&tr->a, "--metrics");
		add(&tr->a, "--yaml");
		add(&tr->a, "%s", tr->file);
		if (!temp)
			add(&tr->a, "--temp-path=%s", tr->dir);
	} else if (rc == 0 && !strcmp(t->name, "sysbench")) {
		for (int i = 0; i < ws.n; i++)
			add(&tr->a, "%s", ws.w[i]);
	} else if (rc == 0 && !strcmp(t->name, "redis")) {
		char sock[4200], log[4200], **sv = redis_server_argv(tr->dir);
		bool csv = false;

		snprintf(sock, sizeof(sock), "%s/redis.sock", tr->dir);
		snprintf(log, sizeof(log), "%s/server.log", tr->dir);
		tr->srv.what = "redis-server";
		rc = sv ? server_spawn(&tr->srv, sv, tr->dir, log, cg, NULL)
			: error("redis: redis-server is not installed (Debian's redis-server; `make` installs it)");
		if (rc == 0)
			rc = redis_wait(&tr->srv, sock, timeout > 0 ? timeout : 600);
		add(&tr->a, "-s");
		add(&tr->a, "%s", sock);
		for (int i = 0; i < ws.n; i++) {
			csv |= !strcmp(ws.w[i], "--csv");
			add(&tr->a, "%s", ws.w[i]);
		}
		if (!csv)
			add(&tr->a, "--csv");
	} else if (rc == 0 && !strcmp(t->name, "pgbench")) {
		snprintf(tr->file, sizeof(tr->file), "%s/txlog", tr->dir);
		if (mkdir(tr->file, 0700) < 0 && errno != EEXIST)
			rc = error("cannot create %s: %s", tr->file, strerror(errno));
		if (rc == 0 && (rc = pg_start(&tr->srv, tr->dir, &pd, cg, pw, false)) == 0)
			rc = pg_wait(&tr->srv, tr->dir, timeout > 0 ? timeout : 600);
		for (int i = 0; i < ws.n; i++)
			add(&tr->a, "%s", ws.w[i]);
		add(&tr->a, "-h");
		add(&tr->a, "%s", tr->dir);
		add(&tr->a, "-U");
		add(&tr->a, "postgres");
		add(&tr->a, "-l");
		add(&tr->a, "--log-prefix=%s/tx", tr->file);
		add(&tr->a, "postgres");
	}
	words_free(&ws);
	if (rc < 0) {
		server_stop(&tr->srv, SIGKILL, 0);
		for (int i = 0; i < tr->a.n; i++)
			free(tr->a.v[i]);
		free(tr->a.v);
		free(tr);
		return -1;
	}
	*argv = tr->a.v;
	*trp = tr;
	return 0;
}

/* --- reading the numbers ---------------------------------------------------------- */

/* name sanitised for a value's name: [A-Za-z0-9_] */
static void vname(char *out, size_t size, const char *prefix, const char *metric)
{
	char p[40];
	size_t k = 0;

	for (const char *c = prefix; *c && k + 1 < sizeof(p); c++)
		p[k++] = (isalnum((unsigned char)*c) || *c == '_') ? *c : '_';
	p[k] = '\0';
	snprintf(out, size, "%s%s%s", p, k ? "." : "", metric);
}

/* A value already put (the tools' readers stay below the runner: no run_value). */
static double got(const struct run_result *res, const char *name)
{
	for (int i = 0; i < res->nvalues; i++)
		if (strcmp(res->values[i].name, name) == 0)
			return res->values[i].value;
	return NAN;
}

static void acc(struct run_result *res, const char *prefix, const char *metric, double v, bool sum)
{
	char name[48];
	double old;

	if (!isfinite(v))
		return;
	vname(name, sizeof(name), prefix, metric);
	old = got(res, name);
	extract_put(res->values, &res->nvalues, name, !isfinite(old) ? v : sum ? old + v : fmax(old, v));
}

static double jnum(json_object *o, const char *path)
{
	double v;
	char why[256];

	return extract_json_path(o, path, &v, why, sizeof(why)) == 0 ? v : NAN;
}

static int parse_fio(const char *out, size_t len, struct run_result *res)
{
	const char *s = out + strcspn(out, "{");
	struct json_tokener *tok = json_tokener_new();
	json_object *doc = *s ? json_tokener_parse_ex(tok, s, (int)(len - (size_t)(s - out))) : NULL, *jobs;
	static const char *const pct[][2] = {
		{ "50.000000", "p50" }, { "95.000000", "p95" }, { "99.000000", "p99" }, { "99.900000", "p999" }
	};
	int rc = 0;

	json_tokener_free(tok);
	if (!doc || !json_object_object_get_ex(doc, "jobs", &jobs) || !json_object_is_type(jobs, json_type_array) ||
	    json_object_array_length(jobs) == 0) {
		json_object_put(doc);
		snprintf(res->note, sizeof(res->note), "fio printed no JSON with jobs");
		return -1;
	}
	for (size_t i = 0; i < json_object_array_length(jobs) && rc == 0; i++) {
		json_object *j = json_object_array_get_idx(jobs, i), *nm;
		const char *name = json_object_object_get_ex(j, "jobname", &nm) ? json_object_get_string(nm) : "job";
		double err = jnum(j, "error");
		double tot = 0;

		if (err != 0 && isfinite(err)) {
			char safe[100];
			snprintf(res->note, sizeof(res->note), "fio job %s ended with error %.0f",
				 text_safe(name, safe, 100), err);
			rc = -1;
			break;
		}
		for (int d = 0; d < 2; d++) {
			const char *dir = d ? "write" : "read";
			char path[128], m[48];
			double iops, ios;

			snprintf(path, sizeof(path), "%s.total_ios", dir);
			ios = jnum(j, path);
			if (!(ios > 0))
				continue;
			snprintf(path, sizeof(path), "%s.iops", dir);
			iops = jnum(j, path);
			tot += iops;
			snprintf(m, sizeof(m), "%s_iops", dir);
			acc(res, "", m, iops, true);
			acc(res, name, m, iops, true);
			snprintf(path, sizeof(path), "%s.bw", dir); /* KiB/s */
			snprintf(m, sizeof(m), "%s_mib_s", dir);
			acc(res, "", m, jnum(j, path) / 1024, true);
			acc(res, name, m, jnum(j, path) / 1024, true);
			for (size_t p = 0; p < sizeof(pct) / sizeof(pct[0]); p++) {
				snprintf(path, sizeof(path), "%s.clat_ns.percentile[\"%s\"]", dir, pct[p][0]);
				snprintf(m, sizeof(m), "%s_clat_%s_ms", dir, pct[p][1]);
				acc(res, "", m, jnum(j, path) / 1e6, false);
				acc(res, name, m, jnum(j, path) / 1e6, false);
			}
		}
		acc(res, "", "iops", tot, true);
		acc(res, name, "iops", tot, true);
	}
	json_object_put(doc);
	return rc;
}

static int parse_stress_ng(const char *file, struct run_result *res)
{
	yaml_parser_t p;
	yaml_document_t doc;
	yaml_node_t *root, *metrics = NULL;
	FILE *f = fopen(file, "re");
	int found = 0;

	if (!f) {
		snprintf(res->note, sizeof(res->note), "stress-ng wrote no --yaml metrics (%s)", strerror(errno));
		return -1;
	}
	yaml_parser_initialize(&p);
	yaml_parser_set_input_file(&p, f);
	if (!yaml_parser_load(&p, &doc)) {
		snprintf(res->note, sizeof(res->note), "stress-ng's --yaml metrics do not parse (line %zu)",
			 p.problem_mark.line + 1);
		yaml_parser_delete(&p);
		fclose(f);
		return -1;
	}
	root = yaml_document_get_root_node(&doc);
	if (root && root->type == YAML_MAPPING_NODE)
		for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
			yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
			if (k && k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, "metrics"))
				metrics = yaml_document_get_node(&doc, pr->value);
		}
	if (metrics && metrics->type == YAML_SEQUENCE_NODE)
		for (yaml_node_item_t *it = metrics->data.sequence.items.start; it < metrics->data.sequence.items.top;
		     it++) {
			yaml_node_t *m = yaml_document_get_node(&doc, *it);
			char name[64] = "";
			double rate = NAN, ops = NAN;

			if (!m || m->type != YAML_MAPPING_NODE)
				continue;
			for (yaml_node_pair_t *pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top; pr++) {
				yaml_node_t *k = yaml_document_get_node(&doc, pr->key),
					    *v = yaml_document_get_node(&doc, pr->value);
				const char *ks, *vs;
				char *end;
				double x;

				if (!k || !v || k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE)
					continue;
				ks = (char *)k->data.scalar.value;
				vs = (char *)v->data.scalar.value;
				if (!strcmp(ks, "stressor")) {
					snprintf(name, sizeof(name), "%s", vs);
					continue;
				}
				errno = 0;
				x = strtod(vs, &end);
				if (errno || end == vs || *end)
					continue;
				if (!strcmp(ks, "bogo-ops-per-second-real-time"))
					rate = x;
				else if (!strcmp(ks, "bogo-ops"))
					ops = x;
			}
			if (!name[0] || !isfinite(rate))
				continue;
			acc(res, "", "bogo_ops_s", rate, true);
			acc(res, name, "bogo_ops_s", rate, true);
			acc(res, "", "bogo_ops", ops, true);
			acc(res, name, "bogo_ops", ops, true);
			found++;
		}
	yaml_document_delete(&doc);
	yaml_parser_delete(&p);
	fclose(f);
	if (!found) {
		snprintf(res->note, sizeof(res->note), "stress-ng's --yaml metrics name no stressor's bogo ops/s");
		return -1;
	}
	return 0;
}

static int parse_sysbench(const char *out, struct run_result *res)
{
	const char *p = out;
	bool lat = false;
	double events = NAN, total = NAN;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[512], *c;
		double a, b;
		int pc;

		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), p);
		p += n + (nl ? 1 : 0);
		for (c = line; *c == ' ' || *c == '\t'; c++)
			;
		if (!strncmp(c, "Latency (ms):", 13)) {
			lat = true;
			continue;
		}
		if (!*c)
			lat = false;
		if (sscanf(c, "Total operations: %lf (%lf per second)", &a, &b) == 2)
			acc(res, "", "ops_s", b, false);
		else if (sscanf(c, "%lf MiB transferred (%lf MiB/sec)", &a, &b) == 2)
			acc(res, "", "mib_s", b, false);
		else if (sscanf(c, "transactions: %lf (%lf per sec.)", &a, &b) == 2)
			acc(res, "", "tps", b, false);
		else if (sscanf(c, "events per second: %lf", &a) == 1)
			acc(res, "", "events_s", a, false);
		else if (sscanf(c, "total time: %lfs", &a) == 1)
			total = a;
		else if (sscanf(c, "total number of events: %lf", &a) == 1)
			events = a;
		else if (lat && sscanf(c, "min: %lf", &a) == 1)
			acc(res, "", "lat_min_ms", a, false);
		else if (lat && sscanf(c, "avg: %lf", &a) == 1)
			acc(res, "", "lat_avg_ms", a, false);
		else if (lat && sscanf(c, "max: %lf", &a) == 1)
			acc(res, "", "lat_max_ms", a, false);
		else if (lat && sscanf(c, "%dth percentile: %lf", &pc, &a) == 2 && pc > 0 && pc < 100) {
			char m[32];
			snprintf(m, sizeof(m), "lat_p%d_ms", pc);
			acc(res, "", m, a, false);
		}
	}
	if (!(total > 0) || !isfinite(events)) {
		snprintf(res->note, sizeof(res->note), "sysbench printed no 'total time' and 'total number of events'");
		return -1;
	}
	acc(res, "", "total_s", total, false);
	if (!isfinite(got(res, "events_s")))
		acc(res, "", "events_s", events / total, false);
	return 0;
}

/* One CSV field (quoted or not) at *p into out; *p past its comma. */
static bool csv_field(const char **p, char *out, size_t size)
{
	const char *s = *p;
	size_t k = 0;
	bool q = *s == '"';

	if (q)
		s++;
	for (; *s && (q ? !(*s == '"' && s[1] != '"') : *s != ','); s++) {
		if (q && *s == '"')
			s++; /* "" inside quotes */
		if (k + 1 < size)
			out[k++] = *s;
	}
	out[k] = '\0';
	if (q && *s == '"')
		s++;
	if (*s == ',')
		s++;
	else if (*s)
		return false;
	*p = s;
	return true;
}

static int parse_redis(const char *out, struct run_result *res)
{
	static const char *const col[] = { "rps", "avg_ms", "min_ms", "p50_ms", "p95_ms", "p99_ms", "max_ms" };
	const char *p = out;
	double inv = 0;
	int tests = 0, header = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[1024], f[8][128];
		const char *c = line;
		int k = 0;

		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), p);
		line[strcspn(line, "\r")] = '\0';
		p += n + (nl ? 1 : 0);
		while (*c && k < 8 && csv_field(&c, f[k], sizeof(f[k])))
			k++;
		if (k == 8 && !strcmp(f[0], "test") && !strcmp(f[1], "rps")) {
			header = 1;
			continue;
		}
		if (!header || k != 8)
			continue;
		for (int i = 0; i < 7; i++) {
			char *end;
			double v = strtod(f[i + 1], &end);
			if (end == f[i + 1] || *end)
				continue;
			acc(res, f[0], col[i], v, false);
			if (i == 0 && v > 0)
				inv += 1 / v;
			else if (i == 1)
				acc(res, "", "avg_ms", v, true); /* summed here, the mean below */
			else if (i > 1)
				acc(res, "", col[i], v, false); /* the worst test's */
		}
		tests++;
	}
	if (!tests || !(inv > 0)) {
		snprintf(res->note, sizeof(res->note), "redis-benchmark printed no --csv results");
		return -1;
	}
	/* each test makes -n requests: the rate over all of them, the mean of the means */
	extract_put(res->values, &res->nvalues, "rps", tests / inv);
	extract_put(res->values, &res->nvalues, "avg_ms", got(res, "avg_ms") / tests);
	return 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int parse_pgbench(const char *out, const char *logdir, struct run_result *res)
{
	const char *t = strstr(out, "\ntps = "), *l = strstr(out, "\nlatency average = ");
	DIR *d;
	struct dirent *e;
	double *lat = NULL, tps;
	size_t n = 0, cap = 0;

	if (!t || sscanf(t, "\ntps = %lf", &tps) != 1) {
		snprintf(res->note, sizeof(res->note), "pgbench printed no 'tps = '");
		return -1;
	}
	extract_put(res->values, &res->nvalues, "tps", tps);
	if (l) {
		double a;
		if (sscanf(l, "\nlatency average = %lf ms", &a) == 1)
			extract_put(res->values, &res->nvalues, "lat_avg_ms", a);
	}
	/* the per-transaction log: "client_id transaction_no time_us script_no epoch us ..." */
	if ((d = opendir(logdir))) {
		while ((e = readdir(d))) {
			char path[4400], line[256];
			FILE *f;

			if (strncmp(e->d_name, "tx.", 3) != 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", logdir, e->d_name);
			if ((f = fopen(path, "re"))) {
				while (fgets(line, sizeof(line), f)) {
					long c, x, us;
					if (sscanf(line, "%ld %ld %ld", &c, &x, &us) != 3 || us < 0)
						continue;
					if (n == cap) {
						cap = cap ? 2 * cap : 65536;
						double *nl = realloc(lat, cap * sizeof(double));
						if (!nl)
							break;
						lat = nl;
					}
					lat[n++] = (double)us / 1e3;
				}
				fclose(f);
			}
			unlink(path);
		}
		closedir(d);
	}
	if (n) {
		qsort(lat, n, sizeof(double), cmp_d);
		extract_put(res->values, &res->nvalues, "lat_p50_ms", lat[(size_t)(0.50 * (double)(n - 1))]);
		extract_put(res->values, &res->nvalues, "lat_p95_ms", lat[(size_t)(0.95 * (double)(n - 1))]);
		extract_put(res->values, &res->nvalues, "lat_p99_ms", lat[(size_t)(0.99 * (double)(n - 1))]);
		extract_put(res->values, &res->nvalues, "lat_max_ms", lat[n - 1]);
	}
	free(lat);
	return 0;
}

int tool_parse(const struct tool *t, const char *out, size_t len, const char *file, struct run_result *res)
{
	if (!strcmp(t->name, "fio"))
		return parse_fio(out, len, res);
	if (!strcmp(t->name, "stress-ng"))
		return parse_stress_ng(file, res);
	if (!strcmp(t->name, "sysbench"))
		return parse_sysbench(out, res);
	if (!strcmp(t->name, "redis"))
		return parse_redis(out, res);
	return parse_pgbench(out, file, res);
}

int tool_end(struct tool_run *tr, const char *out, size_t len, struct run_result *res)
{
	int rc = 0;

	if (!tr)
		return 0;
	if (tr->srv.pid > 0)
		server_stop(&tr->srv, !strcmp(tr->t->name, "pgbench") ? SIGINT : SIGTERM, 30);
	if (res->outcome == RUN_OK)
		rc = tool_parse(tr->t, out, len, tr->file, res);
	if (tr->file[0] && strcmp(tr->t->name, "pgbench"))
		unlink(tr->file);
	for (int i = 0; i < tr->a.n; i++)
		free(tr->a.v[i]);
	free(tr->a.v);
	free(tr);
	return rc;
}

const char *tool_metrics(const struct tool *t, char *buf, size_t size)
{
	const char *const *m = metric_table[tool_index(t)];

	buf[0] = '\0';
	for (int i = 0; m[i]; i++) {
		size_t len = strlen(m[i]) - 1, n = strlen(buf);
		snprintf(buf + n, size - n, "%s%.*s%s", i ? " " : "", (int)len, m[i], m[i][len] == '+' ? "+" : "-");
	}
	return buf;
}
