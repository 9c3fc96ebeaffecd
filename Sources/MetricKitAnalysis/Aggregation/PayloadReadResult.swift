/// Everything a read found, held in memory: what ``PayloadReader/readAll(paths:)`` returns.
///
/// Nothing is dropped: every metric payload, every diagnostic payload (a single diagnostic file is
/// wrapped in a payload of its own), every rejection, and the accounting identity the command-line
/// reports print, `read = counted + excluded + rejected + otherDocuments` (nothing is excluded here:
/// `counted` is every metric payload).
public struct PayloadReadResult: Sendable {
  /// The metric payloads, in file order.
  public var metricPayloads: [MetricPayload] = []
  /// The diagnostic payloads, in file order; a single diagnostic is wrapped in a payload without
  /// timestamps, and a document with both kinds of sections gives one of each.
  public var diagnosticPayloads: [DiagnosticPayload] = []
  /// The files and payloads that could not be used, with their reasons (all of them).
  public var rejected: [Rejection] = []
  /// Where every input went.
  public var accounting: InputAccounting

  init() {
    // An in-memory read lists every rejection: the caller asked for everything.
    accounting = InputAccounting(
      limits: InputLimits(maximumRejectionsListed: .max / 4, maximumRejectionsListedPerFile: .max / 4))
  }

  mutating func add(_ event: ReadEvent) {
    accounting.record(event)
    switch event {
    case .payload(let payload, _): metricPayloads.append(payload)
    case .diagnostics(let payload, _, _): diagnosticPayloads.append(payload)
    case .otherDocument: break
    case .rejected(let rejection): rejected.append(rejection)
    }
  }
}

extension PayloadReader {
  /// Reads everything into memory: metric payloads, diagnostic payloads, rejections and the
  /// accounting. Convenient for analysis scripts; the reports stream instead.
  ///
  /// ```swift
  /// let read = PayloadReader().readAll(paths: ["dumps/2024-05"])
  /// print(read.metricPayloads.count, read.diagnosticPayloads.count, read.rejected.count, read.accounting.read)
  /// ```
  public func readAll(paths: [String]) -> PayloadReadResult {
    var result = PayloadReadResult()
    let discovery = read(paths: paths) { result.add($0) }
    result.accounting.files = discovery.fileCount
    result.accounting.ignoredFiles = discovery.ignored.map(\.description)
    result.accounting.duplicateFiles = discovery.duplicates.map(\.description)
    result.accounting.assumedUTCOffset = timestamps.assumedUTCOffset
    return result
  }
}
