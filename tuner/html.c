/* html.c - the pages vmtune writes (report --html, recommend --html): one
 * self-contained HTML file with a strict Content-Security-Policy, no script and
 * no request to anywhere, its charts inline SVG drawn by gnuplot's SVG terminal in
 * a scratch directory. The page is written to FILE.tmp and renamed into place
 * only when complete. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gp.h"
#include "html.h"
#include "knob.h"
#include "space.h"
#include "vmtune.h"

static const char style[] =
    "<style>body{font-family:sans-serif;max-width:62em;margin:1em auto;padding:0 1em;color:#222}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}"
    "figure{margin:1.5em 0;border-top:1px solid #ddd;padding-top:.5em}figcaption{font-weight:bold}"
    "svg{width:100%;height:auto}.missing{color:#a33;font-style:italic}code{background:#f4f4f4}</style>\n";

void html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* printf with every %s argument escaped is awkward in C: callers escape with esc()
 * and use this for their own words and numbers only. */
void html_out(struct html *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(h->f, fmt, ap);
	va_end(ap);
}

/* A word safe inside a gnuplot single-quoted string and an SVG title. */
const char *gp_word(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	for (; s && *s && n + 1 < size; s++)
		buf[n++] = (char)((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
					  strchr("._-+ ()", *s)
				      ? *s
				      : '?');
	buf[n] = '\0';
	return buf;
}

/* Run gnuplot on script; the SVG it made, with its ids made unique to this chart,
 * is copied into the page. */
int html_draw(struct html *h, const char *script, int height)
{
	char sp[128], svgp[128], logp[128], *svg = NULL, line[256];
	int status, n = h->charts;
	pid_t pid;
	FILE *f;
	size_t len = 0;
	long size;

	snprintf(sp, sizeof(sp), "%s/c%d.gp", h->dir, n);
	snprintf(svgp, sizeof(svgp), "%s/c%d.svg", h->dir, n);
	snprintf(logp, sizeof(logp), "%s/c%d.log", h->dir, n);
	if (!(f = fopen(sp, "we")))
		return error("%s: %s", sp, strerror(errno));
	fprintf(f,
		"set terminal svg size 760,%d dynamic noenhanced font 'sans,11' name 'c%d'\nset output '%s'\n"
		"set encoding utf8\nset grid\nset key outside bottom center horizontal\n%s",
		height, n, svgp, script);
	fclose(f);
	pid = fork();
	if (pid < 0)
		return error("fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execlp("gnuplot", "gnuplot", sp, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			return error("gnuplot is not installed: the HTML report draws its charts with it "
				     "(Debian: apt-get install gnuplot-nox)");
		error("gnuplot failed on chart %d:", n);
		if ((f = fopen(logp, "re"))) {
			while (fgets(line, sizeof(line), f))
				fprintf(stderr, "  %s", line);
			fclose(f);
		}
		return -1;
	}
	if (!(f = fopen(svgp, "re")))
		return error("%s: %s", svgp, strerror(errno));
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	if (size > 0 && (svg = malloc((size_t)size + 1)))
		len = fread(svg, 1, (size_t)size, f);
	fclose(f);
	if (!svg)
		return error("gnuplot made no chart %d", n);
	svg[len] = '\0';
	{
		static const char *const ids[] = { "gpPt", "gpDot", "greybox", "textbox", "gnuplot_canvas" };
		char *p = strstr(svg, "<svg");
		/* each id and reference to it gets the chart's prefix: gnuplot names them alike in every chart */
		for (; p && *p; p++) {
			size_t k;
			for (k = 0; k < sizeof(ids) / sizeof(ids[0]); k++)
				if (strncmp(p, ids[k], strlen(ids[k])) == 0 &&
				    (p[-1] == '#' || p[-1] == '\'' || p[-1] == '"'))
					break;
			if (k < sizeof(ids) / sizeof(ids[0]))
				fprintf(h->f, "c%d_", n);
			fputc(*p, h->f);
		}
	}
	free(svg);
	unlink(sp);
	unlink(svgp);
	unlink(logp);
	return 0;
}

void html_figure_open(struct html *h, const char *id, const char *title)
{
	h->charts++;
	html_out(h, "<figure id=\"%s\">\n<figcaption>%s</figcaption>\n", id, title);
}

void html_missing(struct html *h, const char *id, const char *title, const char *why)
{
	html_out(h, "<figure id=\"%s\" class=\"missing\">\n<figcaption>%s</figcaption>\n<p class=\"missing\">", id,
		 title);
	html_esc(h->f, why);
	html_out(h, "</p>\n</figure>\n");
}

