/* machine.c - what kind of machine this is: enough to tell results apart. Memory
 * and swap come through libproc2, as every system figure in vmtune does. */
#include <dirent.h>
#include <math.h>
#include <json-c/json.h>
#include <libproc2/meminfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <systemd/sd-id128.h>
#include <unistd.h>

#include "knob.h"
#include "machine.h"
#include "text.h"
#include "vmtune.h"

/* What kind of device a block device is: zram, nvme, rotational or ssd. */
static void block_kind(const char *sysdir, const char *name, char *kind, size_t size)
{
	char p[PATH_MAX], buf[16] = "";
	FILE *f;

	if (strncmp(name, "zram", 4) == 0) {
		snprintf(kind, size, "zram");
		return;
	}
	if (strncmp(name, "nvme", 4) == 0) {
		snprintf(kind, size, "nvme");
		return;
	}
	snprintf(p, sizeof(p), "%s/queue/rotational", sysdir);
	if (!(f = fopen(p, "re"))) {
		/* a partition: the queue is the parent's */
		snprintf(p, sizeof(p), "%s/../queue/rotational", sysdir);
		f = fopen(p, "re");
	}
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	snprintf(kind, size, "%s", buf[0] == '1' ? "rotational" : buf[0] == '0' ? "ssd" : "unknown");
}

static void swap_devices(struct machine *m)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[512], name[256], type[32], sysdir[PATH_MAX], kind[32];
	unsigned long long kb;
	struct stat sb;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && m->nswaps < MACHINE_MAX_SWAPS) {
		if (sscanf(line, "%255s %31s %llu", name, type, &kb) != 3 || strcmp(name, "Filename") == 0)
			continue;
		kind[0] = '\0';
		if (strcmp(type, "partition") == 0) {
			const char *base = strrchr(name, '/');
			snprintf(sysdir, sizeof(sysdir), "/sys/class/block/%s", base ? base + 1 : name);
			block_kind(sysdir, base ? base + 1 : name, kind, sizeof(kind));
		} else if (stat(name, &sb) == 0) {
			char dev[64];
			/* a swapfile: the device under its file system */
			snprintf(sysdir, sizeof(sysdir), "/sys/dev/block/%u:%u", major(sb.st_dev), minor(sb.st_dev));
			ssize_t n = readlink(sysdir, dev, sizeof(dev) - 1);
			const char *base;
			dev[n > 0 ? n : 0] = '\0';
			base = strrchr(dev, '/');
			char under[16];
			block_kind(sysdir, base ? base + 1 : dev, under, sizeof(under));
			snprintf(kind, sizeof(kind), "file-on-%s", under);
		}
		snprintf(m->swaps[m->nswaps].name, sizeof(m->swaps[0].name), "%s", name);
		snprintf(m->swaps[m->nswaps].kind, sizeof(m->swaps[0].kind), "%s", kind[0] ? kind : "unknown");
		m->swaps[m->nswaps++].size_kb = (long)kb;
	}
	fclose(f);
}

static int count_numa_nodes(void)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 1;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' && e->d_name[4] <= '9')
			n++;
	closedir(d);
	return n ? n : 1;
}

static struct machine override;
static bool have_override;

bool machine_overridden(void)
{
	return have_override;
}

/* vmtune's application id: the machine id is stored as an HMAC of /etc/machine-id
 * keyed with it (sd_id128_get_machine_app_specific), never as itself */
#define VMTUNE_APP_ID SD_ID128_MAKE(84, 76, 38, 6c, 6e, f7, 4c, d7, 87, 93, 93, ea, bf, cc, b0, 8a)

bool machine_same(const struct machine *a, const struct machine *b)
{
	if (a->id[0] && b->id[0])
		return strcmp(a->id, b->id) == 0;
	return strcmp(a->hostname, b->hostname) == 0 &&
	       fabs((double)(a->mem_total_kb - b->mem_total_kb)) <= 0.05 * (double)b->mem_total_kb;
}

