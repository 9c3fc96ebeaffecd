// Fuzzes what a dump reaches in rendering: any bytes as one file of payloads, aggregated per day and
// by device, then the report page, the trend, the summary and the three exports of them.
import FuzzSupport
import MetricKitAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  var options = AggregationOptions(payloadStatistics: MetricSelection(), payloadPercentiles: Percentile.defaults)
  options.interval = .day
  options.grouping = .deviceType
  var aggregate = DumpAggregate()
  let location = PayloadLocation(path: "fuzz")
  for (_, result) in PayloadDecoder().decode(UnsafeRawBufferPointer(start: start, count: count)) {
    if case .success(.metricPayload(let payload, _)) = result {
      aggregate.add(.payload(payload, location), filter: PayloadFilter(), options: options)
    }
  }
  var report = ReportOptions()
  report.interval = .day
  report.top = 2
  _ = HTMLReportRenderer.render(ReportPage(aggregate: aggregate, options: report, gate: nil))
  let trend = TrendReport(aggregate: aggregate, metrics: ["*", "payloads"], interval: .day)
  for format in OutputFormat.allCases { _ = TrendRenderer.render(trend, as: format, minPayloads: 1) }
  let export = MetricExport(aggregate: aggregate, interval: .day, top: 2)
  for format in ExportFormat.allCases { _ = format.render(export) }
  return 0
}

@_cdecl("FuzzReport_main")
public func fuzzReportMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runLibFuzzer(argc, argv) { data, size in fuzzReport(data, size) }
}
