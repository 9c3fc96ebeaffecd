import ArgumentParser
import Foundation
import Logging
import MetricKitAnalysis
import MetricKitCollector

/// `metrics-report-collect DIR --tokens FILE` (also run as `metrics-report collect`): the collector
/// service apps post payloads to. A program of its own, so that the analysis commands build and ship
/// without the server stack (SwiftNIO, Hummingbird). Exit codes: 0 stopped by SIGTERM or SIGINT after
/// sealing every segment; 2 the store or the tokens file cannot be used; 64 usage error.
@main
struct Collect: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "metrics-report-collect",
    abstract: "Receive MetricKit payloads over HTTP and store them, durably and once, as a dump.",
    discussion: """
      Apps post (or put) payloads to /v1/payloads with 'Authorization: Bearer <token>' or \
      '?token=<token>': one JSON object, an array or NDJSON, plain or gzip. Each is validated; the new \
      ones are written to DIR/<bundle>/<yyyy-mm-dd>/<instance>-<n>.ndjson.gz and synced before the \
      answer (202 with the stored and duplicate ids; 400 naming the key of a bad payload; 401 without a \
      known token; 408 a body too slow; 413 too large; 503 with Retry-After when busy, stopping or out \
      of space). /healthz answers ok (503 while the store is full or failing); /metrics is OpenMetrics. \
      SIGHUP reads the tokens file again. SIGTERM or SIGINT stops taking connections, answers the \
      requests under way, seals every segment and exits 0.
      """)

  @Argument(help: "The folder payloads are stored under (a dump every command reads).")
  var directory: String?

  @Option(help: "The tokens file: lines 'sha256:<hex> <bundle id>' (see --new-token).")
  var tokens: String?

  @Option(help: "The address to listen on.")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on (0: a free one, said on standard output).")
  var port = 8080

  @Option(help: "This collector's name in its segments' names (collectors sharing a folder need distinct ones).")
  var instance = "collector"

  @Option(help: "Remove the segments of day folders older than this many days (at least 1).")
  var retain: Int?

  @Option(help: "The largest request body, in bytes, before decompression.")
  var maxBodyBytes = 16 << 20

  @Option(help: "The most bytes a gzip body may inflate to.")
  var maxDecompressedBytes = 64 << 20

  @Option(help: "The most bytes the stored segments may take; past it requests get 503.")
  var maxStoreBytes: Int?

  @Option(help: "Seal a segment once it is this many seconds old.")
  var sealSeconds: Double = 300

  @Option(help: "Close a connection idle (or waiting for a request's head) this many seconds.")
  var idleSeconds: Double = 30

  @Option(help: "Answer 408 to a request whose body takes longer than this many seconds.")
  var bodySeconds: Double = 60

  @Option(help: "Serve at most this many connections at once (default: below the descriptor limit).")
  var maxConnections: Int?

  @Option(help: "The most bytes of bodies inflated and decoded at once; past it requests get 503.")
  var maxWorkingBytes = 512 << 20

  @Option(help: "On SIGTERM, answer 503 to requests still unanswered after this many seconds.")
  var shutdownSeconds: Double = 10

  @Option(help: "Print a new ingest token for this bundle identifier and its tokens-file line, and exit.")
  var newToken: String?

  func validate() throws {
    if newToken == nil {
      guard directory != nil else { throw ValidationError("Missing the folder to store payloads in.") }
      guard tokens != nil else { throw ValidationError("Missing --tokens FILE (make one with --new-token BUNDLE).") }
    }
    guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port.") }
    if let newToken, !SegmentStore.isPlainName(newToken) {
      throw ValidationError("'\(newToken)' is not a bundle identifier (letters, digits, '.', '-', '_').")
    }
    if let retain, retain < 1 { throw ValidationError("--retain \(retain): keep at least 1 day.") }
    if let maxStoreBytes, maxStoreBytes <= 0 {
      throw ValidationError("--max-store-bytes \(maxStoreBytes) must be positive.")
    }
    if let maxConnections, maxConnections <= 0 {
      throw ValidationError("--max-connections \(maxConnections) must be positive.")
    }
    for (name, value) in [
      ("--max-body-bytes", maxBodyBytes), ("--max-decompressed-bytes", maxDecompressedBytes),
      ("--max-working-bytes", maxWorkingBytes),
    ] where value <= 0 {
      throw ValidationError("\(name) \(value) must be positive.")
    }
    for (name, value) in [
      ("--seal-seconds", sealSeconds), ("--idle-seconds", idleSeconds),
      ("--body-seconds", bodySeconds), ("--shutdown-seconds", shutdownSeconds),
    ]
    where !(value > 0 && value <= 86_400) {
      throw ValidationError("\(name) \(value) must be a number of seconds above 0, at most a day.")
    }
  }

  func run() async throws {
    if let bundle = newToken {
      var rng = SystemRandomNumberGenerator()
      let token =
        "mrt_" + (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &rng)) }.joined()
      print(token)
      // The tokens file's line alone, so that `2>> tokens.txt` appends a line the collector reads.
      FileHandle.standardError.write(Data((IngestTokens.line(token: token, bundle: bundle) + "\n").utf8))
      return
    }
    guard let directory, let tokens else { return }
    let tokenSet: IngestTokens
    do {
      tokenSet = try IngestTokens(contentsOfFile: tokens)
    } catch {
      throw Self.cannotStart("the tokens file \(error)")
    }
    var storage = SegmentStore.Configuration(root: URL(fileURLWithPath: directory), instance: instance)
    storage.retainDays = retain
    storage.maximumStoreBytes = maxStoreBytes
    storage.sealAge = sealSeconds
    let store: SegmentStore
    do { store = try SegmentStore(storage) } catch { throw Self.cannotStart("\(directory): \(error)") }
    var service = CollectorService.Configuration()
    service.host = host
    service.port = port
    service.maximumBodyBytes = maxBodyBytes
    service.limits.maximumDecompressedSize = maxDecompressedBytes
    service.idleTimeout = idleSeconds
    service.bodyDeadline = bodySeconds
    service.maximumConnections = maxConnections ?? Self.connectionsBelowTheDescriptorLimit()
    service.workingBytes = maxWorkingBytes
    service.shutdownDeadline = shutdownSeconds
    var logger = Logger(label: "metrics-report.collect")
    logger.logLevel = .info
    let recovered = store.counters
    if recovered.recoveredSegments > 0 {
      logger.notice(
        "sealed segments a stop left open",
        metadata: ["segments": "\(recovered.recoveredSegments)", "tornBytesDropped": "\(recovered.droppedTailBytes)"])
    }
    let host = host
    let registry = TokenRegistry(tokenSet, file: tokens)
    try await CollectorService(configuration: service, store: store, tokens: registry, logger: logger).run {
      port in
      // Unbuffered: whoever started the server waits for this line.
      FileHandle.standardOutput.write(Data("listening on http://\(host):\(port), storing in \(directory)\n".utf8))
    }
  }

  /// Says why the collector cannot start, on standard error, and gives the exit status 2.
  static func cannotStart(_ message: String) -> ExitCode {
    FileHandle.standardError.write(
      Data((TextEscaping.diagnosticLine("metrics-report-collect: \(message)") + "\n").utf8))
    return ExitCode(2)
  }

  /// Connections that leave room below the process's descriptor limit for the store's files and
  /// the server's own: the soft limit less 64, at least 16.
  static func connectionsBelowTheDescriptorLimit() -> Int {
    var limit = rlimit()
    #if os(Linux)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur < 1 << 40 else { return 1_000 }
    return max(16, Int(min(limit.rlim_cur, 1 << 20)) - 64)
  }
}
