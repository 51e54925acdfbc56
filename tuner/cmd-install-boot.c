/* cmd-install-boot.c - `vmtune install-boot PROFILE`: put the profile at
 * /etc/vmtune/boot.yaml, install vmtune.service (ordered after systemd-sysctl) and
 * enable it, so `vmtune apply --boot` applies the profile at every boot. --remove
 * undoes it; --dry-run says exactly what it would do. Paths resolve under --root. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "profile.h"
#include "vmtune.h"

static const char unit_template[] =
#include "unit.h"
    ;

#define BOOT_PROFILE "/etc/vmtune/boot.yaml"
#define UNIT "/etc/systemd/system/vmtune.service"
#define WANTS "/etc/systemd/system/multi-user.target.wants/vmtune.service"
#define MARK "# installed by vmtune install-boot\n"

static const char install_opts[] = "      --dry-run    say what would be done; change nothing\n"
				   "      --force      install a profile with values outside a knob's safe range here\n"
				   "      --remove     disable and remove the unit and the boot profile\n";

/* The directories above path. */
static int mkdirs(const char *path)
{
	char dir[PATH_MAX], *slash;
	int r;

	snprintf(dir, sizeof(dir), "%s", path);
	if ((slash = strrchr(dir, '/')) && slash != dir) {
		*slash = '\0';
		if ((r = file_mkdir_p(dir, 0755)) < 0)
			return error("cannot create '%s': %s", dir, strerror(-r));
	}
	return 0;
}

static int write_file(const char *path, const char *data, size_t len, mode_t mode)
{
	char tmp[PATH_MAX];
	FILE *f;
	int r;

	if (mkdirs(path) < 0)
		return -1;
	if (!(f = file_atomic_open(path, tmp)))
		return error("cannot write '%s': %s", tmp, strerror(errno));
	if (fwrite(data, 1, len, f) != len) {
		r = errno;
		file_atomic_abort(f, tmp);
		return error("cannot write '%s': %s", tmp, strerror(r));
	}
	if ((r = file_atomic_commit(f, tmp, path, mode)) < 0)
		return error("cannot write '%s': %s", path, strerror(-r));
	return 0;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (*len + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = *len + 8192);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, 4096, f);
		*len += n;
	} while (n > 0);
	fclose(f);
	buf[*len] = '\0';
	return buf;
}

/* The unit with ExecStart pointing at this very vmtune binary. */
static char *unit_text(void)
{
	char exe[PATH_MAX], *out;
	const char *at = strstr(unit_template, "@VMTUNE@");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t len;

	if (n <= 0 || !at)
		return NULL;
	exe[n] = '\0';
	len = strlen(MARK) + strlen(unit_template) + (size_t)n + 1;
	if (!(out = malloc(len)))
		return NULL;
	snprintf(out, len, "%s%.*s%s%s", MARK, (int)(at - unit_template), unit_template, exe, at + strlen("@VMTUNE@"));
	return out;
}

/* Tell a running systemd about the change; the enable symlink is made by hand,
 * exactly as `systemctl enable` would make it, so it works in a --root tree too. */
static void daemon_reload(void)
{
	pid_t pid;
	int st;

	if (!vt_live() || access("/run/systemd/system", F_OK) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		execlp("systemctl", "systemctl", "daemon-reload", (char *)NULL);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &st, 0) == pid && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
		warning("'systemctl daemon-reload' failed; run it by hand");
}

