/// The catalog's readers of a payload, each held by an object, at the index of its metric in
/// ``MetricCatalog/histograms``, ``MetricCatalog/scalars`` and ``MetricCatalog/rates``.
///
/// ``VersionAggregate`` calls every reader for every payload. A closure taken out of a metric's
/// ``Metric/Reading`` is retained and released around its call, an atomic operation each; a reader
/// here is called through an unretained reference, and these lists keep it alive for the process.
enum CatalogReaders {
  /// One metric's reader.
  final class Reader<Value>: Sendable {
    private let read: @Sendable (MetricPayload, MeanEstimator) -> Value?

    init(_ read: @escaping @Sendable (MetricPayload, MeanEstimator) -> Value?) { self.read = read }

    /// What the reader at `index` of `readers` reads of `payload`.
    @inline(__always)
    static func value(
      at index: Int, in readers: [Reader], of payload: MetricPayload, estimator: MeanEstimator
    ) -> Value? {
      Unmanaged.passUnretained(readers[index])._withUnsafeGuaranteedRef { $0.read(payload, estimator) }
    }
  }

  /// The buckets of each histogram metric.
  static let histograms: [Reader<[HistogramBucket]>] = MetricCatalog.histograms.map { metric in
    guard case .histogram(let read) = metric.reading else { return Reader { _, _ in nil } }
    return Reader { payload, _ in read(payload) }
  }

  /// The value of each scalar metric and counter.
  static let scalars: [Reader<Double>] = MetricCatalog.scalars.map { metric in
    guard case .value(let read) = metric.reading else { return Reader { _, _ in nil } }
    return Reader { payload, _ in read(payload) }
  }

  /// The numerator and denominator of each pooled rate.
  static let rates: [Reader<(numerator: Double, denominator: Double)>] = MetricCatalog.rates.map { metric in
    guard case .rate(let read) = metric.reading else { return Reader { _, _ in nil } }
    return Reader(read)
  }
}
