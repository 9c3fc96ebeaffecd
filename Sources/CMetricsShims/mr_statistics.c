// CMetricsShims: see include/mr_statistics.h for why each function exists.
#include "mr_statistics.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

static _Thread_local int mr_last_error = 0;

static void mr_record_error(const char *reason, const char *file, int line, int gsl_errno) {
  (void)reason;
  (void)file;
  (void)line;
  mr_last_error = gsl_errno;
}

void mr_install_error_handler(void) { gsl_set_error_handler(&mr_record_error); }

// Installed when the shared object or executable is loaded, before any Swift code runs.
__attribute__((constructor)) static void mr_install_at_load(void) { mr_install_error_handler(); }

int mr_last_gsl_error(void) { return mr_last_error; }

int mr_provoke_gsl_error(void) {
  mr_last_error = 0;
  gsl_histogram *h = gsl_histogram_alloc(2);
  if (h == NULL) return MR_NOMEM;
  gsl_histogram_set_ranges_uniform(h, 0.0, 1.0);
  gsl_histogram_pdf *pdf = gsl_histogram_pdf_alloc(3);  // length mismatch: GSL_EINVAL
  int status = (pdf == NULL) ? mr_last_error : gsl_histogram_pdf_init(pdf, h);
  if (pdf != NULL) gsl_histogram_pdf_free(pdf);
  gsl_histogram_free(h);
  return status;
}

static int mr_check_weights(const double *values, const double *weights, size_t count, double *total) {
  double sum = 0;
  for (size_t i = 0; i < count; i++) {
    if (!isfinite(values[i]) || !isfinite(weights[i]) || weights[i] < 0) return MR_INVALID;
    sum += weights[i];
  }
  if (!(sum > 0) || !isfinite(sum)) return MR_EMPTY;
  *total = sum;
  return MR_OK;
}

int mr_weighted_mean(const double *values, const double *weights, size_t count, double *mean) {
  double total;
  int status = mr_check_weights(values, weights, count, &total);
  if (status != MR_OK) return status;
  *mean = gsl_stats_wmean(weights, 1, values, 1, count);
  return isfinite(*mean) ? MR_OK : MR_INVALID;
}

int mr_frequency_weighted_variance(
  const double *values, const double *weights, size_t count, double *variance) {
  double total;
  int status = mr_check_weights(values, weights, count, &total);
  if (status != MR_OK) return status;
  if (!(total > 1)) return MR_EMPTY;
  double squares = 0;
  for (size_t i = 0; i < count; i++) squares += weights[i] * weights[i];
  if (!(total * total > squares)) {
    // One non-empty bin: every observation equals its value.
    *variance = 0;
    return MR_OK;
  }
  double reliability = gsl_stats_wvariance(weights, 1, values, 1, count);
  *variance = reliability * (total * total - squares) / (total * (total - 1));
  return isfinite(*variance) ? MR_OK : MR_INVALID;
}

// Builds the GSL histogram and its cumulative distribution after validating what GSL does not.
static int mr_build_pdf(
  const double *edges, const double *masses, size_t bins, gsl_histogram **out_h,
  gsl_histogram_pdf **out_pdf) {
  if (bins == 0) return MR_EMPTY;
  double total = 0;
  for (size_t i = 0; i < bins; i++) {
    if (!isfinite(edges[i]) || !isfinite(edges[i + 1]) || edges[i + 1] < edges[i]) return MR_INVALID;
    if (!isfinite(masses[i]) || masses[i] < 0) return MR_INVALID;
    total += masses[i];
  }
  if (!(total > 0) || !isfinite(total)) return MR_EMPTY;

  mr_last_error = 0;
  gsl_histogram *h = gsl_histogram_alloc(bins);
  if (h == NULL) return MR_NOMEM;
  int status = gsl_histogram_set_ranges(h, edges, bins + 1);
  if (status == GSL_SUCCESS) {
    for (size_t i = 0; i < bins; i++) h->bin[i] = masses[i];
  }
  gsl_histogram_pdf *pdf = status == GSL_SUCCESS ? gsl_histogram_pdf_alloc(bins) : NULL;
  if (status == GSL_SUCCESS && pdf == NULL) status = mr_last_error ? mr_last_error : MR_NOMEM;
  if (status == GSL_SUCCESS) status = gsl_histogram_pdf_init(pdf, h);
  if (status != GSL_SUCCESS) {
    if (pdf != NULL) gsl_histogram_pdf_free(pdf);
    gsl_histogram_free(h);
    return status;
  }
  *out_h = h;
  *out_pdf = pdf;
  return MR_OK;
}

static const double mr_boundary_tolerance = 1e-12;

static double mr_lower_quantile(const gsl_histogram_pdf *pdf, double p) {
  // Smallest bin i whose cumulative end reaches p (within tolerance).
  size_t lo = 0, hi = pdf->n - 1;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (pdf->sum[mid + 1] >= p - mr_boundary_tolerance) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  if (fabs(pdf->sum[lo + 1] - p) <= mr_boundary_tolerance || p >= pdf->sum[pdf->n]) {
    return pdf->range[lo + 1];
  }
  return gsl_histogram_pdf_sample(pdf, p);
}

