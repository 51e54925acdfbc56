/* cmd-apply.c - `vmtune apply PROFILE` (journalled, read back, rolled back on any
 * failure), its --dry-run report, and --boot (the profile for this machine from
 * /etc/vmtune, run by vmtune.service at every boot). */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "commands.h"
#include "journal.h"
#include "knob.h"
#include "machine.h"
#include "profile.h"
#include "settings.h"
#include "size.h"
#include "sysctld.h"
#include "text.h"
#include "vmtune.h"

#define BOOT_PROFILE "/etc/vmtune/boot.yaml"
#define BOOT_DIR "/etc/vmtune/profiles.d"

static const char apply_opts[] =
    "      --dry-run    report what would change and why it might not stick; write nothing\n"
    "      --force      apply values outside a knob's safe range on this machine too\n"
    "      --boot       apply " BOOT_PROFILE " or the first profile in " BOOT_DIR "/\n"
    "                   whose match fits this machine (what vmtune.service runs)\n";

struct fight {
	const char *knob;
	const char *want;
	int n;
};

static void on_sysctld(void *arg, const char *file, int line, const char *value)
{
	struct fight *f = arg;
	char a[PATH_MAX * 2], b[512];

	f->n++;
	printf("  warning: %s is also set in %s:%d (= %s)%s\n", f->knob, text_safe(file, a, sizeof(a)), line,
	       text_safe(value, b, sizeof(b)),
	       strcmp(value, f->want) == 0 ? ", the same value"
					   : "; systemd-sysctl applies it at boot before vmtune.service, and "
					     "'sysctl --system' would put it back later");
}

/* Settings measured with one kind of swap may be wrong for another (page-cluster
 * for a disk against zram): say so when the machine's swap differs from the one the
 * profile records. */
static void swap_differs(const char *path, const struct profile *p)
{
	struct machine m;
	char now[48], a[PATH_MAX * 2], b[128], c[192];

	if (!p->machine.swap[0] || !vt_live())
		return;
	machine_read(&m);
	machine_swap_kind(&m, now, sizeof(now));
	if (strcmp(now, p->machine.swap) != 0)
		warning("%s was measured with %s swap%s%s%s; this machine's swap is %s: its settings may not suit it",
			text_safe(path, a, sizeof(a)), text_safe(p->machine.swap, b, sizeof(b)),
			p->machine.swap_backend[0] ? " (" : "", text_safe(p->machine.swap_backend, c, sizeof(c)),
			p->machine.swap_backend[0] ? ")" : "", now);
}

static int dry_run(const char *path, const struct profile *p)
{
	char cur[64], want[64], safe[PATH_MAX * 2];
	int i, changes = 0, problems = 0;

	/* the profile's strings were checked at load; the path comes from the command line */
	printf("profile %s (%s): %d setting(s)%s%s\n", p->name[0] ? p->name : "(unnamed)",
	       text_safe(path, safe, sizeof(safe)), p->nsettings, p->description[0] ? "\n" : "", p->description);
	printf("\n%-30s %-10s %-10s %-8s %s\n", "KNOB", "CURRENT", "PROFILE", "CHANGE", "STATUS");
	for (i = 0; i < p->nsettings; i++) {
		const struct profile_setting *s = &p->settings[i];
		struct knob_state st;
		const char *change;

		knob_probe(s->def, &st);
		knob_format_value(s->def, s->value, want, sizeof(want));
		if (st.have_value)
			knob_format_value(s->def, st.value, cur, sizeof(cur));
		else
			snprintf(cur, sizeof(cur), "-");
		change = !st.have_value ? "?" : st.value == s->value ? "no" : "yes";
		if (st.have_value && st.value != s->value)
			changes++;
		if (st.status != KS_AVAILABLE)
			problems++;
		printf("%-30s %-10s %-10s %-8s %s%s%s\n", s->def->name, cur, want, change,
		       st.status == KS_AVAILABLE ? "writable" : knob_status_name(st.status), st.why[0] ? ": " : "",
		       st.why);
		if (strncmp(s->def->paths[0].path, "/proc/sys/", 10) == 0) {
			struct fight f = { s->def->name, want, 0 };
			sysctld_find(s->def->name, on_sysctld, &f);
		}
	}
	printf("\n");
	if (p->evidence.present) {
		printf("evidence: %s, %ld trials: %s %.4g -> %.4g (%+.1f%%, 95%% CI %+.1f%% .. %+.1f%%), %s\n",
		       p->evidence.workload, p->evidence.trials, p->evidence.metric, p->evidence.baseline,
		       p->evidence.best, p->evidence.change_pct, p->evidence.ci_lo, p->evidence.ci_hi,
		       p->evidence.significant ? "significant" : "not significant");
	} else {
		printf("evidence: none (this profile was not measured by vmtune search)\n");
	}
	profile_unsafe(p, true);
	printf("%d of %d setting(s) would change%s; nothing was written (dry run)\n", changes, p->nsettings,
	       problems ? ", but some knobs cannot be written here (see STATUS)" : "");
	return problems ? EXIT_ENV : 0;
}

