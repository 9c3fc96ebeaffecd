import Foundation
import MetricKitUploader
import Synchronization
import TestSupport
import Testing

/// The app's uploader against the real `metrics-report collect`: a day of payloads delivered once,
/// whatever the collector answers on the way.
@Suite("Uploader", .serialized)
struct UploaderTests {
  /// The sample dump's files that hold one payload object each, and the malformed ones.
  static func samplePayloads() throws -> (valid: [URL], malformed: [URL]) {
    let samples = TestDirectories.packageRoot.appendingPathComponent("Samples/dump")
    let files = FileManager.default.enumerator(atPath: samples.path)!.compactMap { $0 as? String }
      .filter { $0.hasSuffix(".json") }.sorted().map { samples.appendingPathComponent($0) }
    let valid = try files.filter {
      try $0.path.contains("/v3.") && String(decoding: Data(contentsOf: $0), as: UTF8.self).first == "{"
    }
    return (valid, files.filter { $0.path.contains("/malformed/") && $0.lastPathComponent != "empty.json" })
  }

  @Test func aDayThroughTheUploaderSummarizesAsTheSameFiles() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let (valid, malformed) = try Self.samplePayloads()
      #expect(valid.count > 40 && malformed.count == 3)
      let files = dir.appendingPathComponent("files")
      try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
      let queue = try UploadQueue(folder: dir.appendingPathComponent("queue"))
      for (n, file) in (valid + malformed).enumerated() {
        let data = try Data(contentsOf: file)
        try queue.enqueue(data)
        if valid.contains(file) { try data.write(to: files.appendingPathComponent("\(n).json")) }
      }
      // A file the queue cannot read is set aside with the refused, not sent, and holds nothing up.
      try FileManager.default.createDirectory(
        at: queue.folder.appendingPathComponent("0-unreadable.json"), withIntermediateDirectories: false)
      let store = dir.appendingPathComponent("store")
      let outcome = try await CollectCommandTests.withCollector(store) { server in
        var configuration = Uploader.Configuration(endpoint: server.base, token: CollectCommandTests.token)
        configuration.batchSize = 7
        return try await Uploader(queue: queue, configuration: configuration).drain()
      }
      #expect(outcome == .init(delivered: valid.count, refused: malformed.count + 1, waiting: 0, retries: 0))
      #expect(try queue.pending().isEmpty)
      // Each set aside with its reason beside it.
      let refused = try FileManager.default.contentsOfDirectory(atPath: queue.refusedFolder.path)
      #expect(refused.filter { !$0.hasSuffix(".reason.txt") }.count == malformed.count + 1)
      #expect(refused.filter { $0.hasSuffix(".reason.txt") }.count == malformed.count + 1)
      func versions(_ path: URL) throws -> NSArray {
        let text = try CLIRunner.run(["summary", path.path, "--format", "json"]).stdout
        return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any])["versions"] as! NSArray
      }
      #expect(try versions(store) == versions(files))
      #expect(try versions(store).count == 3)
    }
  }

  @Test func aCollectorThatIsDownOrFullIsWaitedOutAndNothingIsLost() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let (valid, _) = try Self.samplePayloads()
      let queue = try UploadQueue(folder: dir.appendingPathComponent("queue"))
      for file in valid.prefix(10) { try queue.enqueue(try Data(contentsOf: file)) }
      let waits = Mutex<[Double]>([])
      let record: @Sendable (Double) async -> Void = { seconds in waits.withLock { $0.append(seconds) } }

      // Nobody listens: every attempt fails, with waits that double (full jitter: within each bound).
      var down = Uploader.Configuration(
        endpoint: URL(string: "http://127.0.0.1:\(try LocalServer.freePort())")!, token: "t")
      down.maximumAttempts = 4
      let nobody = try await Uploader(queue: queue, configuration: down, sleep: record).drain()
      #expect(nobody == .init(delivered: 0, refused: 0, waiting: 10, retries: 4))
      let backoffs = waits.withLock { $0 }
      #expect(backoffs.count == 3)
      for (k, wait) in backoffs.enumerated() { #expect((pow(2, Double(k)) / 2...pow(2, Double(k))).contains(wait)) }

      // A full collector answers 503 with Retry-After: the uploader waits as told, and loses nothing.
      let store = dir.appendingPathComponent("store")
      waits.withLock { $0 = [] }
      try await CollectCommandTests.withCollector(store, arguments: ["--max-store-bytes", "10"]) { server in
        var full = Uploader.Configuration(endpoint: server.base, token: CollectCommandTests.token)
        full.maximumAttempts = 2
        let outcome = try await Uploader(queue: queue, configuration: full, sleep: record).drain()
        #expect(outcome == .init(delivered: 0, refused: 0, waiting: 10, retries: 2))
      }
      #expect(waits.withLock { $0 } == [60])
      // Room again: everything goes, once.
      try await CollectCommandTests.withCollector(store) { server in
        let outcome = try await Uploader(
          queue: queue, configuration: .init(endpoint: server.base, token: CollectCommandTests.token), sleep: record
        ).drain()
        #expect(outcome == .init(delivered: 10, refused: 0, waiting: 0, retries: 0))
      }
    }
  }
}
