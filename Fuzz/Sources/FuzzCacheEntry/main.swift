// Fuzzes cache entries and everything that reads them: any bytes as an entry file (header, checksum,
// sources, aggregate), merged with itself, then a summary, a trend and a comparison of it.
import FuzzSupport
import MetricKitAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCacheEntry(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  var bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
  // An entry whose header the mutations left intact reads on; most mutated entries would fail the
  // checksum and stop there. So an input whose header line does not start as an entry's is taken as the
  // entry's body (its sources line and JSON) and given a correct header: the decoder behind it is fuzzed.
  if !bytes.starts(with: Array("metrics-report-cache entry ".utf8)) {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    bytes = Array("metrics-report-cache entry 1 \(bytes.count) \(String(h, radix: 16))\n".utf8) + bytes
  }
  let evaluator = RegressionEvaluator()
  var options = evaluator.aggregationOptions
  options.interval = .day
  options.grouping = GroupingKey(parsing: "deviceType")
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
