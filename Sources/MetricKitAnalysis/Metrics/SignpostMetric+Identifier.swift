extension SignpostMetric {
  /// The metric of its interval durations, `signpost:<category>/<name>`.
  public var identifier: MetricID { .signpost(category: signpostCategory, name: signpostName) }
}
