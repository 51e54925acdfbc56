/* sampler.c - a thread that wakes once a second while a workload runs and takes
 * the columns of `vmstat 1` through libproc2 (free, buff, cache, swpd, si, so, bi,
 * bo, in, cs, us, sy, id, wa) plus PSI memory stall time. A wake-up more than 1.5 s
 * after the previous one is a missed beat: the machine was too stalled to run it. */
#include <libproc2/meminfo.h>
#include <libproc2/stat.h>
#include <libproc2/vmstat.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sampler.h"
#include "vmtune.h"

struct sample {
	double t;
	double free_kb, buff_kb, cache_kb, swpd_kb;
	double si, so, bi, bo; /* cumulative: pages, pages, KiB, KiB */
	double in, cs;
	double us, sy, id, wa;			     /* cumulative ticks */
	double psi_some, psi_full, cg_some, cg_full; /* cumulative us */
};

struct sampler {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop, stream;
	char cg_pressure[PATH_MAX];
	struct meminfo_info *mi;
	struct vmstat_info *vi;
	struct stat_info *si;
	struct sample first, prev;
	struct sampler_summary sum;
	int stride, skipped; /* the series keeps every stride-th point */
};

/* A point of the series from the sample before; when the series is full, every
 * other point goes and the stride doubles (the last point is always kept). */
static void add_point(struct sampler *s, const struct sample *p, const struct sample *x, bool last)
{
	struct sampler_summary *u = &s->sum;
	double dt = x->t - p->t;
	struct vm_point *q;
	int i;

	if (dt <= 0)
		return;
	if (!last && ++s->skipped < s->stride)
		return;
	s->skipped = 0;
	if (u->nseries == SAMPLER_SERIES_MAX) {
		for (i = 0; 2 * i + 1 < SAMPLER_SERIES_MAX; i++)
			u->series[i] = u->series[2 * i + 1];
		u->nseries = i;
		s->stride *= 2;
	}
	q = &u->series[u->nseries++];
	q->t = (float)(x->t - s->first.t);
	q->si = (float)((x->si - p->si) / dt);
	q->so = (float)((x->so - p->so) / dt);
	q->free_mb = (float)(x->free_kb / 1024);
	q->psi_some =
	    isfinite(x->psi_some) && isfinite(p->psi_some) ? (float)((x->psi_some - p->psi_some) / 1e3 / dt) : NAN;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=123": the totals, in us */
void psi_totals(const char *path, double *some, double *full)
{
	FILE *f = fopen(path, "re");
	char line[256];
	unsigned long long t;

	*some = *full = NAN;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "total=");
		if (!p || sscanf(p, "total=%llu", &t) != 1)
			continue;
		if (strncmp(line, "some", 4) == 0)
			*some = (double)t;
		else if (strncmp(line, "full", 4) == 0)
			*full = (double)t;
	}
	fclose(f);
}

static void take(struct sampler *s, struct sample *x)
{
	static enum meminfo_item mitems[] = { MEMINFO_MEM_FREE, MEMINFO_MEM_BUFFERS, MEMINFO_MEM_CACHED,
					      MEMINFO_SWAP_USED };
	static enum vmstat_item vitems[] = { VMSTAT_PSWPIN, VMSTAT_PSWPOUT, VMSTAT_PGPGIN, VMSTAT_PGPGOUT };
	static enum stat_item sitems[] = { STAT_SYS_INTERRUPTS, STAT_SYS_CTX_SWITCHES, STAT_TIC_USER,  STAT_TIC_NICE,
					   STAT_TIC_SYSTEM,	STAT_TIC_IDLE,	       STAT_TIC_IOWAIT };
	struct meminfo_stack *m;
	struct vmstat_stack *v;
	struct stat_stack *st;

	memset(x, 0, sizeof(*x));
	x->t = vt_now();
	/* _select re-reads /proc each time (the _get calls cache for a second) */
	if (s->mi && (m = procps_meminfo_select(s->mi, mitems, 4))) {
		x->free_kb = (double)m->head[0].result.ul_int;
		x->buff_kb = (double)m->head[1].result.ul_int;
		x->cache_kb = (double)m->head[2].result.ul_int;
		x->swpd_kb = (double)m->head[3].result.ul_int;
	}
	if (s->vi && (v = procps_vmstat_select(s->vi, vitems, 4))) {
		x->si = (double)v->head[0].result.ul_int;
		x->so = (double)v->head[1].result.ul_int;
		x->bi = (double)v->head[2].result.ul_int; /* pgpgin is already KiB */
		x->bo = (double)v->head[3].result.ul_int;
	}
	if (s->si && (st = procps_stat_select(s->si, sitems, 7))) {
		x->in = (double)st->head[0].result.ul_int;
		x->cs = (double)st->head[1].result.ul_int;
		x->us = (double)(st->head[2].result.ull_int + st->head[3].result.ull_int);
		x->sy = (double)st->head[4].result.ull_int;
		x->id = (double)st->head[5].result.ull_int;
		x->wa = (double)st->head[6].result.ull_int;
	}
	psi_totals("/proc/pressure/memory", &x->psi_some, &x->psi_full);
	if (s->cg_pressure[0])
		psi_totals(s->cg_pressure, &x->cg_some, &x->cg_full);
	else
		x->cg_some = x->cg_full = NAN;
}

