// Fuzzes the reader of saved App Store Connect responses: any bytes as a metrics, signatures or logs
// response. What it reads must render; everything else must be an OrganizerError naming the file.
import FuzzSupport
import MetricKitAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOrganizer(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
  do {
    let file = try OrganizerReader.decode(bytes, path: "fuzz.json")
    precondition(!OrganizerRenderer.text(file).isEmpty)
    let side = OrganizerComparison(aggregate: DumpAggregate(), files: [file])
    precondition(side.rows.isEmpty)  // an empty dump has no version to compare
    _ = OrganizerRenderer.text(side)
  } catch {
    precondition(error.path == "fuzz.json" && !error.reason.isEmpty)
  }
  return 0
}

@_cdecl("FuzzOrganizer_main")
public func fuzzOrganizerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runLibFuzzer(argc, argv) { data, size in fuzzOrganizer(data, size) }
}
