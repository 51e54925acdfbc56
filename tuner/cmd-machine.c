/* cmd-machine.c - `vmtune machine`: the fingerprint stored with every search run. */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>

#include "commands.h"
#include "machine.h"
#include "vmtune.h"

int cmd_machine(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { "json", no_argument, NULL, 'j' },
					      { NULL, 0, NULL, 0 } };
	struct machine m;
	int c, i;

	while ((c = getopt_long(argc, argv, "hj", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("machine", "  --json       machine-readable output\n");
			return 0;
		case 'j':
			vt.json = 1;
			break;
		default:
			return usage_error("machine", "unknown option");
		}
	}
	if (optind != argc)
		return usage_error("machine", "unexpected argument '%s'", argv[optind]);
	machine_read(&m);
	if (vt.json) {
		json_object *o = machine_json_object(&m);
		printf("%s\n",
		       json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
		return 0;
	}
	printf("%-14s %s\n", "hostname", m.hostname);
	printf("%-14s %s\n", "machine id", m.id[0] ? m.id : "unknown (no /etc/machine-id)");
	printf("%-14s %s\n", "kernel", m.kernel);
	printf("%-14s %d (%d NUMA node%s)\n", "cpus", m.cpus, m.numa_nodes, m.numa_nodes == 1 ? "" : "s");
	printf("%-14s %ld kB\n", "memory", m.mem_total_kb);
	printf("%-14s %ld kB%s\n", "swap", m.swap_total_kb, m.nswaps ? "" : " (none configured)");
	for (i = 0; i < m.nswaps; i++)
		printf("%-14s %s: %s, %ld kB\n", "", m.swaps[i].name, m.swaps[i].kind, m.swaps[i].size_kb);
	printf("%-14s %s\n", "zswap", m.zswap < 0 ? "not built in" : m.zswap ? "on" : "off");
	printf("%-14s %ld bytes\n", "page size", m.page_size);
	printf("%-14s %s\n", "THP", m.thp ? "available" : "not available");
	printf("%-14s %s\n", "mTHP sizes", m.mthp_sizes[0] ? m.mthp_sizes : "none");
	return 0;
}
