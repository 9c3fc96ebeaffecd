import Foundation
import MetricKitCollector
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `metrics-report collect`, the real server on 127.0.0.1: what it answers, and that what it stores
/// is the dump it was sent.
@Suite("collect", .serialized)
struct CollectCommandTests {
  static let token = "mrt_test_token"
  static let bundle = "com.example.shop"

  /// Starts the collector on `store` with the demo token, runs `body`, and stops it with SIGTERM.
  static func withCollector<T>(
    _ store: URL, arguments: [String] = [], _ body: (LocalServer) async throws -> T
  ) async throws -> T {
    let tokens = store.deletingLastPathComponent().appendingPathComponent("\(store.lastPathComponent).tokens")
    let made = try CLIRunner.run(["collect", "--new-token", bundle])
    #expect(made.stdout.hasPrefix("mrt_") && made.stdout.count == 4 + 64 + 1)
    // The tokens file's line alone on standard error, so that `2>> tokens.txt` makes a file it reads.
    #expect(made.stderr.hasPrefix("sha256:") && made.stderr.hasSuffix(" \(bundle)\n"))
    let line = try CLIRunner.shell("printf %s '\(token)' | sha256sum | cut -d' ' -f1").stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try "# demo\nsha256:\(line) \(bundle)\n".write(to: tokens, atomically: true, encoding: .utf8)
    let server = try await LocalServer(
      executable: CLIRunner.productsDirectory.appendingPathComponent("metrics-report").path, readyPath: "healthz"
    ) { port, _ in ["collect", store.path, "--tokens", tokens.path, "--port", "\(port)"] + arguments }
    defer { server.stop() }
    return try await body(server)
  }

  /// Posts `body` with the demo token (or `token`), gzip-compressed when `gzip`.
  static func post(
    _ server: LocalServer, _ body: Data, token: String? = CollectCommandTests.token, encoding: String? = nil
  ) async throws -> (Int, [String: Any], String?) {
    var request = URLRequest(url: server.base.appendingPathComponent("v1/payloads"))
    request.httpMethod = "POST"
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    if let encoding { request.setValue(encoding, forHTTPHeaderField: "Content-Encoding") }
    let (data, response) = try await URLSession.shared.upload(for: request, from: body)
    let http = response as! HTTPURLResponse
    let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    return (http.statusCode, json, http.value(forHTTPHeaderField: "Retry-After"))
  }

  /// Every payload id of the sealed segments under `store`, read here as the collector's restart
  /// reads them and more strictly still: member by member from each file's first byte to its last,
  /// each member's checksum, length and ids checked against its lines. Nil, and an issue recorded,
  /// when a file holds anything else.
  static func strictlyStoredIDs(_ store: URL) throws -> [PayloadID]? {
    var ids: [PayloadID] = []
    let files = FileManager.default.enumerator(atPath: store.path)?.compactMap { $0 as? String } ?? []
    for file in files where file.hasSuffix(".ndjson.gz") && !(file as NSString).lastPathComponent.hasPrefix(".") {
      let bytes = try [UInt8](Data(contentsOf: store.appendingPathComponent(file)))
      let read: [PayloadID]? = bytes.withUnsafeBytes { raw in
        var found: [PayloadID] = []
        var offset = 0
        while offset < raw.count {
          guard let (member, end) = try? SegmentMember.decode(at: offset, of: raw) else { return nil }
          found += member.ids
          offset = end
        }
        return found
      }
      guard let read else {
        Issue.record("\(file) is not whole members end to end")
        return nil
      }
      ids += read
    }
    return ids
  }

  static func gzip(_ data: Data) throws -> Data {
    try withTemporaryDirectory { dir in
      let file = dir.appendingPathComponent("body")
      try data.write(to: file)
      try #require(try CLIRunner.shell("gzip -f '\(file.path)'").status == 0)
      return try Data(contentsOf: file.appendingPathExtension("gz"))
    }
  }

