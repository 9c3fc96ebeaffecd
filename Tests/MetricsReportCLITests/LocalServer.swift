import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A real server the tests start (Prometheus, the Pushgateway) on 127.0.0.1 and a free port, and stop
/// in every case (`stop()` in a `defer`). It owns a scratch directory for its log and any state it
/// writes, removed when it stops.
final class LocalServer {
  let process = Process()
  let port: Int
  let base: URL
  /// The server's own directory: its log, and whatever state `arguments` points into it.
  let scratch: URL
  private let log: URL

  /// An executable on the PATH, or nil.
  static func executable(_ name: String) -> String? {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
    return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// A port nothing listens on now (the kernel's choice for port 0).
  static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
      }
    }
    guard bound else { throw CocoaError(.fileReadUnknown) }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Starts `executable` with `arguments(port, scratch)` and waits until `readyPath` answers 200.
  init(executable: String, readyPath: String, arguments: (Int, URL) -> [String]) async throws {
    port = try Self.freePort()
    base = URL(string: "http://127.0.0.1:\(port)")!
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent("mr-server-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    log = scratch.appendingPathComponent("server.log")
    FileManager.default.createFile(atPath: log.path, contents: nil)
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments(port, scratch)
    let handle = try FileHandle(forWritingTo: log)
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    try process.run()
    for _ in 0..<200 {
      if let (_, response) = try? await URLSession.shared.data(from: base.appendingPathComponent(readyPath)),
        (response as? HTTPURLResponse)?.statusCode == 200
      {
        return
      }
      guard process.isRunning else { break }
      try await Task.sleep(nanoseconds: 100_000_000)
    }
    let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    stop()
    throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(executable) did not start: \(output)"])
  }

  /// Stops the server, waits for it, and removes its scratch directory (what it wrote on the way out
  /// included: the Pushgateway persists its metrics when terminated).
  func stop() {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: scratch)
  }

  /// GET `path` with `query`, as text.
  func get(_ path: String, query: [String: String] = [:]) async throws -> String {
    var components = URLComponents(url: base.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
    components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
    // `+` in a query is a space to most servers: encode it.
    components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
    let (data, _) = try await URLSession.shared.data(from: components.url!)
    return String(decoding: data, as: UTF8.self)
  }

  /// PUT `body` to `path`; the status code.
  func put(_ path: String, body: Data) async throws -> Int {
    var request = URLRequest(url: base.appendingPathComponent(path))
    request.httpMethod = "PUT"
    request.httpBody = body
    let (_, response) = try await URLSession.shared.data(for: request)
    return (response as? HTTPURLResponse)?.statusCode ?? 0
  }
}
