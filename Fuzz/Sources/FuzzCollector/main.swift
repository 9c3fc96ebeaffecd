// Fuzzes what the collector reads from outside: any bytes as a request body (cut into documents,
// each decoded and held to a bundle; and read as NDJSON lines), as one JSON text to canonicalize (the
// payload's id), as a segment whose members are walked and checked (what a restart reads after a
// crash), and as a tokens file. The first byte picks which.
import FuzzSupport
import MetricKitCollector

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCollector(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let all = UnsafeRawBufferPointer(start: start, count: count)
  guard let mode = all.first else { return 0 }
  let bytes = UnsafeRawBufferPointer(rebasing: all.dropFirst())
  switch mode % 4 {
  case 3:
    // The canonical form is one JSON text that canonicalizes to itself.
    if case .success(let canonical) = CanonicalJSON.canonical(bytes) {
      precondition(try! CanonicalJSON.canonical(canonical).get() == canonical)
      // No raw line break or tab: it is one line of a segment, whatever its strings hold.
      precondition(!canonical.contains(0x0A) && !canonical.contains(0x0D) && !canonical.contains(0x09))
    }
    let lines = PayloadBody.documents(bytes, framing: .lines)
    precondition(lines.count <= bytes.count + 1)
  case 0:
    let intake = PayloadIntake(body: Array(bytes), bundle: "com.example.shop")
    // Every payload taken is one line whose id is its bytes' (what the store writes and checks).
    for accepted in intake.accepted {
      precondition(!accepted.line.contains(0x0A) && accepted.id == PayloadID(of: accepted.line))
    }
  case 1:
    var offset = 0
    while offset < bytes.count {
      guard let header = try? SegmentMember.header(at: offset, of: bytes) else { break }
      if let (member, end) = try? SegmentMember.decode(at: offset, of: bytes) {
        precondition(end == header.end && member.ids == header.ids)
        // A member read back encodes to a member that reads back the same.
        guard let again = try? member.encoded() else { break }
        let decoded = again.withUnsafeBytes { try? SegmentMember.decode(at: 0, of: $0) }
        precondition(decoded?.0 == member)
      }
      offset = header.end
    }
  default:
    if let tokens = try? IngestTokens(text: String(decoding: bytes, as: UTF8.self), name: "tokens.txt") {
      _ = tokens.bundle(for: "mrt_demo_shop")
    }
  }
  return 0
}

@_cdecl("FuzzCollector_main")
public func fuzzCollectorMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runLibFuzzer(argc, argv) { data, size in fuzzCollector(data, size) }
}
