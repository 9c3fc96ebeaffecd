// CMetricsShims: see include/mr_statistics.h for why each function exists.
#include "mr_statistics.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_interp.h>
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

// The smallest bin whose cumulative end reaches p (within tolerance); *at_end when p is that end.
static size_t mr_quantile_bin(const gsl_histogram_pdf *pdf, double p, int *at_end) {
  size_t lo = 0, hi = pdf->n - 1;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (pdf->sum[mid + 1] >= p - mr_boundary_tolerance) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  *at_end = fabs(pdf->sum[lo + 1] - p) <= mr_boundary_tolerance || p >= pdf->sum[pdf->n];
  return lo;
}

static double mr_lower_quantile(const gsl_histogram_pdf *pdf, double p) {
  int at_end;
  size_t i = mr_quantile_bin(pdf, p, &at_end);
  if (at_end) return pdf->range[i + 1];
  return gsl_histogram_pdf_sample(pdf, p);
}

// Steffen splines through the CDF against log x over each run of two or more positive-width bins
// with positive edges: run[i] is the spline of bin i's run (NULL for point masses, runs of one bin and
// a first bin starting at 0 or below, which stay linear), first[i] the run's first edge, and logx the
// logarithms of the edges (log x, because MetricKit's buckets widen geometrically and durations are
// roughly log-normal: on that axis the CDF is smooth and the buckets comparable in width).
typedef struct {
  size_t bins;
  gsl_interp **run;
  size_t *first;
  double *logx;
} mr_splines;

static void mr_splines_free(mr_splines *s) {
  if (s->run != NULL) {
    for (size_t i = 0; i < s->bins; i++) {
      // A run's spline is shared by its bins: free it at its first bin.
      if (s->run[i] != NULL && (i == 0 || s->run[i - 1] != s->run[i])) gsl_interp_free(s->run[i]);
    }
  }
  free(s->run);
  free(s->first);
  free(s->logx);
}

static int mr_splines_build(const gsl_histogram_pdf *pdf, mr_splines *s) {
  size_t n = pdf->n;
  s->bins = n;
  s->run = calloc(n, sizeof(gsl_interp *));
  s->first = calloc(n, sizeof(size_t));
  s->logx = calloc(n + 1, sizeof(double));
  if (s->run == NULL || s->first == NULL || s->logx == NULL) return MR_NOMEM;
  for (size_t k = 0; k <= n; k++) s->logx[k] = pdf->range[k] > 0 ? log(pdf->range[k]) : -INFINITY;
  size_t i = 0;
  while (i < n) {
    if (!(pdf->range[i + 1] > pdf->range[i]) || !(pdf->range[i] > 0)) {
      i++;
      continue;
    }
    size_t j = i;
    while (j < n && pdf->range[j + 1] > pdf->range[j]) j++;
    // Bins i..<j have positive width and positive edges: edges i...j.
    if (j - i >= 2) {
      gsl_interp *spline = gsl_interp_alloc(gsl_interp_steffen, j - i + 1);
      if (spline == NULL) return MR_NOMEM;
      int status = gsl_interp_init(spline, s->logx + i, pdf->sum + i, j - i + 1);
      for (size_t k = i; k < j; k++) {
        s->run[k] = spline;
        s->first[k] = i;
      }
      if (status != GSL_SUCCESS) return status;
    }
    i = j;
  }
  return MR_OK;
}

// A histogram as the three models read it: GSL's histogram, its cumulative distribution, and (for the
// monotone model) the splines through it.
typedef struct {
  gsl_histogram *h;
  gsl_histogram_pdf *pdf;
  mr_splines splines;
} mr_model;

static void mr_model_close(mr_model *m) {
  mr_splines_free(&m->splines);
  if (m->pdf != NULL) gsl_histogram_pdf_free(m->pdf);
  if (m->h != NULL) gsl_histogram_free(m->h);
}

// Builds the model of a histogram (the splines too when `monotone`); on failure, nothing is left to
// close.
static int mr_model_open(const double *edges, const double *masses, size_t bins, int monotone, mr_model *m) {
  *m = (mr_model){NULL, NULL, {0, NULL, NULL, NULL}};
  int status = mr_build_pdf(edges, masses, bins, &m->h, &m->pdf);
  if (status != MR_OK) {
    m->h = NULL;
    m->pdf = NULL;
    return status;
  }
  if (monotone) status = mr_splines_build(m->pdf, &m->splines);
  if (status != MR_OK) mr_model_close(m);
  return status;
}

// F(x) on bin i's run.
static double mr_spline_cdf(const gsl_histogram_pdf *pdf, const mr_splines *s, size_t i, double x) {
  size_t a = s->first[i];
  double lx = log(x);
  // Guard the ends against log rounding outside the knots.
  if (lx < s->logx[a]) lx = s->logx[a];
  return gsl_interp_eval(s->run[i], s->logx + a, pdf->sum + a, lx, NULL);
}

