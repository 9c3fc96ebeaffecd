import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MetricKitAnalysis
import NIOCore
import Synchronization
import TestSupport
import Testing

@testable import MetricKitUploader

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The uploader against answers a real collector never gives but a proxy, a broken server or a
/// hostile one does: a file is deleted only when a receipt names its id, a batch too large is split
/// down to one payload, and no `Retry-After` makes the app wait past its bound or crash.
@Suite("Uploader answers", .serialized)
struct UploaderAnswerTests {
  /// One request as the scripted server saw it: its payloads' ids, in order.
  typealias Request = [PayloadID]
  /// What the scripted server answers a request.
  typealias Script = @Sendable (_ n: Int, _ ids: Request) -> (status: Int, headers: [String: String], body: String)

  /// Runs `body` with an uploader of a queue in `dir` holding `payloads`, against a live server
  /// that answers as `script` says; returns what `body` returned and every request the server saw.
  static func withServer<T: Sendable>(
    _ dir: URL, payloads: [Data], script: @escaping Script,
    configure: @escaping @Sendable (inout Uploader.Configuration) -> Void = { _ in },
    _ body: @escaping @Sendable (Uploader, UploadQueue) async throws -> T
  ) async throws -> (T, [Request]) {
    let seen = Mutex<[Request]>([])
    let router = Router()
    router.post("v1/payloads") { request, _ -> Response in
      let raw = try await request.body.collect(upTo: 1 << 24)
      let lines = try Array(raw.readableBytesView).withUnsafeBytes { try GzipDecompressor.inflated($0, limit: 1 << 26) }
      let ids = lines.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { PayloadID(of: $0) }
      let n = seen.withLock {
        $0.append(ids)
        return $0.count - 1
      }
      let (status, headers, text) = script(n, ids)
      var fields: HTTPFields = [:]
      for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
      return Response(
        status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
    let queue = try UploadQueue(folder: dir.appendingPathComponent("queue"))
    for payload in payloads { try queue.enqueue(payload) }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    let result = try await app.test(.live) { client in
      var configuration = Uploader.Configuration(
        endpoint: URL(string: "http://127.0.0.1:\(client.port!)")!, token: "mrt_test")
      configuration.maximumAttempts = 3
      configure(&configuration)
      let uploader = Uploader(queue: queue, configuration: configuration, sleep: { _ in })
      return try await body(uploader, queue)
    }
    return (result, seen.withLock { $0 })
  }

  static func payload(_ n: Int) -> Data { Data(SegmentStoreTests.line(n, bundle: "com.example.app")) }

  static func id(_ data: Data) throws -> PayloadID { PayloadID(of: try CanonicalJSON.canonical([UInt8](data)).get()) }

  static func receipt(stored: [PayloadID], duplicates: [PayloadID] = [], rejected: [(Int, String)] = []) -> String {
    let list = { (ids: [PayloadID]) in ids.map { "\"\($0)\"" }.joined(separator: ",") }
    let refusals = rejected.map { "{\"index\":\($0.0),\"error\":\"\($0.1)\"}" }.joined(separator: ",")
    return "{\"stored\":[\(list(stored))],\"duplicates\":[\(list(duplicates))],\"rejected\":[\(refusals)]}"
  }

  /// A `202` with an empty body (what some proxies send) deletes nothing; a receipt deletes exactly
  /// the ids it lists as stored or duplicates, and sets aside exactly the documents it refuses.
  @Test func onlyTheIDsAReceiptListsAreDeleted() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let payloads = (0..<3).map(Self.payload)
      let ids = try payloads.map(Self.id)
      let (outcome, requests) = try await Self.withServer(
        dir, payloads: payloads,
        script: { n, sent in
          switch n {
          case 0: (202, [:], "")
          case 1: (202, ["Content-Type": "text/html"], "<html>accepted</html>")
          default:
            // The first stored, the second stored before, the third refused.
            (202, [:], Self.receipt(stored: [sent[0]], duplicates: [sent[1]], rejected: [(2, "at x: bad")]))
          }
        }
      ) { uploader, queue in
        let outcome = try await uploader.drain()
        #expect(try queue.pending().isEmpty)
        return outcome
      }
      #expect(requests.count == 3 && requests.allSatisfy { Set($0) == Set(ids) })
      #expect(outcome == .init(delivered: 2, refused: 1, waiting: 0, retries: 2))
      let refused = try FileManager.default.contentsOfDirectory(
        atPath: dir.appendingPathComponent("queue/refused").path)
      let reason = try String(
        contentsOfFile: dir.appendingPathComponent("queue/refused").appendingPathComponent(
          refused.first { $0.hasSuffix(".reason.txt") }!
        ).path, encoding: .utf8)
      #expect(refused.count == 2 && reason == "refused by the collector: at x: bad\n")
    }
  }

