/* cmd-knobs.c - `vmtune knobs`: the catalogue against this kernel. */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "catalogue.h"
#include "commands.h"
#include "knob.h"
#include "swap.h"
#include "vmtune.h"

static const char knobs_opts[] = "  --json       machine-readable output\n";

static const char *status_text(const struct knob_state *st)
{
	if (st->status == KS_AVAILABLE && !knob_searchable(st->def))
		return "not searchable";
	return knob_status_name(st->status);
}

static json_object *knob_json(const struct knob_state *st)
{
	const struct knob_def *d = st->def;
	json_object *o = json_object_new_object(), *range;
	long lo, hi;

	json_object_object_add(o, "name", json_object_new_string(d->name));
	if (st->have_value)
		json_object_object_add(o, "value", knob_value_json(d, st->value));
	else
		json_object_object_add(o, "value", NULL);
	json_object_object_add(o, "default", knob_value_json(d, knob_default(d)));
	range = json_object_new_array();
	json_object_array_add(range, json_object_new_int64(d->min));
	json_object_array_add(range, json_object_new_int64(d->max));
	json_object_object_add(o, "range", range);
	if (knob_searchable(d)) {
		knob_search_range(d, st->have_value ? st->value : knob_default(d), &lo, &hi);
		range = json_object_new_array();
		json_object_array_add(range, json_object_new_int64(lo));
		json_object_array_add(range, json_object_new_int64(hi));
		json_object_object_add(o, "search_range", range);
		/* how search spreads its trials over that range: evenly, or evenly in log2 */
		json_object_object_add(o, "search_scale",
				       json_object_new_string(d->type == KT_ENUM		 ? "choice"
							      : d->scale == SCALE_LOG2 && lo > 0 ? "log2"
												 : "linear"));
	} else {
		json_object_object_add(o, "search_range", NULL);
	}
	if (d->type == KT_ENUM) {
		json_object *ch = json_object_new_array();
		int i;
		for (i = 0; d->choices[i]; i++)
			json_object_array_add(ch, json_object_new_string(d->choices[i]));
		json_object_object_add(o, "choices", ch);
	}
	json_object_object_add(o, "path", st->path[0] ? json_object_new_string(st->path) : NULL);
	json_object_object_add(o, "status", json_object_new_string(knob_status_name(st->status)));
	json_object_object_add(o, "searchable", json_object_new_boolean(knob_searchable(d)));
	if (st->why[0])
		json_object_object_add(o, "why", json_object_new_string(st->why));
	if (d->note)
		json_object_object_add(o, "note", json_object_new_string(d->note));
	return o;
}

int cmd_knobs(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { "json", no_argument, NULL, 'j' },
					      { NULL, 0, NULL, 0 } };
	struct knob_state st;
	json_object *arr = NULL;
	size_t i;
	int c, nrestricted = 0;

	while ((c = getopt_long(argc, argv, "hj", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("knobs", knobs_opts);
			return 0;
		case 'j':
			vt.json = 1;
			break;
		default:
			return usage_error("knobs", "unknown option");
		}
	}
	if (optind < argc)
		return usage_error("knobs", "unexpected argument '%s'", argv[optind]);
	if (vt.json)
		arr = json_object_new_array();
	else
		printf("%-30s %-9s %-9s %-14s %-15s %s\n", "KNOB", "VALUE", "DEFAULT", "SEARCH", "STATUS", "PATH");
	for (i = 0; i < knob_catalogue_len; i++) {
		const struct knob_def *d = &knob_catalogue[i];
		char val[64] = "-", def[64], range[32] = "-";
		long lo, hi;

		knob_probe(d, &st);
		if (vt.json) {
			json_object_array_add(arr, knob_json(&st));
			continue;
		}
		if (st.have_value)
			knob_format_value(d, st.value, val, sizeof(val));
		else if (st.status == KS_RESTRICTED)
			snprintf(val, sizeof(val), "?");
		knob_format_value(d, knob_default(d), def, sizeof(def));
		if (knob_searchable(d)) {
			knob_search_range(d, st.have_value ? st.value : knob_default(d), &lo, &hi);
			if (d->type == KT_ENUM)
				snprintf(range, sizeof(range), "%ld choices", hi - lo + 1);
			else
				snprintf(range, sizeof(range), "%ld..%ld", lo, hi);
		}
		printf("%-30s %-9s %-9s %-14s %-15s %s\n", d->name, val, def, range, status_text(&st),
		       st.path[0] ? st.path : "-");
		if (st.status == KS_RESTRICTED)
			nrestricted++;
	}
	if (vt.json) {
		printf("%s\n",
		       json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
		return 0;
	}
	printf("\n%s: not a kernel knob but the swap backend of search's sandbox, searched only when named "
	       "(search --knobs swap --swap SIZE): file, zram or file+zswap\n",
	       swap_knob.name);
	if (nrestricted) {
		printf("\n");
		for (i = 0; i < knob_catalogue_len; i++) {
			knob_probe(&knob_catalogue[i], &st);
			if (st.status == KS_RESTRICTED)
				printf("%s: %s\n", st.def->name, st.why);
		}
	}
	return 0;
}