void machine_read(struct machine *m)
{
	sd_id128_t id;
	struct utsname u;
	struct sysinfo si;
	struct meminfo_info *mi = NULL;
	struct meminfo_result *r;

	if (have_override) {
		*m = override;
		return;
	}
	memset(m, 0, sizeof(*m));
	if (gethostname(m->hostname, sizeof(m->hostname) - 1) < 0)
		snprintf(m->hostname, sizeof(m->hostname), "unknown");
	if (sd_id128_get_machine_app_specific(VMTUNE_APP_ID, &id) == 0)
		sd_id128_to_string(id, m->id);
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
	m->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	m->page_size = sysconf(_SC_PAGESIZE);
	if (procps_meminfo_new(&mi) >= 0) {
		if ((r = procps_meminfo_get(mi, MEMINFO_MEM_TOTAL)))
			m->mem_total_kb = (long)r->result.ul_int;
		if ((r = procps_meminfo_get(mi, MEMINFO_SWAP_TOTAL)))
			m->swap_total_kb = (long)r->result.ul_int;
		procps_meminfo_unref(&mi);
	}
	swap_devices(m);
	m->numa_nodes = count_numa_nodes();
	{
		char buf[8] = "";
		FILE *f = fopen("/sys/module/zswap/parameters/enabled", "re");
		m->zswap = -1;
		if (f) {
			if (fgets(buf, sizeof(buf), f))
				m->zswap = buf[0] == 'Y' || buf[0] == '1';
			fclose(f);
		}
	}
	m->thp = access(KNOB_THP_DIR "/enabled", F_OK) == 0;
	for (int order = 1; order <= 9; order++) {
		char p[PATH_MAX];
		size_t n = strlen(m->mthp_sizes);
		if (access(knob_mthp_path(p, sizeof(p), KNOB_THP_DIR, order), F_OK) == 0)
			snprintf(m->mthp_sizes + n, sizeof(m->mthp_sizes) - n, "%s%ldkB", n ? " " : "",
				 knob_mthp_size_kb(order));
	}
	if (m->mem_total_kb <= 0 && sysinfo(&si) == 0) {
		m->mem_total_kb = (long)((unsigned long long)si.totalram * si.mem_unit / 1024);
		m->swap_total_kb = (long)((unsigned long long)si.totalswap * si.mem_unit / 1024);
	}
}

json_object *machine_json_object(const struct machine *m)
{
	json_object *o = json_object_new_object(), *sw = json_object_new_array();
	int i;

	json_object_object_add(o, "hostname", json_object_new_string(m->hostname));
	if (m->id[0])
		json_object_object_add(o, "machine_id", json_object_new_string(m->id));
	json_object_object_add(o, "kernel", json_object_new_string(m->kernel));
	json_object_object_add(o, "cpus", json_object_new_int(m->cpus));
	json_object_object_add(o, "numa_nodes", json_object_new_int(m->numa_nodes));
	json_object_object_add(o, "mem_total_kb", json_object_new_int64(m->mem_total_kb));
	json_object_object_add(o, "swap_total_kb", json_object_new_int64(m->swap_total_kb));
	json_object_object_add(o, "page_size", json_object_new_int64(m->page_size));
	for (i = 0; i < m->nswaps; i++) {
		json_object *d = json_object_new_object();
		json_object_object_add(d, "name", json_object_new_string(m->swaps[i].name));
		json_object_object_add(d, "kind", json_object_new_string(m->swaps[i].kind));
		json_object_object_add(d, "size_kb", json_object_new_int64(m->swaps[i].size_kb));
		json_object_array_add(sw, d);
	}
	json_object_object_add(o, "swap_devices", sw);
	json_object_object_add(o, "zswap", m->zswap < 0 ? NULL : json_object_new_boolean(m->zswap));
	json_object_object_add(o, "thp", json_object_new_boolean(m->thp));
	json_object_object_add(o, "mthp_sizes", json_object_new_string(m->mthp_sizes));
	return o;
}

char *machine_json(const struct machine *m)
{
	json_object *o = machine_json_object(m);
	char *s;

	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}

/* A string of a fingerprint from elsewhere (a store row, --machine): one line of
 * text, or the fingerprint is refused. */
static bool get_str(json_object *o, const char *k, char *buf, size_t size)
{
	json_object *v;

	if (json_object_object_get_ex(o, k, &v) && v)
		snprintf(buf, size, "%s", json_object_get_string(v));
	return text_oneline(buf, NULL);
}

static long get_long(json_object *o, const char *k, long dflt)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) && v ? (long)json_object_get_int64(v) : dflt;
}

