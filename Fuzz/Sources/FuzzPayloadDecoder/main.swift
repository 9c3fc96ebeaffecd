// Fuzzes the payload decoder: any bytes, as one file's content (object, array or NDJSON).
import FuzzSupport
import MetricKitAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayloadDecoder(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let bytes = UnsafeRawBufferPointer(start: start, count: count)
  for (_, result) in PayloadDecoder().decode(bytes) {
    // Touch what the reports read, so a malformed value cannot hide behind laziness.
    if case .success(.metricPayload(let payload, _)) = result {
      var aggregate = VersionAggregate(version: payload.latestApplicationVersion)
      aggregate.add(
        payload,
        options: AggregationOptions(payloadStatistics: MetricSelection(), payloadPercentiles: Percentile.defaults))
      for (_, merged) in aggregate.histograms { _ = try? merged.percentiles(Percentile.defaults) }
      _ = GroupingKey.state(domain: nil).value(of: payload)
      for entry in payload.stateEntries
        + payload.subIntervalEntries.map({ MetricStateEntry(state: ReportedState(), values: $0.values) })
      {
        aggregate.add(entry.values, options: AggregationOptions())
      }
    }
  }
  return 0
}

@_cdecl("FuzzPayloadDecoder_main")
public func fuzzPayloadDecoderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runLibFuzzer(argc, argv) { data, size in fuzzPayloadDecoder(data, size) }
}
