import ArgumentParser
import MetricKitAnalysis

/// The limits that keep a hostile or broken input from exhausting memory or time: one option each of
/// ``InputLimits``, with its defaults.
struct InputLimitOptions: ParsableArguments {
  @Option(help: "Reject files larger than this many bytes.")
  var maxFileBytes: Int = InputLimits().maximumFileSize

  @Option(help: "Reject gzip files inflating to more than this many bytes (gzip bombs).")
  var maxDecompressedBytes: Int = InputLimits().maximumDecompressedSize

  @Option(help: "Reject NDJSON lines (one payload each, from files or --stdin) longer than this many bytes.")
  var maxLineBytes: Int = InputLimits().maximumLineLength

  @Option(help: "Reject JSON nested deeper than this (a call stack frame is two levels).")
  var maxDepth: Int = InputLimits().maximumDepth

  @Option(help: "Reject histograms with more buckets than this.")
  var maxBuckets: Int = InputLimits().maximumBucketsPerHistogram

  @Option(help: "Stop reading a file after this many payloads.")
  var maxPayloadsPerFile: Int = InputLimits().maximumPayloadsPerFile

  @Option(help: "List at most this many rejections in full; the rest are counted by reason.")
  var maxRejectionsListed: Int = InputLimits().maximumRejectionsListed

  @Option(help: "List at most this many rejections per file in full; the rest are counted by reason.")
  var maxRejectionsPerFile: Int = InputLimits().maximumRejectionsListedPerFile

  /// The limits these options set.
  var inputLimits: InputLimits {
    InputLimits(
      maximumFileSize: maxFileBytes, maximumDecompressedSize: maxDecompressedBytes, maximumLineLength: maxLineBytes,
      maximumDepth: maxDepth, maximumBucketsPerHistogram: maxBuckets, maximumPayloadsPerFile: maxPayloadsPerFile,
      maximumRejectionsListed: maxRejectionsListed, maximumRejectionsListedPerFile: maxRejectionsPerFile)
  }

  mutating func validate() throws {
    for (name, value) in [
      ("--max-file-bytes", maxFileBytes), ("--max-decompressed-bytes", maxDecompressedBytes), ("--max-depth", maxDepth),
      ("--max-buckets", maxBuckets), ("--max-payloads-per-file", maxPayloadsPerFile),
      ("--max-line-bytes", maxLineBytes),
    ] where value < 1 {
      throw ValidationError("\(name) must be at least 1.")
    }
    if maxRejectionsListed < 0 || maxRejectionsPerFile < 0 {
      throw ValidationError("--max-rejections-listed and --max-rejections-per-file must be at least 0.")
    }
  }
}
