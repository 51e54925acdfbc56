/* gp.h - a Gaussian-process surrogate over the coded knob space (GSL). */
#ifndef VMTUNE_GP_H
#define VMTUNE_GP_H

#include <stdbool.h>

/* Dimensions are continuous (coded to [-1, 1], squared-exponential with an ARD
 * length scale each) or categorical (an index; exp(-[a != b] / l) each). With a
 * trend (gp_fit_trend), a constant and a quadratic in each of the first continuous
 * dimensions, x and (3x^2 - 1)/2, with coefficients of prior N(0, GP_TREND_VAR) in
 * the units of the standardised y, are part of the prior as well: the kernel gains
 * GP_TREND_VAR (1 + sum of x x' + P2(x) P2(x')) (Rasmussen and Williams, section 2.7,
 * with the coefficients integrated out). Far from the data the posterior follows
 * the fitted bowl or slope instead of falling back to the mean. */
#define GP_TREND_VAR 0.5
struct gp {
	int d, n;
	const bool *categorical; /* d flags */
	double *x;		 /* n x d */
	double *y;		 /* n, standardised */
	double ymean, ysd;
	double *count; /* n measurements behind each point, or NULL (one each) */
	double *var;   /* a point's measured noise variance per measurement (standardised), 0: fitted; or NULL */
	double rep_dof, rep_ss; /* the repeats' degrees of freedom and (standardised) squares */
	double *log_l;		/* d length scales (log) */
	double *len;		/* d length scales, exp(log_l) as of the last factorisation */
	double log_sf2, log_sn2;
	int trend;     /* the first trend dimensions carry the quadratic trend (continuous ones); 0: none */
	double *alpha; /* K^-1 y */
	void *chol;    /* gsl_matrix *, the Cholesky factor of K */
};

/* Fit hyperparameters by maximising the log marginal likelihood (gsl_multimin,
 * several starts) and factorise K. x is n x d, y are raw objective values
 * (minimised). Returns 0 or -1. */
int gp_fit(struct gp *gp, int d, const bool *categorical, const double *x, const double *y, int n);
/* The same with the hyperparameters of an earlier fit of the same dimensions
 * (hyper; NULL fits them): one factorisation instead of an optimisation. */
int gp_fit_with(struct gp *gp, int d, const bool *categorical, const double *x, const double *y, int n,
		const struct gp *hyper);
/* The same where y[i] is the mean of rep[i].count measurements (rep NULL: one
 * each): its noise is the fitted per-measurement noise over the count. rep[i].ss
 * is the sum of squared deviations of rep[i].dof + 1 repeats about their mean (dof
 * 0: none known), which the likelihood of the noise takes in as well, so repeats
 * teach the model its noise directly. */
struct gp_rep {
	int count, dof;
	double ss;
	/* the per-measurement noise variance of this point's source (in the units of
	 * y), when its repeats measured it; 0: the fitted noise */
	double var;
};
int gp_fit_counts(struct gp *gp, int d, const bool *categorical, const double *x, const double *y,
		  const struct gp_rep *rep, int n, const struct gp *hyper);
/* gp_fit_counts with the quadratic trend over the continuous ones of the first trend
 * dimensions (0: none, as gp_fit_counts). */
int gp_fit_trend(struct gp *gp, int d, const bool *categorical, const double *x, const double *y,
		 const struct gp_rep *rep, int n, const struct gp *hyper, int trend);
/* Whether the fitted trend along dimension k is flat: both of its coefficients
 * (slope and curvature) within two posterior standard deviations of 0. True without
 * a trend there. */
bool gp_trend_flat(const struct gp *gp, int k);
/* The fit's objective (the negative log posterior of the hyperparameters, up to a
 * constant) at params (d log length scales, log signal, log noise) and its gradient
 * in grad, for a gp whose data are set (after a fit): what the fit minimises. It
 * leaves gp factorised at params. */
double gp_objective(struct gp *gp, const double *params, double *grad);
/* Posterior mean and standard deviation at x, in the units of y. */
void gp_predict(const struct gp *gp, const double *x, double *mean, double *sd);
/* Expected improvement over best (minimisation). */
double gp_expected_improvement(const struct gp *gp, const double *x, double best);
/* Where runs fail, as a least-squares classifier: gpc is fitted on labels +1 (the
 * settings' runs succeeded) and -1 (they failed), averaged per point; the chance that
 * a run at x succeeds is the probit of the predicted label, shrunk towards 1/2 by its
 * uncertainty. */
double gp_success_probability(const struct gp *gpc, const double *x);
/* The kernel's correlation of a and b over dimensions [from, to) only: how much
 * points that differ there share (1 = the same). */
double gp_correlation(const struct gp *gp, const double *a, const double *b, int from, int to);
/* What each training point contributes to the posterior mean at x (in the units
 * of y, relative to the mean of y): w[i] = (K^-1 k(x))[i] * y[i]. */
void gp_contributions(const struct gp *gp, const double *x, double *w);
void gp_free(struct gp *gp);

#endif
