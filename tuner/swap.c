/* swap.c - the sandbox's swap. A temporary swapfile in the state dir: created
 * (journalled first), formatted with a swap header, enabled; disabled and removed
 * at the end. A zram device: the free zram0 given a compressor and a disk size,
 * formatted and enabled at a high priority; disabled and reset at the end. zswap:
 * its switch is a knob, journalled and put back like any other. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "catalogue.h"
#include "file.h"
#include "journal.h"
#include "knob.h"
#include "size.h"
#include "swap.h"
#include "vmtune.h"

#define TMPFS_MAGIC 0x01021994
#define ZRAM_SYS "/sys/block/" SWAP_ZRAM_DEV
#define ZRAM_DEV "/dev/" SWAP_ZRAM_DEV
/* zram swap goes before any other swap the machine has, as zram-generator sets it */
#define ZRAM_PRIO 100

static int fail(char *why, size_t whylen, const char *fmt, const char *arg)
{
	snprintf(why, whylen, fmt, arg);
	return -1;
}

int swap_spec_parse(const char *s, struct swap_spec *sp, char *why, size_t whylen)
{
	char buf[128], *plus, *colon, *sizep;
	size_t i, n;

	memset(sp, 0, sizeof(*sp));
	if (strlen(s) >= sizeof(buf))
		return fail(why, whylen, "'%.40s...' is too long", s);
	snprintf(buf, sizeof(buf), "%s", s);
	if ((plus = strchr(buf, '+'))) {
		if (strcmp(plus, "+zswap") != 0)
			return fail(why, whylen, "'%s': the only thing that may follow '+' is zswap", s);
		*plus = '\0';
		sp->zswap = true;
	}
	if (strcmp(buf, "machine") == 0) {
		sp->backend = SWAP_MACHINE;
		return 0;
	}
	if (strncmp(buf, "file:", 5) == 0) {
		sp->backend = SWAP_FILE;
		sizep = buf + 5;
	} else if (strncmp(buf, "zram:", 5) == 0) {
		sp->backend = SWAP_ZRAM;
		sizep = buf + 5;
		if ((colon = strchr(sizep, ':'))) {
			*colon = '\0';
			n = strlen(colon + 1);
			if (n == 0 || n >= sizeof(sp->algo))
				return fail(why, whylen, "'%s': the compressor after the size is empty or too long", s);
			for (i = 0; i < n; i++)
				if (!islower((unsigned char)colon[1 + i]) && !isdigit((unsigned char)colon[1 + i]) &&
				    colon[1 + i] != '-')
					return fail(why, whylen,
						    "'%s': a compressor name is lower-case letters, digits and '-'", s);
			memcpy(sp->algo, colon + 1, n + 1);
		}
	} else if (isdigit((unsigned char)buf[0])) {
		sp->backend = SWAP_FILE;
		sizep = buf;
	} else {
		return fail(why, whylen, "'%s' is not a swap backend (SIZE, file:SIZE, zram:SIZE[:ALGO] or machine)",
			    s);
	}
	if (parse_size(sizep, &sp->size, why, whylen) < 0)
		return -1;
	if (sp->size < (1 << 20))
		return fail(why, whylen, "'%s': at least 1M of swap", s);
	if (sp->zswap && sp->backend == SWAP_ZRAM)
		return fail(why, whylen, "'%s': zswap in front of zram compresses twice; use file:SIZE+zswap", s);
	return 0;
}

int swap_spec_add_zswap(struct swap_spec *sp, char *why, size_t whylen)
{
	if (sp->backend == SWAP_NONE)
		return fail(why, whylen, "%s needs swap to sit in front of: --swap file:SIZE or --swap machine",
			    "--zswap");
	if (sp->backend == SWAP_ZRAM)
		return fail(why, whylen, "%s in front of zram compresses twice; use --swap file:SIZE --zswap",
			    "--zswap");
	sp->zswap = true;
	return 0;
}

const char *swap_spec_format(const struct swap_spec *sp, char *buf, size_t size)
{
	char sz[32];

	format_size(sp->size, sz, sizeof(sz));
	switch (sp->backend) {
	case SWAP_NONE:
		snprintf(buf, size, "none");
		break;
	case SWAP_FILE:
		snprintf(buf, size, "file:%s%s", sz, sp->zswap ? "+zswap" : "");
		break;
	case SWAP_ZRAM:
		snprintf(buf, size, "zram:%s%s%s", sz, sp->algo[0] ? ":" : "", sp->algo);
		break;
	case SWAP_MACHINE:
		snprintf(buf, size, "machine%s", sp->zswap ? "+zswap" : "");
		break;
	}
	return buf;
}

