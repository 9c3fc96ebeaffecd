import Dispatch
import Foundation
import Hummingbird
import Logging
import MetricKitAnalysis
import NIOCore

/// The collector: an HTTP service apps post MetricKit payloads to (`POST /v1/payloads`), with
/// `/healthz` and `/metrics`. It validates each payload with the library's decoder, stores the new
/// ones durably through a ``SegmentStore`` and answers only once they are on disk.
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

    /// The defaults.
    public init() {}
  }

  /// Where and how the service listens.
  public let configuration: Configuration
  /// Where payloads are stored.
  public let store: SegmentStore
  /// The apps allowed to send.
  public let tokens: IngestTokens
  /// What `/metrics` says.
  public let metrics = CollectorMetrics()
  private let logger: Logger

  /// A service storing into `store` the payloads of apps holding `tokens`.
  public init(configuration: Configuration, store: SegmentStore, tokens: IngestTokens, logger: Logger) {
    self.configuration = configuration
    self.store = store
    self.tokens = tokens
    self.logger = logger
  }

  /// Serves until SIGTERM or SIGINT, then stops taking connections, answers the requests under way,
  /// and seals the store. `listening` is told the port once the server accepts connections.
  public func run(listening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
    let router = Router()
    router.post("v1/payloads") { request, _ in await self.ingest(request) }
    router.get("healthz") { _, _ in "ok\n" }
    router.get("metrics") { _, _ in
      Response(
        status: .ok,
        headers: [.contentType: "application/openmetrics-text; version=1.0.0; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(string: self.metrics.exposition(self.store.counters))))
    }
    let app = Application(
      router: router,
      configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
      onServerRunning: { channel in await listening(channel.localAddress?.port ?? 0) },
      logger: logger)
    try await app.runService()
    store.close()
    logger.info("stopped; every open segment sealed", metadata: ["payloads": "\(store.counters.payloadsStored)"])
  }

  /// Answers one `POST /v1/payloads`.
  func ingest(_ request: Request) async -> Response {
    let start = DispatchTime.now()
    var bytes = 0
    var accepted = 0
    var rejectedKinds: [String] = []
    let response = await answer(request, bytes: &bytes, accepted: &accepted, rejectedKinds: &rejectedKinds)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    metrics.request(
      status: Int(response.status.code), seconds: seconds, bytes: bytes, accepted: accepted, rejected: rejectedKinds)
    return response
  }

  private func answer(
    _ request: Request, bytes: inout Int, accepted: inout Int, rejectedKinds: inout [String]
  ) async -> Response {
    guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer "),
      let bundle = tokens.bundle(for: authorization.dropFirst("Bearer ".count))
    else {
      return Self.json(.unauthorized, ["error": .string("an ingest token is needed: Authorization: Bearer <token>")])
    }
    var body: [UInt8]
    do {
      let buffer = try await request.body.collect(upTo: configuration.maximumBodyBytes)
      body = Array(buffer.readableBytesView)
    } catch {
      return Self.json(
        .contentTooLarge, ["error": .string("the body is over the \(configuration.maximumBodyBytes)-byte limit")])
    }
    bytes = body.count
    if let encoding = request.headers[.contentEncoding]?.lowercased(), encoding != "identity" {
      guard encoding == "gzip" else {
        return Self.json(.unsupportedMediaType, ["error": .string("Content-Encoding '\(encoding)': only gzip is read")])
      }
      let limit = configuration.limits.maximumDecompressedSize
      let inflated = body.withUnsafeBytes { raw in
        Result { () throws(InputError) in try GzipDecompressor.inflated(raw, limit: limit) }
      }
      switch inflated {
      case .success(let bytes): body = bytes
      case .failure(let error):
        let status: HTTPResponse.Status = error == GzipDecompressor.overLimit(limit) ? .contentTooLarge : .badRequest
        return Self.json(status, ["error": .string("gzip body: \(error.reason)")])
      }
    }
    let intake = PayloadIntake(body: body, bundle: bundle, limits: configuration.limits)
    accepted = intake.accepted.count
    rejectedKinds = intake.rejected.map(\.kind)
    let rejected = JSONWriter.Value.array(
      intake.rejected.map { .object([("index", .integer(Int128($0.index))), ("error", .string($0.reason))]) })
    guard !intake.accepted.isEmpty else {
      let onlyBundle = !intake.rejected.isEmpty && intake.rejected.allSatisfy { $0.kind == "bundle" }
      return Self.json(
        onlyBundle ? .forbidden : .badRequest, ["stored": .array([]), "duplicates": .array([]), "rejected": rejected])
    }
    do {
      let receipt = try await store.store(intake.accepted.map { ($0.id, $0.line) }, bundle: bundle)
      return Self.json(
        .accepted,
        [
          "stored": .array(receipt.stored.map { .string($0.description) }),
          "duplicates": .array(receipt.duplicates.map { .string($0.description) }), "rejected": rejected,
        ])
    } catch let error as StoreError {
      switch error {
      case .overloaded: return Self.json(.serviceUnavailable, ["error": .string(error.description)], retryAfter: 1)
      case .shuttingDown: return Self.json(.serviceUnavailable, ["error": .string(error.description)], retryAfter: 5)
      case .full: return Self.json(Self.insufficientStorage, ["error": .string(error.description)], retryAfter: 60)
      case .io, .badName:
        logger.error("store failed", metadata: ["error": "\(error)"])
        return Self.json(.serviceUnavailable, ["error": .string(error.description)], retryAfter: 30)
      }
    } catch {
      return Self.json(.internalServerError, ["error": .string("\(error)")])
    }
  }

  /// 507: the store has no room (HTTP Types names no such status).
  static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")

  /// A JSON answer; `retryAfter` seconds in `Retry-After`.
  static func json(
    _ status: HTTPResponse.Status, _ members: KeyValuePairs<String, JSONWriter.Value>, retryAfter: Int? = nil
  )
    -> Response
  {
    var headers: HTTPFields = [.contentType: "application/json"]
    if let retryAfter { headers[.retryAfter] = String(retryAfter) }
    let text = JSONWriter.compact(.object(members.map { ($0.key, $0.value) })) + "\n"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}