  @Test func theSamplesPostedFileByFileSummarizeAsTheFilesDo() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let store = dir.appendingPathComponent("store")
      let samples = TestDirectories.packageRoot.appendingPathComponent("Samples/dump")
      let files = FileManager.default.enumerator(atPath: samples.path)!.compactMap { $0 as? String }
        .filter { $0.hasSuffix(".json") || $0.hasSuffix(".ndjson") || $0.hasSuffix(".gz") }.sorted()
      var statuses: [String: Int] = [:]
      try await Self.withCollector(store) { server in
        for (n, file) in files.enumerated() {
          let data = try Data(contentsOf: samples.appendingPathComponent(file))
          // Gzip files as they are, every other plain file gzip-compressed here; each sent twice, as a
          // retrying device does.
          let gzipped = file.hasSuffix(".gz") || n % 2 == 1
          let body = file.hasSuffix(".gz") || n % 2 == 0 ? data : try Self.gzip(data)
          let (status, receipt, _) = try await Self.post(server, body, encoding: gzipped ? "gzip" : nil)
          let (again, second, _) = try await Self.post(server, body, encoding: gzipped ? "gzip" : nil)
          statuses[file] = status
          if status == 202 {
            #expect(again == 202 && (second["stored"] as? [String])?.isEmpty == true, "\(file)")
            #expect((second["duplicates"] as? [String]) == (receipt["stored"] as? [String]), "\(file)")
          }
        }
      }
      #expect(statuses["malformed/unknown-unit.json"] == 400)
      #expect(files.filter { statuses[$0] == 202 }.count == files.count - 4)
      // No segment is left open after SIGTERM, and the store reads as the files do.
      let left = try CLIRunner.shell("find '\(store.path)' -name '.*.open'").stdout
      #expect(left.isEmpty, "\(left)")
      let fromStore = try CLIRunner.run(["summary", store.path, "--format", "json"])
      let fromFiles = try CLIRunner.run(["summary", samples.path, "--format", "json"])
      func versions(_ text: String) throws -> NSArray {
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        return json["versions"] as! NSArray
      }
      #expect(try versions(fromStore.stdout) == versions(fromFiles.stdout))
      #expect(try versions(fromStore.stdout).count == 3)
    }
  }

  @Test func answersSayWhatWasTakenAndWhy() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let store = dir.appendingPathComponent("store")
      try await Self.withCollector(store, arguments: ["--max-body-bytes", "4000"]) { server in
        let good =
          #"{"appVersion":"1.0","timeStampBegin":"2026-05-01 00:00:00","timeStampEnd":"2026-05-01 23:00:00","metaData":{"bundleIdentifier":"com.example.shop"},"cellularConditionMetrics":{"histogrammedCellularConditionTime":{"histogramNumBuckets":1,"histogramValue":{"0":{"bucketStart":"1 bars","bucketEnd":"1 bars","bucketCount":3}}}}}"#
        let bad =
          #"{"appVersion":"1.0","timeStampBegin":"2026-05-01 00:00:00","timeStampEnd":"2026-05-01 23:00:00","applicationTimeMetrics":{"cumulativeForegroundTime":"12 fortnights"}}"#
        let foreign = good.replacingOccurrences(of: "com.example.shop", with: "com.example.other")

        var (status, receipt, _) = try await Self.post(server, Data(good.utf8), token: nil)
        #expect(status == 401)
        (status, _, _) = try await Self.post(server, Data(good.utf8), token: "mrt_wrong")
        #expect(status == 401)
        (status, receipt, _) = try await Self.post(server, Data((good + "\n" + bad + "\n{oops\n").utf8))
        #expect(status == 202)
        #expect((receipt["stored"] as? [String])?.count == 1)
        let rejected = receipt["rejected"] as? [[String: Any]] ?? []
        #expect(rejected.map { $0["index"] as? Int } == [1, 2])
        #expect(
          rejected.first?["error"] as? String
            == "at applicationTimeMetrics.cumulativeForegroundTime: unknown unit \"fortnights\" in \"12 fortnights\"")
        (status, receipt, _) = try await Self.post(server, Data(bad.utf8))
        #expect(status == 400)
        (status, receipt, _) = try await Self.post(server, Data(foreign.utf8))
        #expect(status == 403)
        #expect(
          (receipt["rejected"] as? [[String: Any]])?.first?["error"] as? String
            == "bundle identifier 'com.example.other' is not this token's ('com.example.shop')")
        (status, _, _) = try await Self.post(server, Data(repeating: 0x20, count: 5000))
        #expect(status == 413)
        (status, _, _) = try await Self.post(server, Data(good.utf8), encoding: "br")
        #expect(status == 415)
        (status, receipt, _) = try await Self.post(server, Data(good.utf8), encoding: "gzip")
        #expect(status == 400 && (receipt["error"] as? String)?.hasPrefix("gzip body:") == true)

        let (metrics, response) = try await URLSession.shared.data(
          from: server.base.appendingPathComponent("metrics"))
        let text = String(decoding: metrics, as: UTF8.self)
        #expect(
          (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix(
            "application/openmetrics-text") == true)
        #expect(text.contains("collector_payloads_stored_total 1\n"))
        #expect(text.contains("collector_payloads_rejected_total{reason=\"decoding\"} 2\n"))
        #expect(text.contains("collector_payloads_rejected_total{reason=\"syntax\"} 1\n"))
        #expect(text.contains("collector_payloads_rejected_total{reason=\"bundle\"} 1\n"))
        #expect(text.contains("collector_requests_total{code=\"401\"} 2\n"))
        #expect(text.hasSuffix("# EOF\n"))
        // prometheus-client's OpenMetrics parser, which refuses what the format does not allow.
        let python = TestDirectories.packageRoot.appendingPathComponent(".build/venv/bin/python").path
        if FileManager.default.isExecutableFile(atPath: python) {
          let check = try CLIRunner.program(
            python,
            [
              "-c",
              "import sys; from prometheus_client.openmetrics.parser import text_string_to_metric_families as p; "
                + "print(len(list(p(sys.stdin.read()))))",
            ], input: metrics)
          #expect(check.status == 0 && check.stdout == "18\n", "\(check)")
        } else {
          print("note: .build/venv is absent (Scripts/bootstrap.sh --test); /metrics checked by its text only")
        }
      }
      let server = try CLIRunner.run(["collect", store.path, "--tokens", "/nonexistent"])
      #expect(server.status == 2 && server.stderr.contains("the tokens file /nonexistent: cannot be read"))
    }
  }

  /// `metrics-report collect` is the collector program beside it: its help, its arguments and its exit
  /// status; without the program, a message that says where it looked, and exit 2.
  @Test func collectRunsTheCollectorBesideTheCommand() throws {
    for arguments in [["collect", "--help"], ["help", "collect"]] {
      let help = try CLIRunner.run(arguments)
      #expect(help.status == 0 && help.stdout.contains("USAGE: metrics-report-collect"), "\(arguments): \(help)")
    }
    let refused = try CLIRunner.run(["collect", "--port", "70000", "store", "--tokens", "t"])
    #expect(refused.status == 64 && refused.stderr.contains("--port 70000 is not a port"), "\(refused)")
    try withTemporaryDirectory { dir in
      let alone = dir.appendingPathComponent("metrics-report")
      try FileManager.default.copyItem(
        at: CLIRunner.productsDirectory.appendingPathComponent("metrics-report"), to: alone)
      let missing = try CLIRunner.program(alone.path, ["collect", "store", "--tokens", "t"])
      #expect(missing.status == 2, "\(missing)")
      #expect(
        missing.stderr.contains(
          "there is none beside this program (\(dir.resolvingSymlinksInPath().path)/metrics-report-collect)")
          && missing.stderr.contains("swift build --product metrics-report-collect"), "\(missing.stderr)")
      // The analysis commands need nothing of it.
      let summary = try CLIRunner.program(
        alone.path, ["summary", TestDirectories.packageRoot.appendingPathComponent("Samples/dump").path])
      #expect(summary.status == 0 && summary.stdout.contains("Version 3.9.0"), "\(summary.stderr)")
    }
  }

  @Test func twoCollectorsShareOneFolderWithoutCoordination() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let store = dir.appendingPathComponent("store")
      func payload(_ n: Int) -> Data {
        Data(
          #"{"appVersion":"2.0","timeStampBegin":"2026-05-01 00:00:00","timeStampEnd":"2026-05-01 23:00:00","metaData":{"bundleIdentifier":"com.example.shop"},"applicationLaunchMetrics":{"histogrammedTimeToFirstDrawKey":{"histogramValue":{"0":{"bucketStart":"\#(100 + n) ms","bucketEnd":"\#(110 + n) ms","bucketCount":1}}}}}"#
            .utf8)
      }
      try await Self.withCollector(store, arguments: ["--instance", "a"]) { a in
        // A second process with a name already running on the folder refuses to start.
        let same = try CLIRunner.run(
          ["collect", store.path, "--tokens", store.path + ".tokens", "--port", "0", "--instance", "a"])
        #expect(same.status == 2 && same.stderr.contains("another collector named 'a' is running"), "\(same.stderr)")
        try await Self.withCollector(store, arguments: ["--instance", "b"]) { b in
          for n in 0..<20 {
            let (status, _, _) = try await Self.post(n % 2 == 0 ? a : b, payload(n))
            #expect(status == 202)
          }
        }
      }
      let names = try CLIRunner.shell("cd '\(store.path)' && find . -type f | sort").stdout
      #expect(
        names.contains("-a-") == false && names.contains("/a-00000000.ndjson.gz")
          && names.contains("/b-00000000.ndjson.gz"), "\(names)")
      let plain = try CLIRunner.run(["summary", store.path, "--format", "json"])
      let versions = try plain.json()["versions"] as? [[String: Any]] ?? []
      #expect(versions.map { $0["payloads"] as? Int } == [20])
      // The cache reads both instances' segments as one dump: cold, then warm, the same bytes.
      let cache = dir.appendingPathComponent("cache").path
      for run in ["cold", "warm"] {
        let cached = try CLIRunner.run(["summary", store.path, "--format", "json", "--cache", cache])
        #expect(cached.status == 0 && cached.stdout == plain.stdout, "\(run): \(cached.stderr)")
      }
    }
  }

  /// What a slow, greedy or impatient client and an operator do (Scripts/collector-abuse.py): the
  /// connection cap, idle and half-sent heads closed, a trickling body answered 408, `100 Continue`
  /// at once, tokens read again on SIGHUP, and a stop that answers what is under way (`Connection:
  /// close`, 503 past the shutdown deadline) and exits 0.
  @Test func slowGreedyAndImpatientClientsAndAnOperatorsSignals() throws {
    try withTemporaryDirectory { dir in
      let r = try CLIRunner.shell(#"python3 Scripts/collector-abuse.py "$C" '\#(dir.path)/store'"#)
      #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
      #expect(r.stdout.contains("\"problems\": []"), "\(r.stdout)")
    }
  }

  /// Load with faults: concurrent posts, malformed payloads and retries, the server killed with
  /// SIGKILL twice and started again; every acknowledged payload stored exactly once.
  @Test func killedAndRestartedUnderLoadItLosesAndRepeatsNothing() throws {
    try withTemporaryDirectory { dir in
      let r = try CLIRunner.shell(
        """
        python3 Scripts/collector-load.py "$C" '\(dir.path)/store' --payloads 3000 --connections 16 --kills 2 --seed 5
        """)
      #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
      #expect(r.stdout.contains("\"problems\": []"), "\(r.stdout)")
      // Reconciled here too, by the collector's own reader: as many payloads as the script found
      // stored, each once.
      let figures = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
      let ids = try #require(try Self.strictlyStoredIDs(dir.appendingPathComponent("store")))
      #expect(ids.count == figures["stored"] as? Int && Set(ids).count == ids.count)
    }
  }

  /// Two collectors on one folder, `load` and `load-2` (one name the other's start), each killed at
  /// random and started again under load: every acknowledged payload stored once, each segment read
  /// member by member end to end.
  @Test func twoInstancesKilledUnderLoadLoseAndRepeatNothing() throws {
    try withTemporaryDirectory { dir in
      let r = try CLIRunner.shell(
        """
        python3 Scripts/collector-load.py "$C" '\(dir.path)/store' --payloads 3000 --connections 16 --kills 4 \
          --instances 2 --seed 9
        """)
      #expect(r.status == 0 && r.stdout.contains("\"problems\": []"), "\(r.stdout) \(r.stderr)")
      let figures = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
      let ids = try #require(try Self.strictlyStoredIDs(dir.appendingPathComponent("store")))
      #expect(ids.count == figures["stored"] as? Int && Set(ids).count == ids.count)
    }
  }

  /// A disk that fills up for real (a tmpfs of 400 kB, where this machine lets the test mount one):
  /// the collector answers 503 "out of space" while the disk is full, and once it has room (the
  /// tmpfs grown under it, no restart, then a kill and a start), every payload turned away is stored,
  /// once, nothing acknowledged is lost, and every segment reads member by member end to end.
  @Test func aFullDiskAnswers503AndLosesNothingOnceThereIsRoom() throws {
    try withTemporaryDirectory { dir in
      let disk = dir.appendingPathComponent("disk").path
      try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
      let mounted = try CLIRunner.shell("mount -t tmpfs -o size=400k tmpfs '\(disk)' 2>&1")
      guard mounted.status == 0 else {
        print(
          "note: cannot mount a tmpfs here (\(mounted.stdout.trimmingCharacters(in: .whitespacesAndNewlines))); skipping the full-disk test"
        )
        return
      }
      defer { _ = try? CLIRunner.shell("umount '\(disk)'") }
      let r = try CLIRunner.shell(
        """
        python3 Scripts/collector-load.py "$C" '\(disk)/store' --payloads 8000 --connections 50 --kills 1 \
          --seed 13 --free "mount -o remount,size=64m '\(disk)'" --kill-after-free
        """)
      #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
      let figures = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
      let retries = figures["retries"] as? [String: Int] ?? [:]
      #expect((retries["full"] ?? 0) > 0 && figures["stored"] as? Int == figures["valid"] as? Int, "\(r.stdout)")
      #expect(figures["problems"] as? [String] == [], "\(r.stdout)")
    }
  }

  /// A store that fills up: batches are answered 503 "out of space" and sent again; once the
  /// collector is started with room, every one of them is stored, once, and nothing acknowledged
  /// before is lost.
  @Test func aFullStoreAnswers503AndLosesNothingOnceThereIsRoom() throws {
    try withTemporaryDirectory { dir in
      let r = try CLIRunner.shell(
        """
        python3 Scripts/collector-load.py "$C" '\(dir.path)/store' --payloads 2000 --connections 8 --kills 1 \
          --max-store-bytes 60000 --seed 7
        """)
      #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
      let figures = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
      let retries = figures["retries"] as? [String: Int] ?? [:]
      #expect((retries["full"] ?? 0) > 0 && figures["stored"] as? Int == figures["valid"] as? Int, "\(r.stdout)")
      #expect(figures["problems"] as? [String] == [], "\(r.stdout)")
    }
  }
}
