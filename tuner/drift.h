/* drift.h - the level of the original settings over a search, from its baseline runs.
 * A local-level model: the log cost of the original settings is a random walk in the
 * run's position, seen through independent measurement noise. The walk's variance
 * per unit of position is q times the noise variance; q is fitted by maximum
 * likelihood (diffuse start, the noise variance profiled out) and kept only when a
 * likelihood-ratio test against q = 0 rejects it at DRIFT_ALPHA (the boundary's
 * 50:50 mixture of chi-square 0 and 1). The level at each baseline is the smoothed
 * (Rauch-Tung-Striebel) estimate from all of them. When the baselines show no drift
 * (q = 0) the level is their mean, so a trial's cost is not
 * burdened with the noise of the one or two baselines next to it; the more they
 * drift, the closer the level keeps to each baseline's own run. Between baselines
 * the smoothed level is linear in position (the mean of a Brownian bridge). */
#ifndef VMTUNE_DRIFT_H
#define VMTUNE_DRIFT_H

struct drift_fit {
	int n;	       /* baselines */
	double q;      /* the walk's variance per unit of position / the noise variance */
	double sigma2; /* the noise variance (per baseline run, log scale) */
	double loglik; /* the profile log likelihood at q (up to a constant) */
	double p;      /* the likelihood-ratio test's p of "no drift" (1 when q is 0 at its best) */
};

/* The profile log likelihood of q for log values y[n] at increasing positions t[n]
 * (n >= 2); *sigma2 gets the noise variance that maximises it at this q. */
double drift_loglik(const double *t, const double *y, int n, double q, double *sigma2);
/* The smoothed level at each t[i] for a given q, into lvl[n] (n >= 1). */
void drift_smooth_q(const double *t, const double *y, int n, double q, double *lvl);
/* Fit q by maximum likelihood over [0, DRIFT_Q_MAX], test it, and smooth: lvl[n] gets
 * the level at each t[i]; fit (may be NULL) what was fitted. With fewer than three
 * baselines nothing tells drift from noise and q is 0 (their mean). */
void drift_smooth(const double *t, const double *y, int n, double *lvl, struct drift_fit *fit);

#define DRIFT_Q_MAX 1e4
#define DRIFT_ALPHA 0.05

#endif
