// Fuzzes the cache's files and everything that reads them: any bytes as an entry file (header,
// checksums, sources, outline, aggregate), its outline alone, and a trend interval's cached points;
// a decoded entry merged with itself, then a summary, a trend and a comparison of it.
import FuzzSupport
import MetricKitAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCacheEntry(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  var bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
  let metrics = [MetricID.hangRate, MetricID.scrollHitchRate]
  _ = try? TrendReport.decodeCachedPoints(
    bytes, metrics: metrics, start: CalendarDay(daysSinceEpoch: 19_000), payloads: 3)
  // An entry whose header the mutations left intact reads on; most mutated entries would fail the
  // checksums and stop there. So an input whose header line does not start as an entry's is taken as
  // the entry's two sections (split at its first 0x1E byte: the sources and outline lines, then the
  // aggregate's JSON; without one, an outline of `null`) and given a correct header: the decoders
  // behind it are fuzzed.
  if !bytes.starts(with: Array("metrics-report-cache entry ".utf8)) {
    let split = bytes.firstIndex(of: 0x1E)
    let outline = split.map { Array(bytes[..<$0]) } ?? Array("[]\nnull\n".utf8)
    let body = split.map { Array(bytes[($0 + 1)...]) } ?? bytes
    func fnv(_ b: [UInt8]) -> String {
      var h: UInt64 = 0xcbf2_9ce4_8422_2325
      for x in b { h = (h ^ UInt64(x)) &* 0x100_0000_01b3 }
      return String(h, radix: 16)
    }
    let header =
      "metrics-report-cache entry \(AggregateCache.formatVersion) \(outline.count) \(fnv(outline)) \(body.count) \(fnv(body))\n"
    bytes = Array(header.utf8) + outline + body
  }
  let evaluator = RegressionEvaluator()
  var options = evaluator.aggregationOptions
  options.interval = .day
  options.grouping = GroupingKey(parsing: "deviceType")
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
