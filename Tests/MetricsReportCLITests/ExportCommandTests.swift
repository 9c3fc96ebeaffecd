import Foundation
import PayloadSynthesis
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `metrics-report export` and `compare --format openmetrics`, checked by the real consumers:
/// promtool, a Prometheus server over a backfilled TSDB, a Pushgateway, the opentelemetry-proto
/// parser and a JSON Schema of Datadog's v2 series body. Each component skips with a notice where it
/// is absent (`Scripts/bootstrap.sh --test` installs them all).
@Suite("metrics-report export", .serialized)
struct ExportCommandTests {
  static let launch = "applicationLaunchMetrics.histogrammedTimeToFirstDraw"
  /// The golden exports' metrics: a histogram, a scalar, a rate and the signposts.
  static let goldenMetrics = [
    "--metric", launch, "--metric", "memoryMetrics.peakMemoryUsage", "--metric", "hangRate", "--metric", "signpost:*",
  ]

  static func tool(_ name: String, flag: String) -> String? {
    guard let path = LocalServer.executable(name) else {
      print("skipped: \(name) is not installed (Scripts/bootstrap.sh \(flag) installs it)")
      return nil
    }
    return path
  }

  /// The virtual environment's Python with opentelemetry-proto and jsonschema.
  static func python() -> String? {
    let path = TestDirectories.packageRoot.appendingPathComponent(".build/venv/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: path) else {
      print("skipped: .build/venv is missing (Scripts/bootstrap.sh --otlp creates it)")
      return nil
    }
    return path
  }

  /// Runs a program; status and both outputs.
  static func run(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> CLIRunner.Result {
    try CLIRunner.program(executable, arguments, input: input)
  }

  @Test func goldenFilesPerFormat() throws {
    for (format, file) in [
      ("openmetrics", "samples-export.om"), ("datadog", "samples-export-datadog.json"),
      ("otlp-json", "samples-export-otlp.json"),
    ] {
      let result = try CLIRunner.run(["export", "Samples/dump", "--to", format] + Self.goldenMetrics)
      #expect(result.status == 0, "\(result.stderr)")
      try CLIRunner.expectGolden(result.stdout, file)
      // The same bytes on one thread as on several.
      let one = try CLIRunner.run(["export", "Samples/dump", "--to", format, "--threads", "1"] + Self.goldenMetrics)
      #expect(one.stdout == result.stdout)
    }
    let gate = try CLIRunner.run([
      "compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "openmetrics",
    ])
    #expect(gate.status == 1)
    try CLIRunner.expectGolden(gate.stdout, "samples-gate.om")
  }

  @Test func groupsBeyondTopMergeIntoOtherWithoutLosingPayloads() throws {
    let whole = PrometheusText.samples(
      try CLIRunner.run(["export", "Samples/dump", "--to", "openmetrics", "--metric", "memoryMetrics.peakMemoryUsage"])
        .stdout)
    let split = PrometheusText.samples(
      try CLIRunner.run([
        "export", "Samples/dump", "--to", "openmetrics", "--metric", "memoryMetrics.peakMemoryUsage", "--by",
        "deviceType", "--top", "1",
      ]).stdout)
    for version in ["3.8.0", "3.9.0", "3.10.0"] {
      let counts = split.filter {
        $0.name == "metrickit_memory_peak_memory_usage_bytes_count" && $0.labels["app_version"] == version
      }
      #expect(counts.count == 2 && counts.contains { $0.labels["device_type"] == "(other)" })
      let total = whole.first {
        $0.name == "metrickit_memory_peak_memory_usage_bytes_count" && $0.labels["app_version"] == version
      }
      #expect(counts.reduce(0) { $0 + $1.value } == total?.value)
    }
  }

  /// A dump whose version and signpost names hold every character the formats escape.
  static let hostileVersion = "9.9 \"quoted\" back\\slash } {x=\"y\"}\nnext line\u{7}é"
  static let hostileSignpost = "Load\"Feed\\ }\nafter"

  static func hostileDump() throws -> URL {
    let dir = try TestDirectories.makeTemporary()
    var evil = VersionProfile.standard[1]
    evil.version = "HOSTILE"
    _ = try SampleDump.write(to: dir, seed: 9, payloadsPerVersion: 20, profiles: [evil], malformed: false)
    let files = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard ["json", "ndjson"].contains(file.pathExtension) else {
        if file.pathExtension == "gz" { try FileManager.default.removeItem(at: file) }
        continue
      }
      let text = try String(contentsOf: file, encoding: .utf8)
      try text.replacingOccurrences(of: "\"HOSTILE\"", with: JSONQuoted.of(hostileVersion))
        .replacingOccurrences(of: "\"LoadFeed\"", with: JSONQuoted.of(hostileSignpost))
        .write(to: file, atomically: true, encoding: .utf8)
    }
    return dir
  }