uint64_t swap_spec_limit(const struct swap_spec *sp)
{
	return sp->backend == SWAP_FILE || sp->backend == SWAP_ZRAM ? sp->size : 0;
}

const char *swap_spec_describe(const struct swap_spec *sp, char *buf, size_t size)
{
	char sz[32];

	format_size(sp->size, sz, sizeof(sz));
	switch (sp->backend) {
	case SWAP_NONE:
		snprintf(buf, size, "no swap added");
		break;
	case SWAP_FILE:
		snprintf(buf, size, "%s of swap (a temporary swapfile if the machine has less)%s", sz,
			 sp->zswap ? ", zswap in front" : "");
		break;
	case SWAP_ZRAM:
		snprintf(buf, size, "%s on %s (compressor %s)", sz, ZRAM_DEV, sp->algo[0] ? sp->algo : "as it is");
		break;
	case SWAP_MACHINE:
		snprintf(buf, size, "the machine's own swap%s", sp->zswap ? ", zswap in front" : "");
		break;
	}
	return buf;
}

uint64_t swap_total(void)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[512];
	unsigned long long kb, total = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char name[256], type[32];
		if (sscanf(line, "%255s %31s %llu", name, type, &kb) == 3)
			total += kb;
	}
	fclose(f);
	return total * 1024;
}

/* The version-1 swap header mkswap writes: magic at the end of the first page,
 * version, last page and a UUID at offset 1024. */
static int write_header(int fd, uint64_t bytes)
{
	long ps = sysconf(_SC_PAGESIZE);
	unsigned char *page = calloc(1, (size_t)ps);
	uint32_t info[3];
	int r = 0;

	if (!page)
		return -ENOMEM;
	info[0] = 1;					/* version */
	info[1] = (uint32_t)(bytes / (uint64_t)ps - 1); /* last_page */
	info[2] = 0;					/* nr_badpages */
	memcpy(page + 1024, info, sizeof(info));
	if (getrandom(page + 1024 + sizeof(info), 16, 0) != 16)
		memset(page + 1024 + sizeof(info), 0x5a, 16);
	memcpy(page + ps - 10, "SWAPSPACE2", 10);
	if (pwrite(fd, page, (size_t)ps, 0) != ps)
		r = -errno;
	free(page);
	return r;
}

static int fill_zeros(int fd, uint64_t bytes)
{
	static char zeros[1 << 20];
	uint64_t off;

	for (off = 0; off < bytes; off += sizeof(zeros)) {
		size_t n = bytes - off < sizeof(zeros) ? (size_t)(bytes - off) : sizeof(zeros);
		if (pwrite(fd, zeros, n, (off_t)off) != (ssize_t)n)
			return -errno;
	}
	return 0;
}

static int make_swapfile(const char *path, uint64_t bytes, bool zero)
{
	int fd, r;

	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return error("cannot create swapfile %s: %s", path, strerror(errno));
	r = zero ? fill_zeros(fd, bytes) : posix_fallocate(fd, 0, (off_t)bytes);
	if (r > 0)
		r = -r;
	if (r == 0)
		r = write_header(fd, bytes);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	close(fd);
	if (r < 0)
		return error("cannot write swapfile %s (%llu bytes): %s", path, (unsigned long long)bytes,
			     strerror(-r));
	return 0;
}

int swap_ensure(uint64_t want, char *made, size_t madelen)
{
	uint64_t have, need;
	long ps = sysconf(_SC_PAGESIZE);
	char path[PATH_MAX], a[32], b[32];
	struct statfs sf;

	made[0] = '\0';
	if (!vt_live())
		return error("--swap needs the live kernel; it cannot be used with --root");
	have = swap_total();
	if (have >= want) {
		verbose("%s of swap configured, %s asked: no swapfile needed", format_size(have, a, sizeof(a)),
			format_size(want, b, sizeof(b)));
		return 0;
	}
	need = (want - have + (uint64_t)ps - 1) / (uint64_t)ps * (uint64_t)ps;
	if (need < 40 * (uint64_t)ps)
		need = 40 * (uint64_t)ps;
	if (vt_state_dir_ensure() < 0)
		return -1;
	if (statfs(vt_state_dir(), &sf) == 0 && (unsigned long)sf.f_type == TMPFS_MAGIC)
		return error(
		    "state dir %s is on tmpfs, where swapfiles cannot live; choose --state-dir on a disk file system",
		    vt_state_dir());
	snprintf(path, sizeof(path), "%s/swapfile-%ld", vt_state_dir(), (long)getpid());
	if (journal_resource(&swap_journal_kind, path) < 0)
		return -1;
	crashpoint("swap-journalled");
	if (make_swapfile(path, need, false) < 0)
		goto fail;
	crashpoint("swap-file-made");
	if (swapon(path, 0) < 0) {
		if (errno != EINVAL) {
			error("swapon %s: %s", path, strerror(errno));
			goto fail;
		}
		/* some file systems refuse preallocated (unwritten) extents */
		if (make_swapfile(path, need, true) < 0)
			goto fail;
		if (swapon(path, 0) < 0) {
			error("swapon %s: %s", path, strerror(errno));
			goto fail;
		}
	}
	crashpoint("swap-active");
	info("made a %s swapfile %s (removed at the end)", format_size(need, a, sizeof(a)), path);
	snprintf(made, madelen, "%s", path);
	return 0;
fail:
	unlink(path);
	journal_forget(&swap_journal_kind, path);
	return -1;
}

