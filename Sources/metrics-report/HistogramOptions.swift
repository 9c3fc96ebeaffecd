import ArgumentParser
import MetricKitAnalysis

/// How histograms are read into numbers (summary, trend, compare, report, export): the mean estimator
/// and how mass is spread inside buckets.
struct HistogramOptions: ParsableArguments {
  @Option(
    help: "Histogram mean estimator (histogram sums: the mean times the count): midpoint, bucket-end or bucket-start.")
  var estimator: MeanEstimator = .midpoint

  @Option(
    help:
      "Inside buckets: monotone (a Steffen spline of the CDF against log x, the default) or uniform (linear), for percentiles and midpoint means."
  )
  var interpolation: Interpolation = .monotone
}