  @Test func promtoolAcceptsEveryExpositionAndHostileLabelsReadBackIdentical() async throws {
    guard let promtool = Self.tool("promtool", flag: "--prometheus") else { return }
    for arguments in [
      ["export", "Samples/dump", "--to", "openmetrics"],
      ["export", "Samples/dump", "--to", "openmetrics", "--interval", "day"],
      ["export", "Samples/dump", "--to", "openmetrics", "--interval", "week", "--by", "deviceType"],
      ["compare", "Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "openmetrics"],
    ] {
      let exposition = try CLIRunner.run(arguments)
      #expect(exposition.stdout.hasSuffix("# EOF\n"))
      let check = try Self.run(promtool, ["check", "metrics"], input: Data(exposition.stdout.utf8))
      #expect(
        check.status == 0 && check.stdout.isEmpty && check.stderr.isEmpty,
        "\(arguments): \(check.stdout)\(check.stderr)")
    }

    let dir = try Self.hostileDump()
    defer { try? FileManager.default.removeItem(at: dir) }
    let hostile = try CLIRunner.run(["export", dir.path, "--to", "openmetrics"])
    #expect(hostile.status == 0, "\(hostile.stderr)")
    let check = try Self.run(promtool, ["check", "metrics"], input: Data(hostile.stdout.utf8))
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

    // Pushed to a Pushgateway and scraped back, the labels are the strings of the payloads.
    guard let pushgateway = Self.tool("prometheus-pushgateway", flag: "--prometheus") else { return }
    let server = try await Self.pushgateway(pushgateway)
    defer { server.stop() }
    #expect(try await server.put("metrics/job/hostile", body: Data(hostile.stdout.utf8)) == 200)
    let scraped = PrometheusText.samples(try await server.get("metrics"))
    let versions = Set(scraped.compactMap { $0.labels["app_version"] })
    #expect(versions == [Self.hostileVersion])
    let signposts = Set(scraped.compactMap { $0.labels["signpost_name"] })
    #expect(signposts.contains(Self.hostileSignpost))
  }

  /// A Pushgateway with its own persistence file (Debian's build persists to /var/lib/prometheus by
  /// default, which would carry pushes from one test run to the next).
  static func pushgateway(_ executable: String) async throws -> LocalServer {
    try await LocalServer(executable: executable, readyPath: "-/ready") { port, scratch in
      [
        "--web.listen-address=127.0.0.1:\(port)",
        "--persistence.file=\(scratch.appendingPathComponent("pushgateway.state").path)",
        "--persistence.interval=1h",
      ]
    }
  }