static bool swap_active(const char *path)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[512], name[256];
	bool found = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s", name) == 1 && strcmp(name, path) == 0)
			found = true;
	fclose(f);
	return found;
}

long swap_used_kb(const char *path)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[512], name[256], type[32];
	long size, used = -1, u;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %31s %ld %ld", name, type, &size, &u) == 4 && strcmp(name, path) == 0)
			used = u;
	fclose(f);
	return used;
}

/* /dev/zramN, N a number: a zram device. */
static bool is_zram(const char *path)
{
	size_t i = strlen("/dev/zram");

	if (strncmp(path, "/dev/zram", i) != 0 || !path[i])
		return false;
	for (; path[i]; i++)
		if (!isdigit((unsigned char)path[i]))
			return false;
	return strlen(path) < 20;
}

static int swapon_flags(const char *path)
{
	return is_zram(path) ? SWAP_FLAG_PREFER | ((ZRAM_PRIO << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK) : 0;
}

int swap_reset(const char *path)
{
	if (!swap_active(path))
		return error("swap area %s is no longer active", path);
	if (swapoff(path) < 0)
		return error("swapoff %s: %s", path, strerror(errno));
	if (swapon(path, swapon_flags(path)) < 0)
		return error("swapon %s again: %s", path, strerror(errno));
	return 0;
}

/* A file of the zram device's sysfs directory (/sys/block/zramN/FILE). */
static const char *zram_file(char *buf, size_t size, const char *dev, const char *file)
{
	snprintf(buf, size, "/sys/block/%s/%s", dev + strlen("/dev/"), file);
	return buf;
}

/* swapoff and reset: the device unconfigured again (disksize 0, memory freed). */
static int zram_undo(const char *path)
{
	char p[PATH_MAX];
	int r;

	if (swap_active(path) && swapoff(path) < 0)
		return error("swapoff %s: %s", path, strerror(errno));
	if ((r = write_small_file(zram_file(p, sizeof(p), path, "reset"), "1")) < 0 && r != -ENOENT)
		return error("cannot reset %s (%s): %s", path, p, strerror(-r));
	verbose("reset %s", path);
	return 0;
}

/* Is the compressor offered by the device ("[lzo-rle] lzo lz4 ...")? */
static bool zram_offers(const char *list, const char *algo)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, " []\n", &save); tok; tok = strtok_r(NULL, " []\n", &save))
		if (strcmp(tok, algo) == 0)
			return true;
	return false;
}

/* The compressor in use: the bracketed word of "lzo-rle [lzo] lz4". */
static const char *zram_selected(char *list)
{
	char *open = strchr(list, '['), *close = open ? strchr(open, ']') : NULL;

	if (!close)
		return list;
	*close = '\0';
	return open + 1;
}

