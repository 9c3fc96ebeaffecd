import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MetricKitAnalysis
import NIOCore
import TestSupport
import Testing

@testable import MetricKitCollector

/// The collector's routes in process (`app.test(.router)`): every status and receipt, the tokens
/// however a client sends them, the framing an uploader's body is read with, and MeterReporter as
/// it sends, from its own test payloads.
@Suite("Collector routes")
struct CollectorRouterTests {
  static let token = "mrt_router_token"
  static let bundle = "com.example.app"

  /// Runs `body` against a collector on a fresh store in `dir`, with `token` for `bundle` (and any
  /// other tokens given), and shuts the store down.
  static func withRoutes<T: Sendable>(
    _ dir: URL, store configure: (inout SegmentStore.Configuration) -> Void = { _ in },
    service: (inout CollectorService.Configuration) -> Void = { _ in },
    tokens extra: [(token: String, bundle: String)] = [],
    _ body: @escaping @Sendable (any TestClientProtocol, CollectorService) async throws -> T
  ) async throws -> T {
    var storage = SegmentStore.Configuration(root: dir.appendingPathComponent("store"), instance: "router")
    configure(&storage)
    let store = try SegmentStore(storage)
    let lines = ([(token, bundle)] + extra).map { IngestTokens.line(token: $0.0, bundle: $0.1) }
    let tokens = try IngestTokens(text: lines.joined(separator: "\n"), name: "tokens.txt")
    var configuration = CollectorService.Configuration()
    service(&configuration)
    let collector = CollectorService(
      configuration: configuration, store: store, tokens: TokenRegistry(tokens), logger: Logger(label: "test"))
    return try await collector.application().test(.router) { client in try await body(client, collector) }
  }