  /// A blank queue file and one holding a JSON array are set aside before anything is sent, with
  /// their reasons, and shift nothing: the payloads after them are sent, each under its own id.
  @Test func filesThatAreNoPayloadAreSetAsideAndShiftNothing() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let payloads = [Data("  \n".utf8), Data("[1,2]".utf8), Self.payload(0), Self.payload(1)]
      let (outcome, requests) = try await Self.withServer(
        dir, payloads: payloads,
        script: { _, sent in
          (202, [:], Self.receipt(stored: sent))
        }
      ) { uploader, _ in try await uploader.drain() }
      #expect(outcome == .init(delivered: 2, refused: 2, waiting: 0, retries: 0))
      #expect(try requests.map(Set.init) == [Set([Self.id(payloads[2]), Self.id(payloads[3])])])
    }
  }

  /// `413` splits the batch in halves down to one payload; the one still too large alone is set
  /// aside with its reason, every other is delivered.
  @Test func aBatchTooLargeIsSplitAndTheOneTooLargeAloneIsSetAside() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let payloads = (0..<8).map(Self.payload)
      let huge = try Self.id(payloads[5])
      let (outcome, requests) = try await Self.withServer(
        dir, payloads: payloads,
        script: { _, sent in
          sent.contains(huge) || sent.count > 4
            ? (413, [:], "{\"error\":\"too large\"}") : (202, [:], Self.receipt(stored: sent))
        }, configure: { $0.batchSize = 8 }
      ) { uploader, _ in try await uploader.drain() }
      #expect(outcome == .init(delivered: 7, refused: 1, waiting: 0, retries: 0))
      // Halves, depth first: the huge one's batches are 8, 4, 2 and 1 long; each other half passes.
      #expect(requests.count == 7 && requests.filter { $0.contains(huge) }.map(\.count) == [8, 4, 2, 1])
    }
  }

  /// A `400` or `403` without a receipt (a proxy's page, or a body that did not inflate) is no verdict
  /// on the payloads: nothing is set aside, and the request is tried again.
  @Test func aRefusalWithoutAReceiptIsRetriedNotSetAside() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let payloads = (0..<2).map(Self.payload)
      let (outcome, _) = try await Self.withServer(
        dir, payloads: payloads,
        script: { n, sent in
          n < 2
            ? (n == 0 ? 400 : 403, [:], "{\"error\":\"gzip body: corrupt\"}") : (202, [:], Self.receipt(stored: sent))
        }
      ) { uploader, _ in try await uploader.drain() }
      #expect(outcome == .init(delivered: 2, refused: 0, waiting: 0, retries: 2))
    }
  }

  /// `Retry-After` as a number of seconds (finite, not negative) or an HTTP date; `inf`, `-1`,
  /// `1e11` or text never trap, and no wait passes the longest backoff.
  @Test func retryAfterIsReadSafelyAndBounded() async throws {
    let now = Date(timeIntervalSince1970: 1_780_000_000)
    #expect(Uploader.retryAfter("120", now: now) == 120)
    #expect(Uploader.retryAfter(" 1.5 ", now: now) == 1.5)
    for bad in ["inf", "-1", "nan", "soon", "", "-inf"] { #expect(Uploader.retryAfter(bad, now: now) == nil, "\(bad)") }
    #expect(Uploader.retryAfter("1e11", now: now) == 1e11)
    // An HTTP date (RFC 9110's preferred form) 90 s from now; one in the past is no wait.
    #expect(Uploader.retryAfter("Thu, 28 May 2026 20:28:10 GMT", now: Date(timeIntervalSince1970: 1_780_000_000)) == 90)
    #expect(Uploader.retryAfter("Thu, 01 Jan 1970 00:00:00 GMT", now: now) == 0)
    try await withTemporaryDirectoryAsync { dir in
      let waits = Mutex<[Double]>([])
      let payloads = [Self.payload(0)]
      let values = ["inf", "-1", "1e11", "Thu, 01 Jan 2099 00:00:00 GMT"]
      let (outcome, _) = try await Self.withServer(
        dir, payloads: payloads,
        script: { n, sent in
          n < values.count ? (503, ["Retry-After": values[n]], "") : (202, [:], Self.receipt(stored: sent))
        },
        configure: {
          $0.maximumAttempts = 10
          $0.maximumBackoff = 300
        }
      ) { uploader, queue in
        let recording = Uploader(
          queue: queue, configuration: uploader.configuration, sleep: { s in waits.withLock { $0.append(s) } })
        return try await recording.drain()
      }
      #expect(outcome.delivered == 1 && outcome.retries == 4)
      let recorded = waits.withLock { $0 }
      #expect(recorded.count == 4 && recorded.allSatisfy { $0 >= 0 && $0 <= 300 }, "\(recorded)")
      #expect(recorded[2] == 300 && recorded[3] == 300)
    }
  }
}
