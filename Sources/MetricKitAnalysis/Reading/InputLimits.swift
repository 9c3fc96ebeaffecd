/// Bounds on what one input may cost, so that a hostile or broken file is rejected with a reason
/// instead of exhausting memory or time.
public struct InputLimits: Sendable, Hashable {
  /// The largest file read, in bytes, before decompression.
  public var maximumFileSize: Int
  /// The largest decompressed size of a `.gz` file, in bytes (a guard against gzip bombs).
  public var maximumDecompressedSize: Int
  /// The deepest nesting of arrays and objects accepted in one JSON document.
  public var maximumDepth: Int
  /// The most buckets accepted in one histogram.
  public var maximumBucketsPerHistogram: Int
  /// The most payloads accepted from one file.
  public var maximumPayloadsPerFile: Int

  /// Creates limits; the defaults fit any real MetricKit dump.
  public init(
    maximumFileSize: Int = 1 << 30,
    maximumDecompressedSize: Int = 1 << 30,
    maximumDepth: Int = 20_000,
    maximumBucketsPerHistogram: Int = 100_000,
    maximumPayloadsPerFile: Int = 10_000_000
  ) {
    self.maximumFileSize = maximumFileSize
    self.maximumDecompressedSize = maximumDecompressedSize
    self.maximumDepth = maximumDepth
    self.maximumBucketsPerHistogram = maximumBucketsPerHistogram
    self.maximumPayloadsPerFile = maximumPayloadsPerFile
  }
}