  @Test func pushgatewayServesTheExpositionBackValueForValue() async throws {
    guard let pushgateway = Self.tool("prometheus-pushgateway", flag: "--prometheus") else { return }
    let exposition = try CLIRunner.run(["export", "Samples/dump", "--to", "openmetrics", "--by", "deviceType"])
    #expect(exposition.status == 0)
    let server = try await Self.pushgateway(pushgateway)
    defer { server.stop() }
    #expect(try await server.put("metrics/job/metrics-report", body: Data(exposition.stdout.utf8)) == 200)
    let pushed = PrometheusText.samples(exposition.stdout)
    let scraped = PrometheusText.samples(try await server.get("metrics")).filter { $0.name.hasPrefix("metrickit_") }
    #expect(pushed.count > 500)
    func key(_ s: PrometheusText.Sample) -> String {
      s.name + s.labels.filter { $0.key != "job" && $0.key != "instance" }.sorted { $0.key < $1.key }.description
    }
    let back = Dictionary(scraped.map { (key($0), $0.value) }, uniquingKeysWith: { a, _ in a })
    #expect(back.count == pushed.count)
    for sample in pushed { #expect(back[key(sample)] == sample.value, "\(key(sample))") }
    // Stopped, the Pushgateway persists what it holds: into the server's scratch directory, removed.
    server.stop()
    #expect(!FileManager.default.fileExists(atPath: server.scratch.path))
  }

  @Test func backfilledDaysReadBackFromPrometheusAsTrendPrintsThem() async throws {
    guard let promtool = Self.tool("promtool", flag: "--prometheus"),
      let prometheus = Self.tool("prometheus", flag: "--prometheus")
    else { return }
    try await withTemporaryDirectoryAsync { dir in
      let file = dir.appendingPathComponent("m.om")
      let export = try CLIRunner.run([
        "export", "Samples/dump", "--to", "openmetrics", "--interval", "day", "-o", file.path,
      ])
      #expect(export.status == 0)
      let blocks = try Self.run(
        promtool, ["tsdb", "create-blocks-from", "openmetrics", file.path, dir.appendingPathComponent("tsdb").path])
      #expect(blocks.status == 0, "\(blocks.stderr)")
      try Data("global:\n  scrape_interval: 1h\n".utf8).write(to: dir.appendingPathComponent("prometheus.yml"))
      let server = try await LocalServer(executable: prometheus, readyPath: "-/ready") { port, _ in
        [
          "--config.file=\(dir.appendingPathComponent("prometheus.yml").path)",
          "--storage.tsdb.path=\(dir.appendingPathComponent("tsdb").path)", "--storage.tsdb.retention.time=100y",
          "--web.listen-address=127.0.0.1:\(port)",
        ]
      }
      defer { server.stop() }

      // trend's p90 per version and day, in seconds.
      let trend = try CLIRunner.run([
        "trend", "Samples/dump", "--metric", Self.launch, "--statistic", "p90", "--interval", "day", "--format", "json",
      ]).json()
      let series = try #require(trend["series"] as? [[String: Any]])
      // The bucket ends of each version and day, from the exposition.
      let buckets = PrometheusText.samples(try String(contentsOf: file, encoding: .utf8)).filter {
        $0.name == "metrickit_app_launch_time_to_first_draw_distribution_seconds_bucket"
      }
      var checked = 0
      for s in series {
        let version = try #require(s["version"] as? String)
        let points = try #require(s["points"] as? [[String: Any]])
        let days = points.compactMap { ($0["start"] as? String).flatMap(Self.daysSinceEpoch) }
        let first = (days.min() ?? 0) * 86_400 + 86_399
        let last = (days.max() ?? 0) * 86_400 + 86_399
        func query(_ q: String) async throws -> [Int: Double] {
          let text = try await server.get(
            "api/v1/query_range", query: ["query": q, "start": "\(first)", "end": "\(last)", "step": "86400"])
          let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
          let result = ((json?["data"] as? [String: Any])?["result"] as? [[String: Any]])?.first
          var out: [Int: Double] = [:]
          for pair in result?["values"] as? [[Any]] ?? [] {
            if let t = pair[0] as? Double ?? (pair[0] as? Int).map({ Double($0) }),
              let v = (pair[1] as? String).flatMap({ Double($0) })
            {
              out[Int(t)] = v
            }
          }
          return out
        }
        let summary = try await query(
          "metrickit_app_launch_time_to_first_draw_seconds{quantile=\"0.9\",app_version=\"\(version)\"}")
        let interpolated = try await query(
          "histogram_quantile(0.9, metrickit_app_launch_time_to_first_draw_distribution_seconds_bucket{app_version=\"\(version)\"})"
        )
        #expect(summary.count == points.count, "\(version): \(summary.count) of \(points.count) days")
        for point in points {
          guard let day = (point["start"] as? String).flatMap(Self.daysSinceEpoch), let p90 = point["p90"] as? Double
          else { continue }
          let t = day * 86_400 + 86_399
          // The summary quantile is trend's number (to the last bit but one: JSONSerialization, which
          // read trend's JSON here, may round a parsed double's last bit).
          #expect(
            summary[t].map { abs($0 - p90 / 1000) <= 2 * (p90 / 1000).ulp } == true,
            "\(version) \(point["start"] ?? "")")
          // Prometheus' own interpolation lands in the exported bucket that ends at trend's guaranteed
          // upper bound of the p90: the first edge with at least ⌈0.9·n⌉ samples surely below it. With
          // disjoint buckets that is the bucket holding the p90; where layouts of different widths
          // overlap, each bucket counts at its end, so the edge is still that sure bound.
          let ends = buckets.filter { $0.labels["app_version"] == version && $0.timestamp == t }
            .compactMap { Double($0.labels["le"] ?? "") }.filter(\.isFinite).sorted()
          guard let value = interpolated[t], let bracket = (point["bounds"] as? [String: [Double]])?["p90"],
            let upper = ends.first(where: { $0 >= bracket[1] / 1000 - 1e-12 })
          else {
            Issue.record("\(version) \(t): no histogram_quantile, bracket or bucket")
            continue
          }
          let lower = ends.last { $0 < upper } ?? 0
          #expect(abs(upper - bracket[1] / 1000) < 1e-12)
          #expect(
            value >= lower - 1e-12 && value <= upper + 1e-12, "\(version) \(t): \(value) outside (\(lower), \(upper)]")
          checked += 1
        }
      }
      #expect(checked > 100)
    }
  }

  static func daysSinceEpoch(_ text: String) -> Int? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.date(from: text).map { Int($0.timeIntervalSince1970) / 86_400 }
  }

  @Test func otlpParsesAsAnExportMetricsServiceRequestAndBucketsAddUp() throws {
    guard let python = Self.python() else { return }
    let dir = try Self.hostileDump()
    defer { try? FileManager.default.removeItem(at: dir) }
    for (source, interval) in [("Samples/dump", "day"), ("Samples/dump", "none"), (dir.path, "none")] {
      let otlp = try CLIRunner.run([
        "export", source, "--to", "otlp-json", "--interval", interval, "--service-name", "com.example.app",
      ])
      #expect(otlp.status == 0, "\(otlp.stderr)")
      let script = """
        import json, sys
        from google.protobuf import json_format
        from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
        request = json_format.Parse(sys.stdin.read(), ExportMetricsServiceRequest())
        out = {"resources": [], "histogramPoints": 0, "mismatches": 0, "versions": []}
        for rm in request.resource_metrics:
          attributes = {a.key: a.value.string_value for a in rm.resource.attributes}
          out["resources"].append(attributes["service.name"])
          out["versions"].append(attributes["service.version"])
          for sm in rm.scope_metrics:
            for m in sm.metrics:
              if m.HasField("histogram"):
                for p in m.histogram.data_points:
                  out["histogramPoints"] += 1
                  if sum(p.bucket_counts) != p.count or len(p.bucket_counts) != len(p.explicit_bounds) + 1:
                    out["mismatches"] += 1
                  if list(p.explicit_bounds) != sorted(set(p.explicit_bounds)):
                    out["mismatches"] += 1
        print(json.dumps(out))
        """
      let parsed = try Self.run(python, ["-c", script], input: Data(otlp.stdout.utf8))
      #expect(parsed.status == 0, "\(parsed.stderr)")
      let result = try parsed.json()
      #expect(result["mismatches"] as? Int == 0)
      #expect((result["histogramPoints"] as? Int ?? 0) > 0)
      #expect((result["resources"] as? [String])?.allSatisfy { $0 == "com.example.app" } == true)
      if source == dir.path { #expect(result["versions"] as? [String] == [Self.hostileVersion]) }
    }
  }

  @Test func datadogBodyFollowsTheV2SeriesSchemaAndCarriesTrendsNumbers() throws {
    guard let python = Self.python() else { return }
    let body = try CLIRunner.run(["export", "Samples/dump", "--to", "datadog", "--interval", "week"])
    #expect(body.status == 0)
    let schema = TestDirectories.packageRoot.appendingPathComponent(
      "Tests/MetricsReportCLITests/Schemas/datadog-series-v2.schema.json")
    let validate = try Self.run(
      python,
      [
        "-c",
        "import json, sys, jsonschema; jsonschema.validate(json.load(sys.stdin), json.load(open(sys.argv[1]))); print('{}')",
        schema.path,
      ],
      input: Data(body.stdout.utf8))
    #expect(validate.status == 0, "\(validate.stderr)")
    // The schema itself rejects what Datadog rejects.
    let broken = body.stdout.replacingOccurrences(of: "\"type\": 3", with: "\"type\": \"gauge\"")
    let rejected = try Self.run(
      python,
      [
        "-c", "import json, sys, jsonschema; jsonschema.validate(json.load(sys.stdin), json.load(open(sys.argv[1])))",
        schema.path,
      ],
      input: Data(broken.utf8))
    #expect(rejected.status != 0)

    // The weekly p90 of 3.9.0 is trend's, in seconds, timestamped at each week's last second.
    let trend = try CLIRunner.run([
      "trend", "Samples/dump", "--metric", Self.launch, "--statistic", "p90", "--interval", "week", "--app-version",
      "3.9.0", "--format", "json",
    ]).json()
    let points = try #require(((trend["series"] as? [[String: Any]])?.first)?["points"] as? [[String: Any]])
    let series = try #require(try body.json()["series"] as? [[String: Any]])
    let p90 = try #require(
      series.first {
        $0["metric"] as? String == "metrickit.app_launch.time_to_first_draw.p90"
          && ($0["tags"] as? [String])?.contains("app_version:3.9.0") == true
      })
    let values = try #require(p90["points"] as? [[String: Any]])
    #expect(values.count == points.count)
    for (dd, t) in zip(values, points) {
      // Foundation's JSON reader may round the last digit of a double: equal to a few ulps.
      let expected = (t["p90"] as? Double ?? .nan) / 1000
      #expect(abs((dd["value"] as? Double ?? .nan) - expected) <= 4 * expected.ulp)
      let week = (t["start"] as? String).flatMap(Self.daysSinceEpoch) ?? 0
      #expect(dd["timestamp"] as? Int == (week + 7) * 86_400 - 1)
    }
  }
}

