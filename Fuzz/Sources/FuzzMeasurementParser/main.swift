// Fuzzes the measurement-string parser and the timestamp parser.
import FuzzSupport
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

@_cdecl("FuzzMeasurementParser_main")
public func fuzzMeasurementParserMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt
{
  runLibFuzzer(argc, argv) { data, size in fuzzMeasurementParser(data, size) }
}
