// Fuzzes the measurement-string parser and the timestamp parser.
import MetricKitAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMeasurementParser(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
  if let parsed = try? MeasurementParser.parse(text) {
    precondition(parsed.value.isFinite, "a parsed measurement is finite")
  }
  _ = try? TimestampParser().parse(text)
  return 0
}

// SwiftPM links an executable's entry point as `<module>_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt

@_cdecl("FuzzMeasurementParser_main")
public func FuzzMeasurementParserMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt
{
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzMeasurementParser(data, size) }
}