static int zram_setup(const struct swap_spec *sp, char *made, size_t madelen)
{
	const struct knob_def *d = knob_find("zram.comp_algorithm");
	struct knob_state st;
	char p[PATH_MAX], buf[256], a[32];
	long v = -1, rb;
	int r, fd, i;

	if (access(ZRAM_SYS, F_OK) < 0)
		return error("--swap zram: there is no %s (load the zram module: modprobe zram)", ZRAM_SYS);
	if ((r = read_small_file(zram_file(p, sizeof(p), ZRAM_DEV, "disksize"), buf, sizeof(buf))) < 0)
		return error("cannot read %s: %s", p, strerror(-r));
	if (strtoull(buf, NULL, 10) != 0 || swap_active(ZRAM_DEV))
		return error("%s is in use (disksize %s): vmtune configures only a free %s; to measure with the "
			     "machine's own zram swap use --swap machine",
			     ZRAM_DEV, buf, ZRAM_DEV);
	if (sp->algo[0]) {
		if ((r = read_small_file(zram_file(p, sizeof(p), ZRAM_DEV, "comp_algorithm"), buf, sizeof(buf))) < 0)
			return error("cannot read %s: %s", p, strerror(-r));
		if (!zram_offers(buf, sp->algo))
			return error("--swap zram: %s offers the compressors '%s', not '%s'", ZRAM_DEV, buf, sp->algo);
		for (i = 0; d && d->choices[i]; i++)
			if (strcmp(d->choices[i], sp->algo) == 0)
				v = i;
		if (v < 0)
			return error("--swap zram: compressor '%s' is not one vmtune knows (see vmtune knobs)",
				     sp->algo);
	}
	if (journal_resource(&zram_journal_kind, ZRAM_DEV) < 0)
		return -1;
	crashpoint("zram-journalled");
	if (v >= 0) {
		knob_probe(d, &st);
		if (journal_knob(&st, false) < 0 || knob_write(&st, v, &rb) < 0)
			goto fail;
		crashpoint("zram-compressor-written");
	}
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)sp->size);
	if ((r = write_small_file(zram_file(p, sizeof(p), ZRAM_DEV, "disksize"), buf)) < 0) {
		error("cannot write %s to %s: %s", buf, p, strerror(-r));
		goto fail;
	}
	crashpoint("zram-sized");
	if ((fd = open(ZRAM_DEV, O_WRONLY | O_CLOEXEC)) < 0) {
		error("cannot open %s: %s", ZRAM_DEV, strerror(errno));
		goto fail;
	}
	r = write_header(fd, sp->size);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	close(fd);
	if (r < 0) {
		error("cannot write the swap header to %s: %s", ZRAM_DEV, strerror(-r));
		goto fail;
	}
	if (swapon(ZRAM_DEV, swapon_flags(ZRAM_DEV)) < 0) {
		error("swapon %s: %s", ZRAM_DEV, strerror(errno));
		goto fail;
	}
	crashpoint("zram-active");
	r = read_small_file(zram_file(p, sizeof(p), ZRAM_DEV, "comp_algorithm"), buf, sizeof(buf));
	info("configured %s: %s of swap at priority %d, compressor %s (reset at the end)", ZRAM_DEV,
	     format_size(sp->size, a, sizeof(a)), ZRAM_PRIO, r < 0 ? "?" : zram_selected(buf));
	snprintf(made, madelen, "%s", ZRAM_DEV);
	return 0;
fail:
	if (zram_undo(ZRAM_DEV) == 0)
		journal_forget(&zram_journal_kind, ZRAM_DEV);
	return -1;
}

/* zswap switched on in front of the swap; the knob journal puts it back. */
static int zswap_enable(void)
{
	struct knob_state st;
	long rb;

	knob_probe(knob_find("zswap.enabled"), &st);
	if (!st.kp)
		return error("--zswap: %s", st.why);
	if (st.have_value && st.value == 1) {
		verbose("zswap is already enabled");
		return 0;
	}
	if (journal_knob(&st, false) < 0 || knob_write(&st, 1, &rb) < 0)
		return -1;
	info("zswap enabled in front of the swap (put back at the end)");
	return 0;
}

int swap_setup(const struct swap_spec *sp, char *made, size_t madelen)
{
	made[0] = '\0';
	if (sp->backend == SWAP_NONE)
		return 0;
	if (!vt_live())
		return error("--swap needs the live kernel; it cannot be used with --root");
	switch (sp->backend) {
	case SWAP_NONE:
		break;
	case SWAP_FILE:
		if (swap_ensure(sp->size, made, madelen) < 0)
			return -1;
		break;
	case SWAP_ZRAM:
		if (zram_setup(sp, made, madelen) < 0)
			return -1;
		break;
	case SWAP_MACHINE:
		if (swap_total() == 0)
			warning("--swap machine: this machine has no swap; the runs will have none");
		break;
	}
	return sp->zswap ? zswap_enable() : 0;
}

int swap_remove(const char *path)
{
	if (swap_active(path) && swapoff(path) < 0)
		return error("swapoff %s: %s", path, strerror(errno));
	if (unlink(path) < 0 && errno != ENOENT)
		return error("cannot remove swapfile %s: %s", path, strerror(errno));
	verbose("removed swapfile %s", path);
	return 0;
}

