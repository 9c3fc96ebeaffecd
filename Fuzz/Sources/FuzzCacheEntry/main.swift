// Fuzzes the cache's files and everything that reads them: any bytes as an entry file (header,
// checksums, sources, outline, aggregate, packed numbers), its outline alone, a kept merge (in outline
// and whole), a folder's listing and summary, and a trend interval's cached points; a decoded entry
// merged with itself, then a summary, a trend and a comparison of it.
import FuzzSupport
import MetricKitAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCacheEntry(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  var bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
  let metrics = [MetricID.hangRate, MetricID.scrollHitchRate]
  _ = try? TrendReport.decodeCachedPoints(
    bytes, metrics: metrics, start: CalendarDay(daysSinceEpoch: 19_000), payloads: 3)
  // A file whose header the mutations left intact reads on; most mutated files would fail the
  // checksums and stop there. So an input whose header line does not start as a cache file's is taken
  // as a file's three sections, split at its first two 0x1E bytes (an entry's: the sources and outline
  // lines, the aggregate's JSON, its packed numbers; after a first 0x1D byte, a kept merge's: the
  // entries and series lines, the aggregate's JSON, its packed numbers), and given a correct header:
  // the decoders behind it are fuzzed.
  // After a first 0x1C byte, the rest is a folder listing's one section, given a correct header; after
  // a first 0x1B byte, a folder summary's.
  _ = try? AggregateCache.decodeFolderListingFile(bytes)
  _ = try? AggregateCache.decodeFolderSummaryFile(bytes)
  if bytes.first == 0x1C {
    _ = try? AggregateCache.decodeFolderListingFile(
      AggregateCache.fileBytes(kind: "folder", [Array(bytes.dropFirst())]))
    return 0
  }
  if bytes.first == 0x1B {
    _ = try? AggregateCache.decodeFolderSummaryFile(
      AggregateCache.fileBytes(kind: "summary", [Array(bytes.dropFirst())]))
    return 0
  }
  let merge = bytes.first == 0x1D
  if !bytes.starts(with: Array("metrics-report-cache ".utf8)) {
    let body = merge ? Array(bytes.dropFirst()) : bytes
    let first = body.firstIndex(of: 0x1E)
    let second = first.flatMap { f in body[(f + 1)...].firstIndex(of: 0x1E) }
    let outline = first.map { Array(body[..<$0]) } ?? Array("[]\nnull\n".utf8)
    let json = first.map { f in Array(body[(f + 1)..<(second ?? body.count)]) } ?? body
    let numbers = second.map { Array(body[($0 + 1)...]) } ?? []
    bytes = AggregateCache.fileBytes(kind: merge ? "result" : "entry", [outline, json, numbers])
  }
  let evaluator = RegressionEvaluator()
  var options = evaluator.aggregationOptions
  options.interval = .day
  options.grouping = GroupingKey(parsing: "deviceType")
  if merge || bytes.starts(with: Array("metrics-report-cache result ".utf8)) {
    for outline in [true, false] {
      if let merged = try? AggregateCache.decodeMergedEntries(
        bytes, outline: outline, options: options, reader: PayloadReader())
      {
        _ = TrendReport(aggregate: merged, metrics: ["*", "payloads"], interval: .day)
      }
    }
  }
  if let outline = try? AggregateCache.decodeOutline(
    bytes, size: bytes.count, options: options, reader: PayloadReader())
  {
    _ = TrendReport(aggregate: outline, metrics: ["*", "payloads"], interval: .day)
  }
  guard let aggregate = try? AggregateCache.decodeEntry(bytes, options: options, reader: PayloadReader()) else {
    return 0
  }
  var twice = aggregate
  twice.merge(aggregate)
  for a in [aggregate, twice] {
    let summary = SummaryReport(aggregate: a, options: SummaryOptions())
    _ = SummaryTableRenderer.text(summary) + SummaryJSONRenderer.render(summary)
    let trend = TrendReport(aggregate: a, metrics: ["*", "payloads"], interval: .day)
    for format in OutputFormat.allCases { _ = TrendRenderer.render(trend, as: format, minPayloads: 1) }
    let versions = a.versions.keys.sorted()
    if versions.count >= 2 {
      _ = evaluator.evaluate(
        baseline: a.versions[versions[0]]!, candidate: a.versions[versions[1]]!,
        baselineDiagnostics: a.diagnostics[versions[0]], candidateDiagnostics: a.diagnostics[versions[1]])
    }
  }
  return 0
}

@_cdecl("FuzzCacheEntry_main")
public func fuzzCacheEntryMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runLibFuzzer(argc, argv) { data, size in fuzzCacheEntry(data, size) }
}