int machine_from_json(json_object *o, struct machine *m)
{
	json_object *v;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "mem_total_kb", &v))
		return -1;
	if (!get_str(o, "hostname", m->hostname, sizeof(m->hostname)) ||
	    !get_str(o, "machine_id", m->id, sizeof(m->id)) || !get_str(o, "kernel", m->kernel, sizeof(m->kernel)) ||
	    !get_str(o, "mthp_sizes", m->mthp_sizes, sizeof(m->mthp_sizes)))
		return -1;
	m->cpus = (int)get_long(o, "cpus", 1);
	m->numa_nodes = (int)get_long(o, "numa_nodes", 1);
	m->mem_total_kb = get_long(o, "mem_total_kb", 0);
	m->swap_total_kb = get_long(o, "swap_total_kb", 0);
	m->page_size = get_long(o, "page_size", 4096);
	m->zswap = json_object_object_get_ex(o, "zswap", &v) && v ? json_object_get_boolean(v) : -1;
	m->thp = json_object_object_get_ex(o, "thp", &v) && json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "swap_devices", &v) && json_object_is_type(v, json_type_array))
		for (i = 0; i < json_object_array_length(v) && m->nswaps < MACHINE_MAX_SWAPS; i++) {
			json_object *d = json_object_array_get_idx(v, i);
			if (!get_str(d, "name", m->swaps[m->nswaps].name, sizeof(m->swaps[0].name)) ||
			    !get_str(d, "kind", m->swaps[m->nswaps].kind, sizeof(m->swaps[0].kind)))
				return -1;
			m->swaps[m->nswaps++].size_kb = get_long(d, "size_kb", 0);
		}
	return m->mem_total_kb > 0 ? 0 : -1;
}

int machine_override(const char *path)
{
	json_object *o = json_object_from_file(path);
	const char *why = o ? "no mem_total_kb, or a field that is not one line of text" : json_util_get_last_err();
	int rc = machine_from_json(o, &override);

	json_object_put(o);
	if (rc < 0) {
		error("--machine %s: not a machine fingerprint (write one with 'vmtune machine --json'): %s", path,
		      why);
		return EXIT_USAGE;
	}
	have_override = true;
	return 0;
}

const char *const machine_feature_names[MACHINE_NFEAT] = { "memory", "swap device", "cpus", "zswap", "kernel" };
const bool machine_feature_categorical[MACHINE_NFEAT] = { false, true, false, false, false };

static const char *const swap_classes[] = { "none", "rotational", "flash", "compressed" };

static int swap_class(const struct machine *m)
{
	const char *k;
	int i, big = -1;

	for (i = 0; i < m->nswaps; i++)
		if (big < 0 || m->swaps[i].size_kb > m->swaps[big].size_kb)
			big = i;
	if (big < 0)
		return 0;
	k = m->swaps[big].kind;
	if (strcmp(k, "zram") == 0)
		return 3;
	if (strstr(k, "rotational"))
		return 1;
	return 2; /* ssd, nvme, files on them, and what cannot be told */
}

const char *machine_swap_class(const struct machine *m)
{
	return swap_classes[swap_class(m)];
}

const char *machine_swap_kind(const struct machine *m, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", machine_swap_class(m), m->zswap == 1 ? "+zswap" : "");
	return buf;
}

void machine_features(const struct machine *m, double *f)
{
	int major = 0, minor = 0;
	double gb = (double)(m->mem_total_kb > 0 ? m->mem_total_kb : 1) / (1024.0 * 1024.0);

	sscanf(m->kernel, "%d.%d", &major, &minor);
	f[0] = (log2(gb) - 3) / 3; /* 1G -1, 8G 0, 64G 1 */
	f[1] = swap_class(m);
	f[2] = (log2(m->cpus > 0 ? m->cpus : 1) - 2) / 2;
	f[3] = m->zswap == 1 ? 1 : -1;
	f[4] = major ? (major + minor / 100.0 - 6) : 0;
}

const char *machine_summary(const struct machine *m, char *buf, size_t size)
{
	int major = 0, minor = 0;

	sscanf(m->kernel, "%d.%d", &major, &minor);
	snprintf(buf, size, "%.1fG, swap %s%s, %d cpu%s, kernel %d.%d", (double)m->mem_total_kb / (1024.0 * 1024.0),
		 machine_swap_class(m), m->zswap == 1 ? " + zswap" : "", m->cpus, m->cpus == 1 ? "" : "s", major,
		 minor);
	return buf;
}