/* A swapfile vmtune made: STATE/swapfile-PID, in this state dir. */
static bool swap_ours(const char *path)
{
	const char *dir = vt_state_dir();
	size_t len = strlen(dir);
	long pid;
	int end = 0;

	return strncmp(path, dir, len) == 0 && path[len] == '/' &&
	       sscanf(path + len + 1, "swapfile-%ld%n", &pid, &end) == 1 && path[len + 1 + end] == '\0' && pid > 0 &&
	       isdigit((unsigned char)path[len + 10]);
}

const struct journal_kind swap_journal_kind = { .name = "swapfile", .undo = swap_remove, .valid = swap_ours };
const struct journal_kind zram_journal_kind = { .name = "zram", .undo = zram_undo, .valid = is_zram };

/* The swap backend as a search dimension. */
static const char *const swap_knob_choices[] = { "file", "zram", "file+zswap", NULL };
const struct knob_def swap_knob = {
	.name = "swap",
	.type = KT_ENUM,
	.min = 0,
	.max = SWAP_VARY_N - 1,
	.def = SWAP_VARY_FILE,
	.smin = 0,
	.smax = SWAP_VARY_N - 1,
	.choices = swap_knob_choices,
	.note = "the sandbox's swap backend (search only): a swapfile, zram0, or zswap in front of the swapfile",
	.together = "zswap", /* a backend and zswap's pool are one step back */
};

int swap_spec_vary_index(const struct swap_spec *sp)
{
	switch (sp->backend) {
	case SWAP_FILE:
		return sp->zswap ? SWAP_VARY_ZSWAP : SWAP_VARY_FILE;
	case SWAP_ZRAM:
		return SWAP_VARY_ZRAM;
	default:
		return -1;
	}
}

void swap_spec_for_backend(const struct swap_spec *sp, int backend, struct swap_spec *out)
{
	*out = *sp;
	out->backend = backend == SWAP_VARY_ZRAM ? SWAP_ZRAM : SWAP_FILE;
	out->zswap = backend == SWAP_VARY_ZSWAP;
	if (out->backend == SWAP_FILE)
		out->algo[0] = '\0';
}

/* zswap on or off for the backend, written through the journalled knob. */
static int zswap_set(bool on)
{
	struct knob_state st;
	long rb;

	knob_probe(knob_find("zswap.enabled"), &st);
	if (!st.kp)
		return error("the swap backend file+zswap: %s", st.why);
	if (st.have_value && st.value == (on ? 1 : 0))
		return 0;
	return knob_write(&st, on ? 1 : 0, &rb);
}

int swap_vary_setup(const struct swap_spec *sp, struct swap_vary *v, char *active, size_t len)
{
	struct swap_spec z = *sp;
	struct knob_state st;

	memset(v, 0, sizeof(*v));
	v->cur = swap_spec_vary_index(sp);
	if (v->cur < 0)
		return error(
		    "the swap pseudo-knob varies the sandbox's swap: give --swap SIZE, file:SIZE or zram:SIZE");
	if (!vt_live())
		return error("--swap needs the live kernel; it cannot be used with --root");
	knob_probe(knob_find("zswap.enabled"), &st);
	if (st.status != KS_AVAILABLE)
		return error("the swap pseudo-knob needs zswap.enabled for file+zswap: %s", st.why);
	if (journal_knob(&st, false) < 0)
		return -1;
	/* the file first: "at least SIZE" counts the machine's own swap, not zram */
	if (swap_ensure(sp->size, v->file, sizeof(v->file)) < 0)
		return -1;
	z.backend = SWAP_ZRAM;
	z.zswap = false;
	if (zram_setup(&z, v->zram, sizeof(v->zram)) < 0)
		return -1;
	v->cur = -1; /* both on: the first select switches one off */
	return swap_vary_select(v, swap_spec_vary_index(sp), active, len);
}

int swap_vary_select(struct swap_vary *v, int backend, char *active, size_t len)
{
	bool zram = backend == SWAP_VARY_ZRAM;
	const char *off = zram ? v->file : v->zram, *on = zram ? v->zram : v->file;

	if (backend == v->cur)
		return 0;
	if (*off && swap_active(off) && swapoff(off) < 0)
		return error("swapoff %s: %s", off, strerror(errno));
	if (*on && !swap_active(on) && swapon(on, swapon_flags(on)) < 0)
		return error("swapon %s: %s", on, strerror(errno));
	if (zswap_set(backend == SWAP_VARY_ZSWAP) < 0)
		return -1;
	v->cur = backend;
	snprintf(active, len, "%s", on);
	verbose("swap backend %s (%s)", swap_knob_choices[backend], *on ? on : "the machine's own swap");
	crashpoint("swap-backend-selected");
	return 0;
}