static bool match_fits(const struct profile *p)
{
	struct machine m;
	char why[256];

	machine_read(&m);
	return profile_fits(p, &m, why, sizeof(why));
}

/* The boot profile: boot.yaml, or the first matching one in profiles.d. */
static int find_boot_profile(char *path, size_t size, struct profile *p)
{
	char dir[PATH_MAX], **names;
	int n, i, found = 0;

	if (access(vt_path(path, size, BOOT_PROFILE), F_OK) == 0)
		return profile_load(path, p) == 0 ? 1 : -1;
	n = file_list(vt_path(dir, sizeof(dir), BOOT_DIR), ".yaml", &names);
	for (i = 0; i < n && !found; i++) {
		snprintf(path, size, "%s/%s", dir, names[i]);
		if (profile_load(path, p) != 0)
			warning("skipping %s: it does not load", path);
		else if (match_fits(p))
			found = 1;
		else
			verbose("%s does not match this machine", path);
	}
	if (n > 0)
		file_list_free(names, n);
	return found;
}

int cmd_apply(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { "dry-run", no_argument, NULL, 'n' },
					      { "boot", no_argument, NULL, 'b' },
					      { "force", no_argument, NULL, 'f' },
					      { NULL, 0, NULL, 0 } };
	struct profile p;
	struct setting set[PROFILE_MAX_SETTINGS];
	char path[PATH_MAX];
	bool dry = false, boot = false, force = false;
	int c, i, rc;

	while ((c = getopt_long(argc, argv, "hnbf", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("apply", apply_opts);
			return 0;
		case 'n':
			dry = true;
			break;
		case 'b':
			boot = true;
			break;
		case 'f':
			force = true;
			break;
		default:
			return usage_error("apply", "unknown option");
		}
	}
	if (boot) {
		if (optind != argc)
			return usage_error("apply", "--boot takes no profile: it uses %s or %s/", BOOT_PROFILE,
					   BOOT_DIR);
		openlog("vmtune", LOG_PID, LOG_DAEMON);
		rc = find_boot_profile(path, sizeof(path), &p);
		if (rc < 0)
			return EXIT_USAGE;
		if (rc == 0) {
			info("no boot profile: neither %s nor a matching profile in %s/; nothing to do", BOOT_PROFILE,
			     BOOT_DIR);
			syslog(LOG_INFO, "no boot profile for this machine; nothing applied");
			return 0;
		}
	} else {
		if (optind != argc - 1)
			return usage_error("apply", "name one profile file");
		snprintf(path, sizeof(path), "%s", argv[optind]);
		if ((rc = profile_load(path, &p)) != 0)
			return rc;
	}
	if (!boot)
		swap_differs(path, &p);
	if (dry)
		return dry_run(path, &p);
	/* the boot profile was checked when it was installed */
	if (!boot && !force && profile_unsafe(&p, true)) {
		error("%s: values outside the safe range; nothing was written (--force applies them)", path);
		return EXIT_USAGE;
	}
	for (i = 0; i < p.nsettings; i++) {
		set[i].def = p.settings[i].def;
		set[i].value = p.settings[i].value;
	}
	if ((rc = settings_check(set, p.nsettings)) != 0 || (rc = session_begin()) != 0)
		return rc;
	rc = settings_apply(set, p.nsettings, true);
	if (rc == 0)
		info("applied %s: %d setting(s); 'vmtune restore' puts the originals back", path, p.nsettings);
	if (boot)
		syslog(rc == 0 ? LOG_INFO : LOG_ERR, "%s %s (%d settings)", rc == 0 ? "applied" : "failed to apply",
		       path, p.nsettings);
	return rc;
}