void gpbuf_printf(struct gpbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n >= 0 && b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		b->cap = (b->cap + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
		if (b->len == 0)
			b->s[0] = '\0';
	}
}

int html_draw_buf_h(struct html *h, struct gpbuf *b, int height)
{
	int rc = html_draw(h, b->s ? b->s : "", height);
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	return rc;
}

int html_draw_buf(struct html *h, struct gpbuf *b)
{
	return html_draw_buf_h(h, b, 380);
}

/* The scratch directory and what a failed chart left in it. */
static void scratch_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[PATH_MAX];

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

int html_open(struct html *h, const char *path, const char *title)
{
	int fd;

	memset(h->dir, 0, sizeof(h->dir));
	h->charts = 0;
	snprintf(h->dir, sizeof(h->dir), "/tmp/vmtune-report-XXXXXX");
	if (!mkdtemp(h->dir))
		return error("cannot make a scratch directory: %s", strerror(errno)), EXIT_ENV;
	snprintf(h->tmp, sizeof(h->tmp), "%s.tmp", path);
	snprintf(h->path, sizeof(h->path), "%s", path);
	fd = open(h->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 || !(h->f = fdopen(fd, "w"))) {
		error("%s: %s", h->tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		rmdir(h->dir);
		return EXIT_ENV;
	}
	html_out(
	    h,
	    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
	    "<title>");
	html_esc(h->f, title);
	html_out(h, "</title>\n%s</head>\n<body>\n<h1>", style);
	html_esc(h->f, title);
	html_out(h, "</h1>\n");
	return 0;
}

int html_close(struct html *h, int rc)
{
	html_out(h,
		 "<p>Made by vmtune from the results store; every chart above is an inline SVG drawn by gnuplot.</p>\n"
		 "</body>\n</html>\n");
	if (fclose(h->f) != 0 && rc == 0)
		rc = (error("%s: %s", h->tmp, strerror(errno)), EXIT_ENV);
	if (rc == 0 && rename(h->tmp, h->path) < 0)
		rc = (error("%s: %s", h->path, strerror(errno)), EXIT_ENV);
	if (rc)
		unlink(h->tmp);
	scratch_remove(h->dir);
	return rc;
}

void gp_knob_curve(struct gpbuf *b, const struct gp *gp, const struct space_dim *dm, int k, double *x)
{
	int steps = dm->categorical ? (int)(dm->hi - dm->lo + 1) : 41, j;

	for (j = 0; j < steps; j++) {
		double c = dm->categorical ? (double)(dm->lo + j) : -1 + 2.0 * j / (steps - 1), m, sd, kx;
		x[k] = c;
		gp_predict(gp, x, &m, &sd);
		/* the model between the values the knob takes too: a curve, not steps */
		if (dm->categorical)
			kx = j;
		else if (dm->log)
			kx = exp2(log2((double)dm->lo) + (c + 1) / 2 * (log2((double)dm->hi) - log2((double)dm->lo)));
		else
			kx = (double)dm->lo + (c + 1) / 2 * (double)(dm->hi - dm->lo);
		gpbuf_printf(b, "%.6g %.6g %.6g %.6g\n", kx, exp(m), exp(m - 1.96 * sd), exp(m + 1.96 * sd));
	}
}

void gp_knob_axis(struct gpbuf *b, const struct space_dim *dm)
{
	char lo[64], hi[64], val[64], w[64];
	long j;

	gpbuf_printf(b, "set xlabel '%s (%s..%s%s)'\nset ylabel 'cost relative to the original'\n", dm->def->name,
		     knob_format_value(dm->def, dm->lo, lo, sizeof(lo)),
		     knob_format_value(dm->def, dm->hi, hi, sizeof(hi)), dm->log ? ", log scale" : "");
	if (dm->log)
		gpbuf_printf(b, "set logscale x 2\n");
	if (dm->categorical) {
		gpbuf_printf(b, "set xrange [-0.5:%ld.5]\nset xtics (", dm->hi - dm->lo);
		for (j = 0; j <= dm->hi - dm->lo; j++)
			gpbuf_printf(b, "%s'%s' %ld", j ? ", " : "",
				     gp_word(knob_format_value(dm->def, dm->lo + j, val, sizeof(val)), w, sizeof(w)),
				     j);
		gpbuf_printf(b, ")\n");
	}
}
