#if !canImport(MetricKit)
  import Foundation

  /// MetricKit's `MXHistogram` where MetricKit does not exist: the buckets of a ``Histogram``,
  /// enumerated as on device.
  ///
  /// `bucketEnumerator` hands out ``MXHistogramBucket`` objects whose unit parameter is `Unit`: on
  /// device Objective-C erases the parameter, so the recipe's `$0 as? MXHistogramBucket` (which Swift
  /// reads as `MXHistogramBucket<Unit>`) matches every bucket here too.
  open class MXHistogram<UnitType: Unit>: NSObject, @unchecked Sendable {
    private let buckets: [MXHistogramBucket<Unit>]

    /// An empty histogram (the payload had none; MetricKit's properties are never nil).
    public override init() {
      buckets = []
      super.init()
    }

    /// The buckets of a model histogram.
    public init<D: Dimension>(_ histogram: Histogram<D>?) {
      buckets = (histogram?.buckets ?? []).map { bucket in
        MXHistogramBucket<Unit>(
          bucketStart: Measurement(value: bucket.start, unit: histogram!.unit as Unit),
          bucketEnd: Measurement(value: bucket.end, unit: histogram!.unit as Unit), bucketCount: bucket.count)
      }
      super.init()
    }

    /// The number of buckets.
    open var totalBucketCount: Int { buckets.count }

    /// The buckets, in order, as ``MXHistogramBucket`` objects.
    open var bucketEnumerator: NSEnumerator { NSArray(array: buckets).objectEnumerator() }
  }

  /// MetricKit's `MXHistogramBucket`: an interval and its count.
  open class MXHistogramBucket<UnitType: Unit>: NSObject, @unchecked Sendable {
    /// The interval's start.
    public let bucketStart: Measurement<UnitType>
    /// The interval's end.
    public let bucketEnd: Measurement<UnitType>
    /// The observations in the interval.
    public let bucketCount: Int

    /// Creates a bucket.
    public init(bucketStart: Measurement<UnitType>, bucketEnd: Measurement<UnitType>, bucketCount: Int) {
      self.bucketStart = bucketStart
      self.bucketEnd = bucketEnd
      self.bucketCount = bucketCount
      super.init()
    }
  }
#endif
