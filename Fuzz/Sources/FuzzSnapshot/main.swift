// Fuzzes snapshot reading and everything that reads snapshots: any bytes as a stream of snapshots,
// merged per version and with each other, then a trend, the three exports and the report page of them.
import FuzzSupport
import MetricKitAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshot(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  guard
    let snapshots = try? VersionSnapshot.loadAll(
      bytes: UnsafeRawBufferPointer(start: start, count: count), name: "fuzz")
  else { return 0 }
  guard let merged = try? VersionSnapshot.mergedByVersion(snapshots) else { return 0 }
  // A shard merged with a changed copy of itself: sums past any single input's counts.
  for snapshot in merged {
    var copy = snapshot
    copy.undatedPayloads += 1
    _ = try? VersionSnapshot.merge([snapshot, copy])
    _ = snapshot.json
  }
  let aggregate = DumpAggregate(snapshots: merged)
  let interval = merged.compactMap(\.interval).first ?? .day
  let trend = TrendReport(aggregate: aggregate, metrics: ["*", "payloads"], interval: interval)
  for format in OutputFormat.allCases { _ = TrendRenderer.render(trend, as: format, minPayloads: 1) }
  let export = MetricExport(aggregate: aggregate, interval: merged.first?.interval, top: 2)
  for format in ExportFormat.allCases { _ = format.render(export) }
  var options = ReportOptions()
  options.interval = interval
  _ = HTMLReportRenderer.render(ReportPage(aggregate: aggregate, options: options, gate: nil))
  return 0
}

@_cdecl("FuzzSnapshot_main")
public func fuzzSnapshotMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runLibFuzzer(argc, argv) { data, size in fuzzSnapshot(data, size) }
}
