/// Bounds on what one input may cost, so that a hostile or broken file is rejected with a reason
/// instead of exhausting memory or time.
public struct InputLimits: Sendable, Hashable {
  /// The largest file read, in bytes, before decompression.
  public var maximumFileSize: Int
  /// The largest decompressed size of a `.gz` file, in bytes (a guard against gzip bombs). Payload
  /// files are kilobytes; 256 MiB is generous. Whatever the number of threads, only one at a time
  /// holds a buffer over 16 MiB, so a bomb costs about this much memory once, not once per thread.
  public var maximumDecompressedSize: Int
  /// The longest NDJSON line (one payload) read from a stream or an NDJSON file, in bytes.
  public var maximumLineLength: Int
  /// The deepest nesting of arrays and objects accepted in one JSON document. A call stack frame
  /// costs two levels (the frame and its `subFrames`), so the default fits a 12,000-frame tree inside
  /// a diagnostic payload and rejects 100,000-level files.
  public var maximumDepth: Int
  /// The most buckets accepted in one histogram.
  public var maximumBucketsPerHistogram: Int
  /// The most payloads accepted from one file.
  public var maximumPayloadsPerFile: Int
  /// The most rejections listed in full in one run; the rest are counted by reason.
  public var maximumRejectionsListed: Int
  /// The most rejections listed in full per file; the rest are counted by reason.
  public var maximumRejectionsListedPerFile: Int

  /// Creates limits; the defaults fit any real MetricKit dump.
  public init(
    maximumFileSize: Int = 1 << 30,
    maximumDecompressedSize: Int = 256 << 20,
    maximumLineLength: Int = 256 << 20,
    maximumDepth: Int = 25_000,
    maximumBucketsPerHistogram: Int = 100_000,
    maximumPayloadsPerFile: Int = 10_000_000,
    maximumRejectionsListed: Int = 1_000,
    maximumRejectionsListedPerFile: Int = 100
  ) {
    self.maximumFileSize = maximumFileSize
    self.maximumDecompressedSize = maximumDecompressedSize
    self.maximumLineLength = maximumLineLength
    self.maximumDepth = maximumDepth
    self.maximumBucketsPerHistogram = maximumBucketsPerHistogram
    self.maximumPayloadsPerFile = maximumPayloadsPerFile
    self.maximumRejectionsListed = maximumRejectionsListed
    self.maximumRejectionsListedPerFile = maximumRejectionsListedPerFile
  }
}
