/* html.h - a self-contained HTML page with gnuplot charts (html.c). */
#ifndef VMTUNE_HTML_H
#define VMTUNE_HTML_H

#include <limits.h>
#include <stdio.h>

struct html {
	FILE *f;
	char dir[64]; /* the scratch directory gnuplot works in */
	char tmp[PATH_MAX], path[PATH_MAX];
	int charts;
	void *ctx; /* the caller's */
};

/* Open FILE.tmp, write the head (title escaped, the style, the CSP) and <h1>;
 * 0 or an exit code. */
int html_open(struct html *h, const char *path, const char *title);
/* Close the page, rename it into place when rc is 0 (else remove it), remove the
 * scratch directory; the resulting rc. */
int html_close(struct html *h, int rc);
/* The caller's own words and numbers (nothing from outside: that goes through
 * html_esc). */
void html_out(struct html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void html_esc(FILE *f, const char *s);
/* A word safe inside a gnuplot single-quoted string and an SVG title. */
const char *gp_word(const char *s, char *buf, size_t size);
void html_figure_open(struct html *h, const char *id, const char *title);
/* A figure without a chart, saying why. */
void html_missing(struct html *h, const char *id, const char *title, const char *why);

/* A growing gnuplot script. */
struct gpbuf {
	char *s;
	size_t len, cap;
};
void gpbuf_printf(struct gpbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Run gnuplot on the script (the terminal, the grid and the key are set first) and
 * copy the SVG into the page; the buffer is emptied. 0 or -1 (said). */
int html_draw(struct html *h, const char *script, int height);
int html_draw_buf_h(struct html *h, struct gpbuf *b, int height);
int html_draw_buf(struct html *h, struct gpbuf *b);

struct gp;
struct space_dim;
/* The model's curve over one knob (coded dimension k of x, the others as x has
 * them): rows "value mean low high" (the 95% band) in the knob's units, costs as
 * ratios; an enum's choices by index. */
void gp_knob_curve(struct gpbuf *b, const struct gp *gp, const struct space_dim *dm, int k, double *x);
/* The x axis of a knob's chart: its name and range, a log scale, an enum's
 * choices as tics; the y axis a cost relative to the original. */
void gp_knob_axis(struct gpbuf *b, const struct space_dim *dm);

#endif
