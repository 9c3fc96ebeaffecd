#if Collector
  import ArgumentParser
  import Foundation
  import Logging
  import MetricKitAnalysis
  import MetricKitCollector

  /// `metrics-report collect DIR --tokens FILE`: the collector service apps post payloads to.
  struct Collect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "collect",
      abstract: "Receive MetricKit payloads over HTTP and store them, durably and once, as a dump.",
      discussion: """
        Apps post payloads to /v1/payloads with 'Authorization: Bearer <token>': one JSON object, an array \
        or NDJSON, plain or gzip. Each is validated; the new ones are written to \
        DIR/<bundle>/<yyyy-mm-dd>/<instance>-<n>.ndjson.gz and synced before the answer (202 with the \
        stored and duplicate ids; 400 naming the key of a bad payload; 401 without a known token; 413 \
        too large; 503 overloaded or stopping and 507 out of space, with Retry-After). /healthz answers \
        ok; /metrics is OpenMetrics. SIGTERM or SIGINT stops taking connections, answers the requests \
        under way, seals every segment and exits 0.
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

    @Option(help: "Remove day folders older than this many days.")
    var retain: Int?

    @Option(help: "The largest request body, in bytes, before decompression.")
    var maxBodyBytes = 16 << 20

    @Option(help: "The most bytes a gzip body may inflate to.")
    var maxDecompressedBytes = 64 << 20

    @Option(help: "The most bytes the stored segments may take; past it requests get 507.")
    var maxStoreBytes: Int?

    @Option(help: "Seal a segment once it is this many seconds old.")
    var sealSeconds: Double = 300

    @Option(help: "Print a new ingest token for this bundle identifier and its tokens-file line, and exit.")
    var newToken: String?

    func validate() throws {
      if newToken == nil {
        guard directory != nil else { throw ValidationError("Missing the folder to store payloads in.") }
        guard tokens != nil else { throw ValidationError("Missing --tokens FILE (make one with --new-token BUNDLE).") }
      }
      guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port.") }
      guard maxBodyBytes > 0, maxDecompressedBytes > 0, sealSeconds > 0 else {
        throw ValidationError("--max-body-bytes, --max-decompressed-bytes and --seal-seconds must be positive.")
      }
    }

    func run() async throws {
      if let bundle = newToken {
        var rng = SystemRandomNumberGenerator()
        let token =
          "mrt_" + (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &rng)) }.joined()
        print(token)
        ReportOutput.printError("tokens file line: \(IngestTokens.line(token: token, bundle: bundle))")
        return
      }
      guard let directory, let tokens else { return }
      let tokenSet: IngestTokens
      do {
        guard let text = try? String(contentsOfFile: tokens, encoding: .utf8) else {
          throw CommandFailure.cannotEvaluate("cannot read the tokens file \(tokens)")
        }
        tokenSet = try IngestTokens(text: text, name: tokens)
      } catch let error as TokenFileError {
        throw CommandFailure.cannotEvaluate("\(error)")
      }
      var storage = SegmentStore.Configuration(root: URL(fileURLWithPath: directory), instance: instance)
      storage.retainDays = retain
      storage.maximumStoreBytes = maxStoreBytes
      storage.sealAge = sealSeconds
      let store: SegmentStore
      do { store = try SegmentStore(storage) } catch { throw CommandFailure.cannotEvaluate("\(directory): \(error)") }
      var service = CollectorService.Configuration()
      service.host = host
      service.port = port
      service.maximumBodyBytes = maxBodyBytes
      service.limits.maximumDecompressedSize = maxDecompressedBytes
      var logger = Logger(label: "metrics-report.collect")
      logger.logLevel = .info
      let recovered = store.counters
      if recovered.recoveredSegments > 0 {
        logger.notice(
          "sealed segments a stop left open",
          metadata: ["segments": "\(recovered.recoveredSegments)", "tornBytesDropped": "\(recovered.droppedTailBytes)"])
      }
      let host = host
      try await CollectorService(configuration: service, store: store, tokens: tokenSet, logger: logger).run {
        port in
        // Unbuffered: whoever started the server waits for this line.
        FileHandle.standardOutput.write(Data("listening on http://\(host):\(port), storing in \(directory)\n".utf8))
      }
    }
  }
#endif
