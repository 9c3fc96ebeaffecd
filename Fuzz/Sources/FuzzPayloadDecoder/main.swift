// Fuzzes the payload decoder: any bytes, as one file's content (object, array or NDJSON).
import MetricKitAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayloadDecoder(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let bytes = UnsafeRawBufferPointer(start: start, count: count)
  for (_, result) in PayloadDecoder().decode(bytes) {
    // Touch what the reports read, so a malformed value cannot hide behind laziness.
    if case .success(.metricPayload(let payload)) = result {
      var aggregate = VersionAggregate(version: payload.latestApplicationVersion)
      aggregate.add(
        payload,
        options: AggregationOptions(payloadStatistics: MetricSelection(), payloadPercentiles: Percentile.defaults))
      for (_, merged) in aggregate.histograms { _ = try? merged.percentiles(Percentile.defaults) }
    }
  }
  return 0
}

// SwiftPM links an executable's entry point as `<module>_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt

@_cdecl("FuzzPayloadDecoder_main")
public func FuzzPayloadDecoderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzPayloadDecoder(data, size) }
}