/// Prometheus text samples, parsed enough to compare (names, labels with escapes, value, timestamp).
enum PrometheusText {
  struct Sample {
    var name: String
    var labels: [String: String]
    var value: Double
    var timestamp: Int?
  }

  static func samples(_ text: String) -> [Sample] {
    var out: [Sample] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      var i = line.startIndex
      var name = ""
      while i < line.endIndex, line[i] != "{", line[i] != " " {
        name.append(line[i])
        i = line.index(after: i)
      }
      var labels: [String: String] = [:]
      if i < line.endIndex, line[i] == "{" {
        i = line.index(after: i)
        while i < line.endIndex, line[i] != "}" {
          var key = ""
          while line[i] != "=" {
            key.append(line[i])
            i = line.index(after: i)
          }
          i = line.index(i, offsetBy: 2)  // ="
          var value = ""
          while line[i] != "\"" {
            if line[i] == "\\" {
              i = line.index(after: i)
              value.append(line[i] == "n" ? "\n" : line[i])
            } else {
              value.append(line[i])
            }
            i = line.index(after: i)
          }
          labels[key] = value
          i = line.index(after: i)
          if line[i] == "," { i = line.index(after: i) }
        }
        i = line.index(after: i)
      }
      let rest = line[i...].split(separator: " ")
      guard let first = rest.first else { continue }
      let value = first == "+Inf" ? Double.infinity : Double(first) ?? .nan
      out.append(
        Sample(name: name, labels: labels, value: value, timestamp: rest.dropFirst().first.flatMap { Int($0) }))
    }
    return out
  }
}

/// A string as a JSON string literal.
enum JSONQuoted {
  static func of(_ s: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [s])) ?? Data("[\"\"]".utf8)
    return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
  }
}
