import Dispatch
import Foundation
import Hummingbird
import Logging
import MetricKitAnalysis
import NIOCore
import ServiceLifecycle

/// The collector: an HTTP service apps post MetricKit payloads to (`POST` or `PUT /v1/payloads`),
/// with `/healthz` and `/metrics`. It validates each payload with the library's decoder, stores the
/// new ones durably through a ``SegmentStore`` and answers only once they are on disk.
///
/// Every bound is a number in ``Configuration``: how long a connection may sit idle or a body take
/// to arrive, how many connections are served at once, how many bytes are inflated and decoded at
/// once, and how long a stop waits for the requests under way.
public struct CollectorService: Sendable {
  /// Where and how the service listens and what it accepts.
  public struct Configuration: Sendable {
    /// The address to bind (127.0.0.1 unless told otherwise).
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one.
    public var port = 8080
    /// The largest request body, in bytes, before decompression.
    public var maximumBodyBytes = 16 << 20
    /// The limits each payload is decoded under (the reader's); `maximumDecompressedSize` bounds a
    /// gzip body inflated.
    public var limits = InputLimits(maximumDecompressedSize: 64 << 20)
    /// Seconds a connection may wait for a request's head, or sit idle between requests, before it
    /// is closed.
    public var idleTimeout: Double = 30
    /// Seconds a request's body may take to arrive, from its head; past it the answer is `408`.
    public var bodyDeadline: Double = 60
    /// Connections served at once; past it a new connection is answered `503` and closed.
    public var maximumConnections = 1_000
    /// Bytes of request bodies being inflated and decoded at once; past it `503` with `Retry-After`.
    public var workingBytes = 512 << 20
    /// Seconds a stop waits for the requests under way before it answers them `503`.
    public var shutdownDeadline: Double = 10

    /// The defaults.
    public init() {}
  }

  /// Where and how the service listens.
  public let configuration: Configuration
  /// Where payloads are stored.
  public let store: SegmentStore
  /// The apps allowed to send.
  public let tokens: TokenRegistry
  /// What `/metrics` says.
  public let metrics = CollectorMetrics()
  private let logger: Logger
  let budget: WorkingBudget
  private let stopping = StopClock()
  private let parsers: PayloadDecoder.Parsers

  /// A service storing into `store` the payloads of apps holding `tokens`.
  public init(configuration: Configuration, store: SegmentStore, tokens: TokenRegistry, logger: Logger) {
    self.configuration = configuration
    self.store = store
    self.tokens = tokens
    self.logger = logger
    budget = WorkingBudget(limit: configuration.workingBytes)
    parsers = PayloadDecoder.Parsers(limits: configuration.limits)
  }