int mr_histogram_quantiles(
  const double *edges, const double *masses, size_t bins, const double *probabilities, size_t count,
  double *quantiles) {
  for (size_t j = 0; j < count; j++) {
    if (!(probabilities[j] > 0) || !(probabilities[j] <= 1)) return MR_INVALID;
  }
  gsl_histogram *h;
  gsl_histogram_pdf *pdf;
  int status = mr_build_pdf(edges, masses, bins, &h, &pdf);
  if (status != MR_OK) return status;
  mr_last_error = 0;
  for (size_t j = 0; j < count; j++) {
    quantiles[j] = mr_lower_quantile(pdf, probabilities[j]);
    if (mr_last_error != 0 || !isfinite(quantiles[j])) {
      status = mr_last_error != 0 ? mr_last_error : MR_INVALID;
      break;
    }
  }
  gsl_histogram_pdf_free(pdf);
  gsl_histogram_free(h);
  return status;
}

int mr_histogram_cdf(
  const double *edges, const double *masses, size_t bins, const double *points, size_t count,
  double *cdf) {
  gsl_histogram *h;
  gsl_histogram_pdf *pdf;
  int status = mr_build_pdf(edges, masses, bins, &h, &pdf);
  if (status != MR_OK) return status;
  double lowest = gsl_histogram_min(h), highest = gsl_histogram_max(h);
  for (size_t j = 0; j < count; j++) {
    double x = points[j];
    if (isnan(x)) {
      status = MR_INVALID;
      break;
    }
    if (x < lowest) {
      cdf[j] = 0;
      continue;
    }
    if (x >= highest) {
      cdf[j] = 1;
      continue;
    }
    size_t i;
    if (gsl_histogram_find(h, x, &i) != GSL_SUCCESS) {
      status = MR_INVALID;
      break;
    }
    // gsl_histogram_find never lands in a zero-width bin, so a point mass at x is already in sum[i]:
    // F(x) = P(X ≤ x) counts it, as it should.
    double width = pdf->range[i + 1] - pdf->range[i];
    double fraction = width > 0 ? (x - pdf->range[i]) / width : 1;
    cdf[j] = pdf->sum[i] + fraction * (pdf->sum[i + 1] - pdf->sum[i]);
  }
  gsl_histogram_pdf_free(pdf);
  gsl_histogram_free(h);
  return status;
}

int mr_sorted_quantile(const double *sorted, size_t count, double probability, double *quantile) {
  if (count == 0) return MR_EMPTY;
  if (!(probability >= 0) || !(probability <= 1)) return MR_INVALID;
  for (size_t i = 0; i < count; i++) {
    if (!isfinite(sorted[i]) || (i > 0 && sorted[i] < sorted[i - 1])) return MR_INVALID;
  }
  *quantile = gsl_stats_quantile_from_sorted_data(sorted, 1, count, probability);
  return isfinite(*quantile) ? MR_OK : MR_INVALID;
}

int mr_binomial_upper_tail(unsigned int k, double p, unsigned int n, double *tail) {
  if (!(p >= 0) || !(p <= 1) || k > n) return MR_INVALID;
  // P(X >= k) = P(X > k - 1); gsl_cdf_binomial_Q(k, …) is P(X > k).
  *tail = k == 0 ? 1.0 : gsl_cdf_binomial_Q(k - 1, p, n);
  return isfinite(*tail) ? MR_OK : MR_INVALID;
}

int mr_binomial_lower_tail(unsigned int k, double p, unsigned int n, double *tail) {
  if (!(p >= 0) || !(p <= 1) || k > n) return MR_INVALID;
  *tail = gsl_cdf_binomial_P(k, p, n);
  return isfinite(*tail) ? MR_OK : MR_INVALID;
}

int mr_ugaussian_upper_tail(double x, double *tail) {
  if (isnan(x)) return MR_INVALID;
  *tail = gsl_cdf_ugaussian_Q(x);
  return MR_OK;
}

int mr_ugaussian_quantile(double p, double *quantile) {
  if (!(p > 0 && p < 1)) return MR_INVALID;
  *quantile = gsl_cdf_ugaussian_Pinv(p);
  return MR_OK;
}

int mr_t_upper_tail(double t, double nu, double *tail) {
  if (isnan(t) || !(nu > 0) || !isfinite(nu)) return MR_INVALID;
  *tail = gsl_cdf_tdist_Q(t, nu);
  return MR_OK;
}

int mr_t_quantile(double p, double nu, double *quantile) {
  if (!(p > 0 && p < 1) || !(nu > 0) || !isfinite(nu)) return MR_INVALID;
  *quantile = gsl_cdf_tdist_Pinv(p, nu);
  return MR_OK;
}

int mr_beta_quantile(double p, double a, double b, double *quantile) {
  if (!(p >= 0 && p <= 1) || !(a > 0) || !(b > 0) || !isfinite(a) || !isfinite(b)) return MR_INVALID;
  *quantile = gsl_cdf_beta_Pinv(p, a, b);
  return MR_OK;
}