  static func post(
    _ client: any TestClientProtocol, _ body: [UInt8], method: HTTPRequest.Method = .post, uri: String = "/v1/payloads",
    headers: HTTPFields = [.authorization: "Bearer \(token)"]
  ) async throws -> (status: Int, json: [String: Any], headers: HTTPFields) {
    try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(bytes: body)) { response in
      let data = Data(response.body.readableBytesView)
      let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
      return (Int(response.status.code), json, response.headers)
    }
  }

  static func line(_ n: Int) -> [UInt8] { SegmentStoreTests.line(n, bundle: bundle) }

  /// The id the collector gives `text`: its canonical bytes'.
  static func id(_ text: [UInt8]) throws -> String {
    PayloadID(of: try CanonicalJSON.canonical(text).get()).description
  }

  static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    try withTemporaryDirectory { dir in
      let file = dir.appendingPathComponent("body")
      try Data(bytes).write(to: file)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["gzip", "-f", file.path]
      try process.run()
      process.waitUntilExit()
      return [UInt8](try Data(contentsOf: file.appendingPathExtension("gz")))
    }
  }

  @Test func everyStatusAndReceipt() async throws {
    try await withTemporaryDirectoryAsync { dir in
      try await Self.withRoutes(dir, service: { $0.maximumBodyBytes = 4_000 }) { client, _ in
        let good = Self.line(1)
        var (status, json, _) = try await Self.post(client, good, headers: [:])
        #expect(status == 401 && (json["error"] as? String)?.contains("?token=") == true)
        (status, _, _) = try await Self.post(client, good, headers: [.authorization: "Bearer mrt_wrong"])
        #expect(status == 401)
        (status, _, _) = try await Self.post(client, good, headers: [.authorization: "Basic \(Self.token)"])
        #expect(status == 401)
        // The scheme in any case (RFC 9110), spaces after it.
        (status, json, _) = try await Self.post(client, good, headers: [.authorization: "bEaReR   \(Self.token)"])
        #expect(try status == 202 && json["stored"] as? [String] == [Self.id(good)])
        // The same payload, its keys in another order and a character escaped: the same id, a duplicate.
        let object = try JSONSerialization.jsonObject(with: Data(good)) as! [String: Any]
        var reordered = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted])
        reordered = Data(
          String(decoding: reordered, as: UTF8.self).replacingOccurrences(of: "ms", with: "m\\u0073").utf8)
        #expect(reordered != Data(good))
        (status, json, _) = try await Self.post(
          client, [UInt8](reordered), uri: "/v1/payloads?token=\(Self.token)", headers: [:])
        #expect(try status == 202 && json["duplicates"] as? [String] == [Self.id(good)], "\(json)")

        let bad = Array(
          #"{"appVersion":"1.0","timeStampBegin":"2026-05-01 00:00:00","timeStampEnd":"2026-05-01 23:00:00","applicationTimeMetrics":{"cumulativeForegroundTime":"12 fortnights"}}"#
            .utf8)
        (status, json, _) = try await Self.post(client, bad)
        #expect(status == 400 && (json["stored"] as? [String]) == [])
        #expect(
          (json["rejected"] as? [[String: Any]])?.first?["error"] as? String
            == "at applicationTimeMetrics.cumulativeForegroundTime: unknown unit \"fortnights\" in \"12 fortnights\"")
        (status, json, _) = try await Self.post(client, Array("hello, collector".utf8))
        #expect(
          status == 400
            && (json["rejected"] as? [[String: Any]])?.first?["error"] as? String
              == "not JSON at byte 0: 'hello, collector'",
          "\(json)")
        let foreign = SegmentStoreTests.line(2, bundle: "com.example.other")
        (status, json, _) = try await Self.post(client, foreign)
        #expect(status == 403)
        (status, _, _) = try await Self.post(client, [UInt8](repeating: 0x20, count: 5_000))
        #expect(status == 413)
        var headers: HTTPFields = [.authorization: "Bearer \(Self.token)", .contentEncoding: "br"]
        (status, _, _) = try await Self.post(client, good, headers: headers)
        #expect(status == 415)
        // A body that does not inflate is answered without a receipt: no verdict on its payloads.
        headers[.contentEncoding] = "gzip"
        (status, json, _) = try await Self.post(client, good, headers: headers)
        #expect(status == 400 && json["rejected"] == nil && (json["error"] as? String)?.hasPrefix("gzip body:") == true)
        (status, json, _) = try await Self.post(client, try Self.gzip(Self.line(3)), headers: headers)
        #expect(status == 202 && (json["stored"] as? [String])?.count == 1)

        // An uploader's NDJSON is read line by line whatever a line holds: an array on the first
        // line is its own refusal, and a blank line keeps its place.
        headers = [.authorization: "Bearer \(Self.token)", .contentType: "application/x-ndjson"]
        let ndjson = Array("[1,2]\n\n".utf8) + Self.line(4) + [0x0A]
        (status, json, _) = try await Self.post(client, ndjson, headers: headers)
        #expect(try status == 202 && json["stored"] as? [String] == [Self.id(Self.line(4))], "\(json)")
        #expect((json["rejected"] as? [[String: Any]])?.compactMap { $0["index"] as? Int } == [0, 1])
      }
    }
  }

  @Test func aFullStoreAnswers503WithRetryAfterAndHealthSaysSo() async throws {
    try await withTemporaryDirectoryAsync { dir in
      try await Self.withRoutes(dir, store: { $0.maximumStoreBytes = 100 }) { client, _ in
        let (status, json, headers) = try await Self.post(client, Self.line(1))
        #expect(
          status == 503 && headers[.retryAfter] == "60" && (json["error"] as? String)?.hasPrefix("out of space") == true
        )
        try await client.execute(uri: "/healthz", method: .get) { response in
          #expect(response.status == .serviceUnavailable && String(buffer: response.body) == "full\n")
        }
        try await client.execute(uri: "/metrics", method: .get) { response in
          let text = String(buffer: response.body)
          #expect(
            text.contains("collector_store_full 1\n") && text.contains("collector_requests_total{code=\"503\"} 1\n"))
        }
      }
    }
  }

  /// One budget for the bytes being inflated and decoded: while other requests hold it, a request is
  /// answered 503 with Retry-After; a gzip body whose trailer understates its size is inflated
  /// again under the whole limit; one past the limit is 413.
  @Test func bodiesBeingInflatedShareOneBudget() async throws {
    try await withTemporaryDirectoryAsync { dir in
      try await Self.withRoutes(
        dir,
        service: {
          $0.workingBytes = 100_000
          $0.limits.maximumDecompressedSize = 50_000
        }
      ) { client, service in
        let headers: HTTPFields = [.authorization: "Bearer \(Self.token)", .contentEncoding: "gzip"]
        let body = try Self.gzip(Self.line(1))
        #expect(service.budget.reserve(99_000))
        var (status, json, fields) = try await Self.post(client, body, headers: headers)
        #expect(status == 503 && fields[.retryAfter] == "1" && (json["error"] as? String)?.contains("busy") == true)
        service.budget.release(99_000)
        // The trailer says 10 bytes: inflated again with the whole limit reserved, and taken.
        var lying = body
        lying.replaceSubrange((lying.count - 4)..., with: [10, 0, 0, 0])
        (status, json, _) = try await Self.post(client, lying, headers: headers)
        #expect(status == 400 && (json["error"] as? String)?.hasPrefix("gzip body:") == true, "\(json)")
        (status, _, _) = try await Self.post(client, body, headers: headers)
        #expect(status == 202)
        let large = try Self.gzip(Array(repeating: 0x20, count: 60_000) + Self.line(2))
        (status, _, _) = try await Self.post(client, large, headers: headers)
        #expect(status == 413)
      }
    }
    let budget = WorkingBudget(limit: 10)
    #expect(budget.reserve(50))  // alone: let through whatever its size
    #expect(!budget.reserve(1))
    budget.release(50)
    #expect(budget.reserve(4) && budget.reserve(6) && !budget.reserve(1))
  }

  @Test func tokensAreReadAgainWithoutARestart() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let file = dir.appendingPathComponent("tokens.txt")
      try "sha256:\(PayloadID(of: Array("old".utf8))) \(Self.bundle)\r\n".write(
        to: file, atomically: true, encoding: .utf8)
      let registry = TokenRegistry(try IngestTokens(contentsOfFile: file.path), file: file.path)
      #expect(registry.bundle(for: "old") == Self.bundle && registry.bundle(for: "new") == nil)
      try "# rotated\nsha256:\(PayloadID(of: Array("new".utf8))) \(Self.bundle)\n".write(
        to: file, atomically: true, encoding: .utf8)
      #expect(try registry.reload() == 1)
      #expect(registry.bundle(for: "old") == nil && registry.bundle(for: "new") == Self.bundle)
      // A file that no longer reads leaves the tokens as they were.
      let line = "sha256:\(PayloadID(of: Array("x".utf8))) \(Self.bundle)"
      try "\(line)\n\(line)\n".write(to: file, atomically: true, encoding: .utf8)
      #expect(throws: TokenFileError.self) { try registry.reload() }
      #expect(registry.bundle(for: "new") == Self.bundle)
      do {
        _ = try IngestTokens(text: "\(line)\n#\n\(line)\n", name: "t")
        Issue.record("a token listed twice was read")
      } catch {
        #expect("\(error)" == "t:3: the same token as line 1")
      }
    }
  }

  /// ChimeHQ's MeterReporter: `PUT` to exactly the configured URL (the token in its query, since it
  /// sets no `Authorization`), its own content type, a fresh report id each time. Each of Meter's
  /// test payloads is answered 202 (delivered, to Meter), stored once however often it is sent, and a
  /// full store answers 503 with an integer Retry-After (Meter retries those; 507 it would delete).
  @Test func meterReporterIsAnsweredAsItUnderstands() async throws {
    guard let fixtures = TestDirectories.publicFixtures() else { return }
    let files = try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
      .filter { $0.hasPrefix("ChimeHQ__Meter__") }.sorted()
    #expect(files.count == 5)
    let payloads = try files.map { try [UInt8](Data(contentsOf: fixtures.appendingPathComponent($0))) }
    var bundles = Set<String>()
    for payload in payloads {
      let text = String(decoding: payload, as: UTF8.self)
      for match in text.matches(of: /"bundleIdentifier"\s*:\s*"([^"]*)"/) { bundles.insert(String(match.1)) }
    }
    let tokens = bundles.sorted().map { (token: "meter-\($0)", bundle: $0) }
    try await withTemporaryDirectoryAsync { dir in
      try await Self.withRoutes(dir, tokens: tokens) { client, service in
        for (file, payload) in zip(files, payloads) {
          let text = String(decoding: payload, as: UTF8.self)
          let bundle = text.firstMatch(of: /"bundleIdentifier"\s*:\s*"([^"]*)"/).map { String($0.1) } ?? Self.bundle
          let token = bundle == Self.bundle ? Self.token : "meter-\(bundle)"
          var ids: [[String]] = []
          for _ in 0..<2 {
            let headers: HTTPFields = [
              .contentType: "application/vnd.chimehq-mxdiagnostic",
              HTTPField.Name("MeterReporter-Report-Id")!: UUID().uuidString,
              HTTPField.Name("MeterReporter-Platform")!: "iOS",
            ]
            let (status, json, _) = try await Self.post(
              client, payload, method: .put, uri: "/v1/payloads?token=\(token)", headers: headers)
            #expect(status == 202, "\(file): \(json)")
            ids.append((json["stored"] as? [String] ?? []) + (json["duplicates"] as? [String] ?? []))
          }
          #expect(ids[0].count == 1 && ids[0] == ids[1], "\(file)")
        }
        #expect(
          service.store.counters.payloadsStored == files.count && service.store.counters.duplicates == files.count)
      }
      let full = dir.appendingPathComponent("full")
      try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
      try await Self.withRoutes(full, store: { $0.maximumStoreBytes = 100 }, tokens: tokens) {
        client, _ in
        let (status, _, headers) = try await Self.post(
          client, payloads[0], method: .put, uri: "/v1/payloads?token=\(Self.token)",
          headers: [.contentType: "application/vnd.chimehq-mxdiagnostic"])
        #expect(status == 503 && headers[.retryAfter].flatMap { Int($0) } != nil)
      }
    }
  }
}