static int do_remove(bool dry)
{
	char unit[PATH_MAX], wants[PATH_MAX], boot[PATH_MAX], *text;
	size_t len;
	int rc = 0;

	vt_path(unit, sizeof(unit), UNIT);
	vt_path(wants, sizeof(wants), WANTS);
	vt_path(boot, sizeof(boot), BOOT_PROFILE);
	text = read_all(unit, &len);
	if (text && strncmp(text, MARK, strlen(MARK)) != 0) {
		free(text);
		error("%s was not installed by vmtune install-boot; leaving it alone", unit);
		return EXIT_ENV;
	}
	free(text);
	const char *files[] = { wants, unit, boot };
	for (size_t i = 0; i < 3; i++) {
		if (access(files[i], F_OK) < 0 && errno == ENOENT) {
			struct stat sb;
			if (lstat(files[i], &sb) < 0)
				continue; /* a dangling symlink still goes */
		}
		if (dry) {
			printf("would remove %s\n", files[i]);
			continue;
		}
		if (unlink(files[i]) < 0) {
			error("cannot remove %s: %s", files[i], strerror(errno));
			rc = EXIT_ENV;
		} else {
			info("removed %s", files[i]);
		}
	}
	if (!dry)
		daemon_reload();
	return rc;
}

int cmd_install_boot(int argc, char **argv)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' },
					      { "dry-run", no_argument, NULL, 'n' },
					      { "remove", no_argument, NULL, 'r' },
					      { "force", no_argument, NULL, 'f' },
					      { NULL, 0, NULL, 0 } };
	char unit[PATH_MAX], wants[PATH_MAX], boot[PATH_MAX], *text, *profile_text;
	struct profile p;
	bool dry = false, remove = false, force = false;
	size_t plen;
	int c, rc;

	while ((c = getopt_long(argc, argv, "hnrf", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_cmd_help("install-boot", install_opts);
			return 0;
		case 'n':
			dry = true;
			break;
		case 'r':
			remove = true;
			break;
		case 'f':
			force = true;
			break;
		default:
			return usage_error("install-boot", "unknown option");
		}
	}
	if (remove) {
		if (optind != argc)
			return usage_error("install-boot", "--remove takes no profile");
		return do_remove(dry);
	}
	if (optind != argc - 1)
		return usage_error("install-boot", "name one profile file");
	if ((rc = profile_load(argv[optind], &p)) != 0)
		return rc;
	/* at boot nobody is there to decide: a value outside the safe range is decided now */
	if (!force && profile_unsafe(&p, true)) {
		error("%s: values outside the safe range; not installed (--force installs it)", argv[optind]);
		return EXIT_USAGE;
	}
	if (!(profile_text = read_all(argv[optind], &plen)) || !(text = unit_text())) {
		free(profile_text);
		error("cannot read '%s' or this program's path", argv[optind]);
		return EXIT_ENV;
	}
	vt_path(unit, sizeof(unit), UNIT);
	vt_path(wants, sizeof(wants), WANTS);
	vt_path(boot, sizeof(boot), BOOT_PROFILE);
	if (dry) {
		printf("would copy %s (%d settings) to %s\n", argv[optind], p.nsettings, boot);
		printf("would write %s:\n%s", unit, text);
		printf("would enable it: symlink %s -> ../vmtune.service\n", wants);
		printf("at every boot, after systemd-sysctl.service, it runs 'vmtune apply --boot'\n");
		printf("nothing was changed (dry run)\n");
		free(text);
		free(profile_text);
		return 0;
	}
	rc = write_file(boot, profile_text, plen, 0644) < 0 || write_file(unit, text, strlen(text), 0644) < 0 ||
		     mkdirs(wants) < 0
		 ? EXIT_ENV
		 : 0;
	free(text);
	free(profile_text);
	if (rc)
		return rc;
	if (unlink(wants) < 0 && errno != ENOENT) {
		error("cannot replace %s: %s", wants, strerror(errno));
		return EXIT_ENV;
	}
	if (symlink("../vmtune.service", wants) < 0) {
		error("cannot enable: symlink %s: %s", wants, strerror(errno));
		return EXIT_ENV;
	}
	daemon_reload();
	info("installed %s and %s, enabled: the profile is applied at every boot ('vmtune install-boot --remove' "
	     "undoes it)",
	     boot, unit);
	return 0;
}
