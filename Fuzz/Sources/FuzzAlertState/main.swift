// Fuzzes the reading of watch's alert state file.
import Alerting
import Foundation
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAlertState(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let data = Data(UnsafeRawBufferPointer(start: start, count: count))
  if let state = try? AlertState.decode(data, path: "fuzz.json") {
    // What is read writes back and reads back the same.
    let again = try? AlertState.decode(try! state.encoded(), path: "again.json")
    precondition(again == state, "a state read back as it was written")
  }
  return 0
}

@_cdecl("FuzzAlertState_main")
public func fuzzAlertStateMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runLibFuzzer(argc, argv) { data, size in fuzzAlertState(data, size) }
}