static void stream_line(const struct sample *p, const struct sample *x)
{
	double dt = x->t - p->t, ticks = (x->us - p->us) + (x->sy - p->sy) + (x->id - p->id) + (x->wa - p->wa);

	if (ticks <= 0)
		ticks = 1;
	fprintf(stderr,
		"%8.0f %8.0f %6.0f %8.0f %5.0f %5.0f %6.0f %6.0f %6.0f %6.0f %3.0f %3.0f %3.0f %3.0f %7.1f %7.1f\n",
		x->swpd_kb, x->free_kb, x->buff_kb, x->cache_kb, (x->si - p->si) / dt, (x->so - p->so) / dt,
		(x->bi - p->bi) / dt, (x->bo - p->bo) / dt, (x->in - p->in) / dt, (x->cs - p->cs) / dt,
		100 * (x->us - p->us) / ticks, 100 * (x->sy - p->sy) / ticks, 100 * (x->id - p->id) / ticks,
		100 * (x->wa - p->wa) / ticks, (x->psi_some - p->psi_some) / 1e3 / dt,
		(x->psi_full - p->psi_full) / 1e3 / dt);
}

static void *run(void *arg)
{
	struct sampler *s = arg;
	struct timespec next;
	struct sample x;
	sigset_t block;

	/* signals are for the main thread, which stops the workload */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &block, NULL);
	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		next.tv_sec += 1;
		if (pthread_cond_timedwait(&s->cond, &s->lock, &next) == 0 && s->stop)
			break;
		if (s->stop)
			break;
		pthread_mutex_unlock(&s->lock);
		take(s, &x);
		if (x.t - s->prev.t > s->sum.max_gap)
			s->sum.max_gap = x.t - s->prev.t;
		if (x.t - s->prev.t > 1.5) {
			s->sum.missed_beats++;
			/* catch up: the next beat is a second from now, not from when it should have been */
			clock_gettime(CLOCK_MONOTONIC, &next);
		}
		if (x.swpd_kb > s->sum.max_swpd_kb)
			s->sum.max_swpd_kb = x.swpd_kb;
		if (x.free_kb < s->sum.min_free_kb)
			s->sum.min_free_kb = x.free_kb;
		if (s->stream)
			stream_line(&s->prev, &x);
		add_point(s, &s->prev, &x, false);
		s->prev = x;
		s->sum.samples++;
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	{
		struct timespec cpu;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
		s->sum.cpu_s = (double)cpu.tv_sec + (double)cpu.tv_nsec / 1e9;
	}
	return NULL;
}

int sampler_start(struct sampler **sp, const char *cgroup, bool stream)
{
	struct sampler *s = calloc(1, sizeof(*s));
	pthread_condattr_t ca;

	if (!s)
		return error("out of memory");
	if (procps_meminfo_new(&s->mi) < 0)
		s->mi = NULL;
	if (procps_vmstat_new(&s->vi) < 0)
		s->vi = NULL;
	if (procps_stat_new(&s->si) < 0)
		s->si = NULL;
	s->stream = stream;
	s->stride = 1;
	if (cgroup)
		snprintf(s->cg_pressure, sizeof(s->cg_pressure), "%s/memory.pressure", cgroup);
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	take(s, &s->first);
	s->prev = s->first;
	s->sum.min_free_kb = s->first.free_kb;
	s->sum.max_swpd_kb = s->first.swpd_kb;
	if (stream)
		fprintf(stderr, "%8s %8s %6s %8s %5s %5s %6s %6s %6s %6s %3s %3s %3s %3s %7s %7s\n", "swpd", "free",
			"buff", "cache", "si", "so", "bi", "bo", "in", "cs", "us", "sy", "id", "wa", "psiSome",
			"psiFull");
	if (pthread_create(&s->thread, NULL, run, s) != 0) {
		free(s);
		return error("cannot start the sampler thread");
	}
	*sp = s;
	return 0;
}

void sampler_stop(struct sampler *s, struct sampler_summary *sum)
{
	struct sample last;
	double dt, ticks;

	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	take(s, &last);
	add_point(s, &s->prev, &last, true);
	*sum = s->sum;
	dt = last.t - s->first.t;
	if (dt <= 0)
		dt = 1e-9;
	ticks = (last.us - s->first.us) + (last.sy - s->first.sy) + (last.id - s->first.id) + (last.wa - s->first.wa);
	if (ticks <= 0)
		ticks = 1;
	sum->si_pages = last.si - s->first.si;
	sum->so_pages = last.so - s->first.so;
	sum->bi_kb = last.bi - s->first.bi;
	sum->bo_kb = last.bo - s->first.bo;
	sum->cs_per_s = (last.cs - s->first.cs) / dt;
	sum->in_per_s = (last.in - s->first.in) / dt;
	sum->us_pct = 100 * (last.us - s->first.us) / ticks;
	sum->sy_pct = 100 * (last.sy - s->first.sy) / ticks;
	sum->id_pct = 100 * (last.id - s->first.id) / ticks;
	sum->wa_pct = 100 * (last.wa - s->first.wa) / ticks;
	sum->psi_some_ms = (last.psi_some - s->first.psi_some) / 1e3;
	sum->psi_full_ms = (last.psi_full - s->first.psi_full) / 1e3;
	sum->cg_psi_some_ms = (last.cg_some - s->first.cg_some) / 1e3;
	sum->cg_psi_full_ms = (last.cg_full - s->first.cg_full) / 1e3;
	if (s->mi)
		procps_meminfo_unref(&s->mi);
	if (s->vi)
		procps_vmstat_unref(&s->vi);
	if (s->si)
		procps_stat_unref(&s->si);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
}
