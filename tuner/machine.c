/* machine.c - what kind of machine this is: enough to tell results apart. Memory
 * and swap come through libproc2, as every system figure in vmtune does. */
#include <json-c/json.h>
#include <libproc2/meminfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "machine.h"

void machine_read(struct machine *m)
{
	struct utsname u;
	struct sysinfo si;
	struct meminfo_info *mi = NULL;
	struct meminfo_result *r;

	memset(m, 0, sizeof(*m));
	if (gethostname(m->hostname, sizeof(m->hostname) - 1) < 0)
		snprintf(m->hostname, sizeof(m->hostname), "unknown");
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
	if (m->mem_total_kb <= 0 && sysinfo(&si) == 0) {
		m->mem_total_kb = (long)((unsigned long long)si.totalram * si.mem_unit / 1024);
		m->swap_total_kb = (long)((unsigned long long)si.totalswap * si.mem_unit / 1024);
	}
}

char *machine_json(const struct machine *m)
{
	json_object *o = json_object_new_object();
	char *s;

	json_object_object_add(o, "hostname", json_object_new_string(m->hostname));
	json_object_object_add(o, "kernel", json_object_new_string(m->kernel));
	json_object_object_add(o, "cpus", json_object_new_int(m->cpus));
	json_object_object_add(o, "mem_total_kb", json_object_new_int64(m->mem_total_kb));
	json_object_object_add(o, "swap_total_kb", json_object_new_int64(m->swap_total_kb));
	json_object_object_add(o, "page_size", json_object_new_int64(m->page_size));
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}