  /// The routes: `/v1/payloads` (`POST`, or `PUT` as MeterReporter sends), `/healthz`, `/metrics`.
  public func router() -> Router<BasicRequestContext> {
    let router = Router()
    router.post("v1/payloads") { request, _ in try await self.ingest(request) }
    router.put("v1/payloads") { request, _ in try await self.ingest(request) }
    router.get("healthz") { _, _ in
      let counters = self.store.counters
      let problem = counters.full ? "full" : counters.failing ? "failing" : nil
      return Response(
        status: problem == nil ? .ok : .serviceUnavailable, headers: [.contentType: "text/plain"],
        body: .init(byteBuffer: ByteBuffer(string: (problem ?? "ok") + "\n")))
    }
    router.get("metrics") { _, _ in
      Response(
        status: .ok,
        headers: [.contentType: "application/openmetrics-text; version=1.0.0; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(string: self.metrics.exposition(self.store.counters))))
    }
    return router
  }

  /// The application: the router on HTTP/1.1 with the service's timeouts and connection cap, and the
  /// store as a service of its group (stopped after the server, so every request under way is
  /// answered before the last segment is sealed).
  public func application(
    listening: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let connections = ConnectionCount(limit: configuration.maximumConnections)
    let stopping = stopping
    return Application(
      router: router(),
      server: .http1(
        configuration: .init(
          additionalChannelHandlers: [ConnectionGuard(connections: connections, stopping: stopping)],
          idleTimeout: .nanoseconds(Int64(configuration.idleTimeout * 1e9)))),
      configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
      services: [store],
      onServerRunning: { channel in await listening(channel.localAddress?.port ?? 0) },
      logger: logger)
  }

  /// Serves until SIGTERM or SIGINT, then stops taking connections, answers the requests under way
  /// (those still unanswered after the shutdown deadline get `503`), and seals the store. SIGHUP
  /// reads the tokens file again. `listening` is told the port once the server accepts connections.
  public func run(listening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
    let group = ServiceGroup(
      configuration: .init(
        services: [
          .init(service: application(listening: listening)),
          .init(service: TokenReloader(tokens: tokens, logger: logger)),
          // Last, so told first: from the signal on, bodies still arriving have the shutdown deadline.
          .init(service: StopWatcher(clock: stopping)),
        ],
        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    try await group.run()
    logger.info("stopped; every open segment sealed", metadata: ["payloads": "\(store.counters.payloadsStored)"])
  }

  /// Answers one ingest request: a receipt, or an ``IngestError``; counted either way.
  func ingest(_ request: Request) async throws -> Response {
    let start = DispatchTime.now()
    var outcome = Outcome()
    let result: Result<Response, IngestError>
    do throws(IngestError) {
      result = .success(try await answer(request, &outcome))
    } catch {
      result = .failure(error)
    }
    let status: Int
    switch result {
    case .success(let response): status = Int(response.status.code)
    case .failure(let error): status = Int(error.status.code)
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    metrics.request(
      status: status, seconds: seconds, bytes: outcome.bytes, accepted: outcome.accepted, rejected: outcome.rejected)
    if status >= 400 {
      var metadata: Logger.Metadata = ["status": "\(status)", "bytes": "\(outcome.bytes)"]
      if let bundle = outcome.bundle { metadata["bundle"] = "\(bundle)" }
      if case .failure(let error) = result { metadata["error"] = "\(error.message)" }
      if let reason = outcome.firstRejection { metadata["firstRejection"] = "\(reason)" }
      logger.log(level: status >= 500 ? .warning : .notice, "request refused", metadata: metadata)
    }
    return try result.get()
  }

  /// What one request came to, for the metrics and the log.
  struct Outcome {
    var bytes = 0
    var accepted = 0
    var rejected: [PayloadIntake.Rejected.Kind] = []
    var bundle: String?
    var firstRejection: String?
  }

  private func answer(_ request: Request, _ outcome: inout Outcome) async throws(IngestError) -> Response {
    guard let token = Self.token(of: request), let bundle = tokens.bundle(for: token) else {
      throw IngestError(
        .unauthorized, "an ingest token is needed: Authorization: Bearer <token>, or ?token=<token> in the URL")
    }
    outcome.bundle = bundle
    let body = try await collectBody(request)
    outcome.bytes = body.count
    var inflating = false
    if let encoding = request.headers[.contentEncoding]?.lowercased(), encoding != "identity" {
      guard encoding == "gzip" else {
        throw IngestError(.unsupportedEncoding, "Content-Encoding '\(encoding)': only gzip is read")
      }
      inflating = true
    }
    let limit = configuration.limits.maximumDecompressedSize
    // The bytes this request will hold while it is inflated and decoded: a gzip body's stated size
    // (its trailer's, bounded by the limit), a plain body's own.
    var reserved = inflating ? min(limit, max(body.count, Self.statedSize(body)) + 4096) : body.count
    guard budget.reserve(reserved) else { throw busy() }
    defer { budget.release(reserved) }
    var payloadBytes = body
    if inflating {
      var inflated = Self.inflate(body, limit: reserved)
      // A body larger than its trailer says (several members, or a trailer that lies) is inflated
      // again with the whole limit reserved.
      if case .failure(let error) = inflated, error == GzipDecompressor.overLimit(reserved), reserved < limit {
        guard budget.reserve(limit - reserved) else { throw busy() }
        reserved = limit
        inflated = Self.inflate(body, limit: limit)
      }
      switch inflated {
      case .success(let bytes): payloadBytes = bytes
      case .failure(let error):
        throw error == GzipDecompressor.overLimit(limit)
          ? IngestError(.tooLarge, "gzip body: \(error.reason)") : IngestError(.badGzip, "gzip body: \(error.reason)")
      }
    }
    let contentType = request.headers[.contentType]?.lowercased() ?? ""
    let framing: PayloadBody.Framing = contentType.hasPrefix("application/x-ndjson") ? .lines : .detected
    let intake = PayloadIntake(
      body: payloadBytes, bundle: bundle, framing: framing, limits: configuration.limits, parsers: parsers)
    outcome.accepted = intake.accepted.count
    outcome.rejected = intake.rejected.map(\.kind)
    outcome.firstRejection = intake.rejected.first.map { "\($0.index): \($0.reason)" }
    guard !intake.accepted.isEmpty else {
      let onlyBundle = !intake.rejected.isEmpty && intake.rejected.allSatisfy { $0.kind == .bundle }
      return Self.receipt(onlyBundle ? .forbidden : .badRequest, .init(stored: [], duplicates: []), intake.rejected)
    }
    let receipt: SegmentStore.Receipt
    do {
      receipt = try await store.store(intake.accepted.map { ($0.id, $0.line) }, bundle: bundle)
    } catch let error as StoreError {
      throw IngestError(error)
    } catch {
      throw IngestError(.storeFailed, "\(error)", retryAfter: 30)
    }
    return Self.receipt(.accepted, receipt, intake.rejected)
  }

  /// The request's token: `Authorization: Bearer <token>` (the scheme in any case), or the URL's
  /// `token` query item for clients that cannot set a header.
  static func token(of request: Request) -> Substring? {
    if let authorization = request.headers[.authorization] {
      let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
      guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
      let token = parts[1].drop { $0 == " " }
      return token.isEmpty ? nil : token
    }
    guard let token = request.uri.queryParameters["token"], !token.isEmpty else { return nil }
    return token
  }

  /// The body, within `maximumBodyBytes` and the body deadline (from the stop on, the shutdown
  /// deadline).
  private func collectBody(_ request: Request) async throws(IngestError) -> [UInt8] {
    let limit = configuration.maximumBodyBytes
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(configuration.bodyDeadline * 1e9)
    let grace = UInt64(configuration.shutdownDeadline * 1e9)
    let stopping = stopping
    let result: Result<[UInt8], IngestError> = await withTaskGroup(of: Result<[UInt8], IngestError>?.self) { group in
      group.addTask {
        do {
          let buffer = try await request.body.collect(upTo: limit)
          return .success(Array(buffer.readableBytesView))
        } catch is NIOTooManyBytesError {
          return .failure(IngestError(.tooLarge, "the body is over the \(limit)-byte limit"))
        } catch {
          return .failure(IngestError(.incompleteBody, "the body did not arrive whole: \(error)"))
        }
      }
      group.addTask {
        while !Task.isCancelled {
          let now = DispatchTime.now().uptimeNanoseconds
          if let stop = stopping.since, now >= stop + grace {
            return .failure(IngestError(.busy, "the collector is shutting down", retryAfter: 5))
          }
          if now >= deadline {
            return .failure(
              IngestError(.timedOut, "the body did not arrive within \(Int(self.configuration.bodyDeadline)) s"))
          }
          try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return nil
      }
      let first = await group.next()!!
      group.cancelAll()
      return first
    }
    return try result.get()
  }

  private func busy() -> IngestError {
    IngestError(.busy, "the collector is busy inflating and decoding other requests", retryAfter: 1)
  }

  /// A gzip body's last member's stated size (its trailer's ISIZE); 0 for a body too short to have one.
  static func statedSize(_ body: [UInt8]) -> Int {
    guard body.count >= 18 else { return 0 }
    let n = body.count
    return Int(body[n - 4]) | Int(body[n - 3]) << 8 | Int(body[n - 2]) << 16 | Int(body[n - 1]) << 24
  }

  private static func inflate(_ body: [UInt8], limit: Int) -> Result<[UInt8], InputError> {
    body.withUnsafeBytes { raw in
      Result { () throws(InputError) in try GzipDecompressor.inflated(raw, limit: limit) }
    }
  }

  /// A receipt: the ids stored by this request, the duplicates (stored before), and each rejected
  /// document's index and reason.
  static func receipt(
    _ status: HTTPResponse.Status, _ receipt: SegmentStore.Receipt, _ rejected: [PayloadIntake.Rejected]
  ) -> Response {
    let members: [(String, JSONWriter.Value)] = [
      ("stored", .array(receipt.stored.map { .string($0.description) })),
      ("duplicates", .array(receipt.duplicates.map { .string($0.description) })),
      (
        "rejected",
        .array(rejected.map { .object([("index", .integer(Int128($0.index))), ("error", .string($0.reason))]) })
      ),
    ]
    let text = JSONWriter.compact(.object(members)) + "\n"
    return Response(
      status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}
