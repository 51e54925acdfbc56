/* gp.h - a Gaussian-process surrogate over the coded knob space (GSL). */
#ifndef VMTUNE_GP_H
#define VMTUNE_GP_H

#include <stdbool.h>

/* Dimensions are continuous (coded to [-1, 1], squared-exponential with an ARD
 * length scale each) or categorical (an index; exp(-[a != b] / l) each). */
struct gp {
	int d, n;
	const bool *categorical; /* d flags */
	double *x;		 /* n x d */
	double *y;		 /* n, standardised */
	double ymean, ysd;
	double *log_l; /* d length scales (log) */
	double log_sf2, log_sn2;
	double *alpha; /* K^-1 y */
	void *chol;    /* gsl_matrix *, the Cholesky factor of K */
};

/* Fit hyperparameters by maximising the log marginal likelihood (gsl_multimin,
 * several starts) and factorise K. x is n x d, y are raw objective values
 * (minimised). Returns 0 or -1. */
int gp_fit(struct gp *gp, int d, const bool *categorical, const double *x, const double *y, int n);
/* Posterior mean and standard deviation at x, in the units of y. */
void gp_predict(const struct gp *gp, const double *x, double *mean, double *sd);
/* Expected improvement over best (minimisation). */
double gp_expected_improvement(const struct gp *gp, const double *x, double best);
void gp_free(struct gp *gp);

#endif
