// CMetricsShims: the only door from Swift to GNU GSL.
//
// Every function is prefixed `mr_`, validates what GSL does not, and returns a status code instead of
// letting GSL call abort(). The comment above each one says why it exists. Swift code calls these
// functions only through MetricKitAnalysis' internal `GSL` namespace; this module has no Swift API.
#ifndef MR_STATISTICS_H
#define MR_STATISTICS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes. 0 is success; positive values are GSL's own `GSL_E…` codes, passed through.
enum {
  MR_OK = 0,
  /// No data, or all weights zero: GSL would answer NaN.
  MR_EMPTY = -1,
  /// Edges out of order, negative or non-finite weights, a probability outside (0, 1].
  MR_INVALID = -2,
  /// Memory could not be allocated.
  MR_NOMEM = -3,
};

/// Why: GSL's default error handler calls abort(). The shim replaces it when the library is loaded
/// (a constructor function runs this too), so that a GSL error becomes a status code. Idempotent.
void mr_install_error_handler(void);

/// Why: the last error GSL reported on this thread (0 when none), for tests that prove the handler
/// records errors instead of aborting.
int mr_last_gsl_error(void);

/// Why: provokes a real GSL error through GSL's own reporting path; a test calls it to prove that the
/// process survives and the status comes back. Returns the GSL status.
int mr_provoke_gsl_error(void);

/// Why: gsl_stats_wmean answers NaN when every weight is zero. This returns MR_EMPTY instead, and
/// rejects negative or non-finite weights and values.
int mr_weighted_mean(const double *values, const double *weights, size_t count, double *mean);

/// Why: gsl_stats_wvariance treats weights as reliability weights (counts {50,50} at {5,30} give
/// 312.5), while histogram counts are frequency weights (the sample variance is 157.83). This rescales
/// GSL's answer by (W² − Σw²) / (W (W − 1)), which turns one into the other, and needs W > 1.
int mr_frequency_weighted_variance(
  const double *values, const double *weights, size_t count, double *variance);

/// Why: percentiles of a histogram are the inverse of its piecewise-linear CDF, which GSL computes with
/// gsl_histogram_pdf. This shim
///  - validates the edges itself (gsl_histogram_set_ranges accepts unsorted ranges silently); edges
///    must be non-decreasing, and a zero-width bin is allowed on purpose: it is a point mass;
///  - refuses an all-zero histogram (GSL's pdf would be NaN);
///  - answers p = 1 itself (gsl_histogram_pdf_sample(…, 1.0) returns the *lowest* edge);
///  - takes the lower quantile inf{x : F(x) ≥ p}: where p falls exactly on the end of a bin (within
///    1e-12), the answer is that bin's upper edge, not the start of the next non-empty bin.
/// `edges` has `bins + 1` entries; `masses[i]` is the mass of [edges[i], edges[i+1]].
/// `probabilities` are in (0, 1]; the answers go to `quantiles`.
int mr_histogram_quantiles(
  const double *edges, const double *masses, size_t bins,
  const double *probabilities, size_t count, double *quantiles);

/// Why: the uniform-within-bin model of mr_histogram_quantiles puts too much mass at the right of a
/// wide bin where the density falls steeply (MetricKit's hang buckets): percentiles come out 5–20%
/// high. This inverts a monotone cubic instead — GSL's Steffen spline (gsl_interp_steffen, monotone by
/// construction) through the CDF at the edges of each run of positive-width bins, shaped by the
/// neighbouring bins; point masses stay jumps, and a run of one bin stays linear. The answer lies in
/// the same bin as mr_histogram_quantiles' (the spline meets the CDF at every edge), so the guaranteed
/// brackets hold. Same arguments and validation.
int mr_histogram_quantiles_monotone(
  const double *edges, const double *masses, size_t bins,
  const double *probabilities, size_t count, double *quantiles);

/// Why: the mean under the same monotone model, ∫ x dF: per run b·F(b) − a·F(a) − ∫ F (with
/// gsl_interp_eval_integ), plus each point mass at its value.
int mr_histogram_mean_monotone(const double *edges, const double *masses, size_t bins, double *mean);

/// Why: the CDF of the same histogram at given points, through gsl_histogram_pdf's cumulative sums
/// and gsl_histogram_find, with the same validation as mr_histogram_quantiles.
int mr_histogram_cdf(
  const double *edges, const double *masses, size_t bins,
  const double *points, size_t count, double *cdf);

/// Why: the CDF under the monotone model of mr_histogram_quantiles_monotone, for drawing distributions
/// whose marked percentiles sit exactly on the curve.
int mr_histogram_cdf_monotone(
  const double *edges, const double *masses, size_t bins,
  const double *points, size_t count, double *cdf);

/// Why: gsl_stats_quantile_from_sorted_data interpolates between order statistics exactly like type 7
/// (numpy's default), but reads out of bounds on empty data and trusts that the data are sorted. This
/// checks both, and that p is in [0, 1].
int mr_sorted_quantile(const double *sorted, size_t count, double probability, double *quantile);

/// Why: exact tails of the binomial distribution, for comparing diagnostic rates (the conditional
/// test of two Poisson rates): P(X ≥ k) and P(X ≤ k) for X ~ Binomial(n, p), with k, p and n checked.
int mr_binomial_upper_tail(unsigned int k, double p, unsigned int n, double *tail);
int mr_binomial_lower_tail(unsigned int k, double p, unsigned int n, double *tail);

/// Why: the upper tail of the standard normal, for the Mann–Whitney normal approximation. Wrapped so
/// that Swift never imports GSL and a non-finite argument is refused.
int mr_ugaussian_upper_tail(double x, double *tail);

/// Why: the standard normal quantile, for the Hodges–Lehmann interval's rank bounds; GSL's
/// gsl_cdf_ugaussian_Pinv answers ±inf at 0 and 1, which this refuses (p must be in (0, 1)).
int mr_ugaussian_quantile(double p, double *quantile);

/// Why: Student's t upper tail P(T > t) with nu degrees of freedom (Welch's test of two pooled rates);
/// nu must be positive and finite, t not NaN.
int mr_t_upper_tail(double t, double nu, double *tail);

/// Why: Student's t quantile for the rates' confidence interval, with p in (0, 1) and nu checked.
int mr_t_quantile(double p, double nu, double *quantile);

/// Why: the beta quantile, for the exact (Clopper–Pearson) interval of a binomial proportion, which
/// gives the interval of the ratio of two diagnostic rates; p in [0, 1], a and b positive.
int mr_beta_quantile(double p, double a, double b, double *quantile);

/// Why: the chi-square quantile, for the exact (Garwood) interval of a Poisson rate of events over
/// exposure; p in [0, 1], nu positive and finite (a fraction when the count is scaled by its dispersion).
int mr_chisq_quantile(double p, double nu, double *quantile);

#ifdef __cplusplus
}
#endif

#endif