static int mr_histogram_quantiles_with(
  const double *edges, const double *masses, size_t bins, const double *probabilities, size_t count,
  double *quantiles, int monotone) {
  for (size_t j = 0; j < count; j++) {
    if (!(probabilities[j] > 0) || !(probabilities[j] <= 1)) return MR_INVALID;
  }
  mr_model model;
  int status = mr_model_open(edges, masses, bins, monotone, &model);
  if (status != MR_OK) return status;
  const gsl_histogram_pdf *pdf = model.pdf;
  const mr_splines *splines = &model.splines;
  for (size_t j = 0; j < count && status == MR_OK; j++) {
    double p = probabilities[j];
    int at_end;
    size_t i = mr_quantile_bin(pdf, p, &at_end);
    if (at_end || !monotone || splines->run[i] == NULL) {
      quantiles[j] = mr_lower_quantile(pdf, p);
    } else {
      // F is monotone on the bin, F(left) < p < F(right): bisect for the smallest x with F(x) ≥ p.
      double lo = pdf->range[i], hi = pdf->range[i + 1];
      for (int k = 0; k < 200; k++) {
        double mid = lo + (hi - lo) / 2;
        if (!(mid > lo && mid < hi)) break;
        if (mr_spline_cdf(pdf, splines, i, mid) >= p) {
          hi = mid;
        } else {
          lo = mid;
        }
      }
      quantiles[j] = hi;
    }
    if (mr_last_error != 0 || !isfinite(quantiles[j])) status = mr_last_error != 0 ? mr_last_error : MR_INVALID;
  }
  mr_model_close(&model);
  return status;
}

int mr_histogram_quantiles(
  const double *edges, const double *masses, size_t bins, const double *probabilities, size_t count,
  double *quantiles) {
  return mr_histogram_quantiles_with(edges, masses, bins, probabilities, count, quantiles, 0);
}

int mr_histogram_quantiles_monotone(
  const double *edges, const double *masses, size_t bins, const double *probabilities, size_t count,
  double *quantiles) {
  return mr_histogram_quantiles_with(edges, masses, bins, probabilities, count, quantiles, 1);
}

int mr_histogram_mean_monotone(const double *edges, const double *masses, size_t bins, double *mean) {
  mr_model model;
  int status = mr_model_open(edges, masses, bins, 1, &model);
  if (status != MR_OK) return status;
  const gsl_histogram_pdf *pdf = model.pdf;
  const mr_splines *splines = &model.splines;
  double total = 0;
  for (size_t i = 0; i < bins; i++) {
    double a = pdf->range[i], b = pdf->range[i + 1], mass = pdf->sum[i + 1] - pdf->sum[i];
    if (splines->run[i] == NULL) {
      total += mass * (a + (b - a) / 2);  // a point mass, or a run of one bin: uniform
    } else {
      // ∫ x dF over the bin = b·F(b) − a·F(a) − ∫ F, the last by Simpson's rule on 64 panels (F is a
      // smooth cubic of log x inside the bin).
      const int panels = 64;
      double step = (b - a) / panels, integral = pdf->sum[i] + pdf->sum[i + 1];
      for (int k = 1; k < panels; k++) {
        integral += (k % 2 == 1 ? 4 : 2) * mr_spline_cdf(pdf, splines, i, a + k * step);
      }
      integral *= step / 3;
      total += b * pdf->sum[i + 1] - a * pdf->sum[i] - integral;
    }
  }
  *mean = total;
  if (mr_last_error != 0 || !isfinite(total)) status = mr_last_error != 0 ? mr_last_error : MR_INVALID;
  mr_model_close(&model);
  return status;
}

static int mr_histogram_cdf_with(
  const double *edges, const double *masses, size_t bins, const double *points, size_t count,
  double *cdf, int monotone) {
  mr_model model;
  int status = mr_model_open(edges, masses, bins, monotone, &model);
  if (status != MR_OK) return status;
  const gsl_histogram *h = model.h;
  const gsl_histogram_pdf *pdf = model.pdf;
  const mr_splines *splines = &model.splines;
  double lowest = gsl_histogram_min(h), highest = gsl_histogram_max(h);
  for (size_t j = 0; j < count && status == MR_OK; j++) {
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
    if (monotone && splines->run[i] != NULL) {
      cdf[j] = mr_spline_cdf(pdf, splines, i, x);
      continue;
    }
    double width = pdf->range[i + 1] - pdf->range[i];
    double fraction = width > 0 ? (x - pdf->range[i]) / width : 1;
    cdf[j] = pdf->sum[i] + fraction * (pdf->sum[i + 1] - pdf->sum[i]);
  }
  mr_model_close(&model);
  return status;
}

int mr_histogram_cdf(
  const double *edges, const double *masses, size_t bins, const double *points, size_t count,
  double *cdf) {
  return mr_histogram_cdf_with(edges, masses, bins, points, count, cdf, 0);
}

int mr_histogram_cdf_monotone(
  const double *edges, const double *masses, size_t bins, const double *points, size_t count,
  double *cdf) {
  return mr_histogram_cdf_with(edges, masses, bins, points, count, cdf, 1);
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

int mr_chisq_quantile(double p, double nu, double *quantile) {
  if (!(p >= 0 && p <= 1) || !(nu > 0) || !isfinite(nu)) return MR_INVALID;
  *quantile = gsl_cdf_chisq_Pinv(p, nu);
  return MR_OK;
}
