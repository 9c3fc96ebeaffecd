// Fuzzes the Mach-O reader: any bytes as a dSYM, a binary or a universal file. Every image it
// returns must lie within the input; everything else must be a MachOError.
import FuzzSupport
import MetricKitAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMachO(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
  guard let images = try? MachOReader(path: "fuzz", bytes: bytes).images() else { return 0 }
  precondition(!images.isEmpty && images.count <= MachOReader.maximumArchitectures)
  for image in images { precondition(image.uuid.count == 36) }
  return 0
}

@_cdecl("FuzzMachO_main")
public func fuzzMachOMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runLibFuzzer(argc, argv) { data, size in fuzzMachO(data, size) }
}
