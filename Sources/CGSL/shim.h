// The GSL headers the C shim (CMetricsShims) uses. Swift never imports GSL directly.
#include <gsl/gsl_errno.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_cdf.h>
