/* sampler.h - the `vmstat 1` of the seeds, taken while a workload runs. */
#ifndef VMTUNE_SAMPLER_H
#define VMTUNE_SAMPLER_H

#include <stdbool.h>

struct sampler;

/* One point of the series a run keeps (for the report's charts): seconds since
 * the start, swap-in and swap-out pages/s and PSI memory "some" stall (ms per s)
 * since the point before, and free memory (MiB) then. */
struct vm_point {
	float t, si, so, free_mb, psi_some;
};
#define SAMPLER_SERIES_MAX 480 /* a longer run keeps every other point, then every fourth... */

struct sampler_summary {
	int samples;
	int missed_beats;	   /* samples more than 1.5 s after the one before */
	double max_gap;		   /* seconds */
	double si_pages, so_pages; /* swap in/out during the run */
	double bi_kb, bo_kb;	   /* block I/O */
	double cs_per_s, in_per_s;
	double us_pct, sy_pct, id_pct, wa_pct;
	double max_swpd_kb, min_free_kb;
	double psi_some_ms, psi_full_ms;       /* memory stall time during the run, system-wide */
	double cg_psi_some_ms, cg_psi_full_ms; /* the cgroup's (v2 only; NAN otherwise) */
	double cpu_s;			       /* the sampler's own CPU time */
	int nseries;			       /* the run's series, a point per beat and one at the end */
	struct vm_point series[SAMPLER_SERIES_MAX];
};

/* Sample every second through libproc2 (meminfo, vmstat, stat) and PSI, until
 * stopped. cgroup: the workload cgroup's directory (its memory.pressure is read
 * where it exists), or NULL. stream: print a vmstat-like line per sample to stderr. */
int sampler_start(struct sampler **sp, const char *cgroup, bool stream);
void sampler_stop(struct sampler *s, struct sampler_summary *sum);
/* The some/full stall totals (us) of a PSI file such as /proc/pressure/memory; NAN if unreadable. */
void psi_totals(const char *path, double *some, double *full);

#endif
