// Fuzzes the reader of llvm-symbolizer's answers: any bytes as one JSON answer line. What reads must
// keep every file name within the bound, and positions positive; everything else must be a failure
// that names what the line held. Any bytes as a demangled name are shortened (linear in their length).
import FuzzSupport
import MetricKitAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSymbolizerAnswer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
  do {
    let answer = try SymbolizerAnswer(line: bytes)
    for symbol in answer.symbols {
      precondition((symbol.file?.utf8.count ?? 0) <= SymbolizerAnswer.maximumNameLength + 3)
      precondition(symbol.line.map { $0 > 0 } ?? true && symbol.column.map { $0 > 0 } ?? true)
    }
  } catch {
    precondition(error.description.hasPrefix("not an answer") || error.description == "out of memory")
  }
  // Any text as a demangled name: shortened without a trap.
  _ = SwiftDemangler.shortName(String(decoding: bytes, as: UTF8.self))
  return 0
}

@_cdecl("FuzzSymbolizerAnswer_main")
public func fuzzSymbolizerAnswerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  runLibFuzzer(argc, argv) { data, size in fuzzSymbolizerAnswer(data, size) }
}
