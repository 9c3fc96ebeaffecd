import Foundation
import TestSupport
import Testing

/// Shards that cannot lose counts: empty shards, compact snapshots, `merge --stdin`, and the sharding
/// recipes of Docs/scale.md run as written.
@Suite("Sharding")
struct ShardingTests {
  /// The code blocks of Docs/scale.md that start with `# recipe: NAME`.
  static func recipes() throws -> [String: String] {
    let page = try String(
      contentsOf: TestDirectories.packageRoot.appendingPathComponent("Docs/scale.md"), encoding: .utf8)
    var out: [String: String] = [:]
    for block in page.components(separatedBy: "```sh\n").dropFirst() {
      let code = block.components(separatedBy: "```").first ?? ""
      guard code.hasPrefix("# recipe: ") else { continue }
      let name = String(code.dropFirst("# recipe: ".count).prefix { $0 != " " && $0 != "," })
      out[name] = code
    }
    return out
  }

  /// Runs `script` in a fresh directory holding a link to Samples/, with the built binary on the PATH.
  static func runRecipe(_ script: String) throws -> (CLIRunner.Result, URL) {
    let dir = try TestDirectories.makeTemporary()
    try FileManager.default.createSymbolicLink(
      at: dir.appendingPathComponent("Samples"),
      withDestinationURL: TestDirectories.packageRoot.appendingPathComponent("Samples"))
    let result = try CLIRunner.shell(
      "cd '\(dir.path)' && export PATH=\"$(dirname \"$B\"):$PATH\" && set -eo pipefail\n" + script)
    return (result, dir)
  }

  @Test func shardingRecipesGiveTheDirectSnapshotByteForByte() throws {
    let recipes = try Self.recipes()
    #expect(Set(recipes.keys) == ["GNU", "xargs"], "\(recipes.keys)")
    let direct = try CLIRunner.shell(
      "$B snapshot $(find Samples/dump -name '*.ndjson' | sort) --app-version 3.9.0")
    #expect(direct.status == 0)
    for (name, script) in recipes.sorted(by: { $0.key < $1.key }) {
      if name == "GNU" && LocalServer.executable("parallel") == nil {
        print("skipped: GNU parallel is not installed (Scripts/bootstrap.sh --test installs it)")
        continue
      }
      let (result, dir) = try Self.runRecipe(script)
      defer { try? FileManager.default.removeItem(at: dir) }
      #expect(result.status == 0, "\(name): \(result.stderr)")
      let merged = try String(contentsOf: dir.appendingPathComponent("candidate-3.9.0.json"), encoding: .utf8)
      #expect(CLIRunner.withoutShards(merged) == CLIRunner.withoutShards(direct.stdout), "\(name)")
      #expect(CLIRunner.shardCount(merged) > 1 && CLIRunner.shardCount(direct.stdout) == 1, "\(name)")
    }
  }

  /// Exact values, and sketches past a limit of 5 payloads (shards below it are exact, merged above).
  // Exact, past a per-sample limit, and past a budget for the whole snapshot (which shards spend
  // differently from the whole, and still merge to its bytes).
  @Test(arguments: [[], ["--exact-values", "5"], ["--exact-budget", "150"]])
  func stdinShardsMergeToTheWholeStreamButForTheStreamsCount(limit: [String]) throws {
    // Eight shards of the samples' NDJSON lines, round robin: some hold no payload of 3.8.0.
    let lines = try CLIRunner.shell("cat $(find Samples/dump -name '*.ndjson' | sort)").stdout.split(separator: "\n")
    var shards = [[Substring]](repeating: [], count: 8)
    for (i, line) in lines.enumerated() { shards[i % 8].append(line) }
    shards[6] += shards[7]  // and one empty partition
    shards[7] = []
    for version in ["3.8.0", "3.9.0"] {
      var stream = ""
      var emptyShards = 0
      for shard in shards {
        let input = Data((shard.joined(separator: "\n") + (shard.isEmpty ? "" : "\n")).utf8)
        let snapshot = try CLIRunner.run(
          ["snapshot", "--stdin", "--app-version", version, "--compact"] + limit, input: input)
        #expect(snapshot.status == 0, "\(snapshot.stderr)")
        #expect(snapshot.stdout.filter { $0 == "\n" }.count == 1 && snapshot.stdout.hasSuffix("\n"))
        if snapshot.stdout.contains("\"payloads\":0,\"histograms\"") { emptyShards += 1 }
        stream += snapshot.stdout
      }
      #expect(emptyShards >= 1)
      let merged = try CLIRunner.run(["merge", "--stdin"], input: Data(stream.utf8))
      #expect(merged.status == 0, "\(merged.stderr)")
      let direct = try CLIRunner.run(
        ["snapshot", "--stdin", "--app-version", version] + limit,
        input: Data((lines.joined(separator: "\n") + "\n").utf8))
      #expect(direct.stdout.contains("\"relativeAccuracy\"") == !limit.isEmpty)
      // Two fields differ: the streams read (8 shards against 1), and the shards added up (one per
      // shard that held payloads of the version).
      #expect(merged.stdout.contains("\"files\": 8,") && direct.stdout.contains("\"files\": 1,"))
      #expect(CLIRunner.shardCount(merged.stdout) == 8 - emptyShards && CLIRunner.shardCount(direct.stdout) == 1)
      #expect(
        CLIRunner.withoutShards(merged.stdout.replacingOccurrences(of: "\"files\": 8,", with: "\"files\": 1,"))
          == CLIRunner.withoutShards(direct.stdout), "\(version)")
      // The same snapshots, pretty and concatenated, merge the same.
      let pretty = try shards.map { shard in
        try CLIRunner.run(
          ["snapshot", "--stdin", "--app-version", version] + limit,
          input: Data((shard.joined(separator: "\n") + (shard.isEmpty ? "" : "\n")).utf8)
        ).stdout
      }.joined()
      #expect(try CLIRunner.run(["merge", "--stdin"], input: Data(pretty.utf8)).stdout == merged.stdout)
    }
  }

  @Test func onePassSnapshotsEveryVersionForCompareAndTrend() throws {
    try withTemporaryDirectory { dir in
      let all = dir.appendingPathComponent("all.json").path
      let taken = try CLIRunner.run(["snapshot", "Samples/dump", "--interval", "week", "-o", all])
      #expect(taken.status == 0, "\(taken.stderr)")
      #expect(try String(contentsOfFile: all, encoding: .utf8).components(separatedBy: "\"kind\"").count == 4)
      // trend from the one file is trend of the dump, accounting included.
      let arguments = [
        "--metric", "applicationLaunchMetrics.histogrammedTimeToFirstDraw", "--metric", "payloads",
        "--interval", "week", "--format", "json",
      ]
      let fromSnapshot = try CLIRunner.run(["trend", "--snapshot", all] + arguments)
      let fromDump = try CLIRunner.run(["trend", "Samples/dump"] + arguments)
      #expect(fromSnapshot.status == 0 && fromSnapshot.stdout == fromDump.stdout)
      // compare for every pair from the one file: the dump's verdicts and q-values.
      for (baseline, candidate) in [("3.8.0", "3.9.0"), ("3.9.0", "3.10.0"), ("3.8.0", "3.10.0")] {
        let a = try CLIRunner.run([
          "compare", "--baseline-file", all, "--baseline", baseline, "--candidate-file", all, "--candidate", candidate,
          "--format", "json", "--allow-insufficient",
        ])
        let b = try CLIRunner.run([
          "compare", "Samples/dump", "--baseline", baseline, "--candidate", candidate, "--format", "json",
          "--allow-insufficient",
        ])
        #expect(a.status == b.status)
        let ra = try #require(try a.json()["results"] as? [[String: Any]])
        let rb = try #require(try b.json()["results"] as? [[String: Any]])
        #expect(ra.map { $0["qValue"] as? Double } == rb.map { $0["qValue"] as? Double })
        #expect(ra.map { $0["verdict"] as? String } == rb.map { $0["verdict"] as? String })
      }
      // Shards of several versions at once, piped through and merged per version.
      let lines = try CLIRunner.shell("cat $(find Samples/dump -name '*.ndjson' | sort)").stdout.split(separator: "\n")
      var stream = ""
      for k in 0..<4 {
        let shard = lines.enumerated().filter { $0.offset % 4 == k }.map(\.element).joined(separator: "\n") + "\n"
        stream += try CLIRunner.run(
          ["snapshot", "--stdin", "--app-version", "3.8.0", "--app-version", "3.9.0", "--compact"],
          input: Data(shard.utf8)
        ).stdout
      }
      let merged = try CLIRunner.run(["merge", "--stdin"], input: Data(stream.utf8))
      let direct = try CLIRunner.run(
        ["snapshot", "--stdin", "--app-version", "3.8.0", "--app-version", "3.9.0"],
        input: Data((lines.joined(separator: "\n") + "\n").utf8))
      #expect(merged.status == 0 && direct.status == 0)
      #expect(
        CLIRunner.withoutShards(merged.stdout.replacingOccurrences(of: "\"files\": 4,", with: "\"files\": 1,"))
          == CLIRunner.withoutShards(direct.stdout))
    }
  }

  @Test func emptyShardsAreOrdinaryButAnEmptyVersionCannotBeCompared() throws {
    let empty = try CLIRunner.run(["snapshot", "--stdin", "--app-version", "9.9"], input: Data())
    #expect(empty.status == 0)
    #expect(empty.stdout.contains("\"payloads\": 0,"))
    // Files: only with --allow-empty.
    let refused = try CLIRunner.run(["snapshot", "Samples/dump/v3.8.0", "--app-version", "9.9"])
    #expect(refused.status == 2 && refused.stderr.contains("--allow-empty"))
    try withTemporaryDirectory { dir in
      let allowed = try CLIRunner.run([
        "snapshot", "Samples/dump/v3.8.0", "--app-version", "9.9", "--allow-empty", "-o",
        dir.appendingPathComponent("a.json").path,
      ])
      #expect(allowed.status == 0)
      try Data(empty.stdout.utf8).write(to: dir.appendingPathComponent("b.json"))
      let merged = try CLIRunner.run([
        "merge", dir.appendingPathComponent("a.json").path, dir.appendingPathComponent("b.json").path, "-o",
        dir.appendingPathComponent("m.json").path,
      ])
      #expect(merged.status == 0, "\(merged.stderr)")
      let baseline = try CLIRunner.run([
        "snapshot", "Samples/dump", "--app-version", "3.8.0", "-o", dir.appendingPathComponent("base.json").path,
      ])
      #expect(baseline.status == 0)
      let compare = try CLIRunner.run([
        "compare", "--baseline-file", dir.appendingPathComponent("base.json").path, "--candidate-file",
        dir.appendingPathComponent("m.json").path,
      ])
      #expect(compare.status == 2 && compare.stderr.contains("nothing to evaluate"))
      // A stream that is not snapshots is refused with where it went wrong.
      let garbage = try CLIRunner.run(["merge", "--stdin"], input: Data((empty.stdout + "oops\n").utf8))
      #expect(garbage.status == 2 && garbage.stderr.contains("standard input: byte"))
      let none = try CLIRunner.run(["merge", "--stdin"], input: Data())
      #expect(none.status == 2 && none.stderr.contains("no snapshot"))
    }
  }

  @Test func sketchedAndFormatOneBaselinesGateLikeExactOnes() throws {
    try withTemporaryDirectory { dir in
      func snapshot(_ name: String, _ extra: [String]) throws -> String {
        let path = dir.appendingPathComponent(name).path
        let made = try CLIRunner.run(["snapshot", "Samples/dump", "--app-version", "3.8.0", "-o", path] + extra)
        #expect(made.status == 0, "\(made.stderr)")
        return path
      }
      func verdicts(_ baseline: String) throws -> [String] {
        let result = try CLIRunner.run([
          "compare", "--baseline-file", baseline, "--candidate", "3.9.0", "Samples/dump", "--format", "json",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (json?["results"] as? [[String: Any]] ?? []).map {
          "\($0["metric"] ?? "") \($0["statistic"] ?? "") \($0["verdict"] ?? "")"
        }
      }
      let exact = try snapshot("exact.json", [])
      let sketched = try snapshot("sketched.json", ["--exact-values", "10"])
      let text = try String(contentsOfFile: sketched, encoding: .utf8)
      #expect(text.contains("\"exactValueLimit\": 10,") && text.contains("\"relativeAccuracy\": 0.01"))
      let expected = try verdicts(exact)
      #expect(expected.count >= 9 && expected.contains { $0.hasSuffix(" regression") })
      #expect(try verdicts(sketched) == expected)
      // A snapshot written by the previous format (every value, no limit) still reads.
      let formatOne = try String(contentsOfFile: exact, encoding: .utf8)
        .replacingOccurrences(of: "\"snapshotVersion\": 3,", with: "\"snapshotVersion\": 1,")
        .replacingOccurrences(of: "  \"exactValueLimit\": 100000,\n", with: "")
      #expect(!formatOne.contains("exactValueLimit") && formatOne.contains("\"snapshotVersion\": 1,"))
      let old = dir.appendingPathComponent("format1.json")
      try Data(formatOne.utf8).write(to: old)
      #expect(try verdicts(old.path) == expected)
      // A damaged sketch names the key.
      let damaged = dir.appendingPathComponent("damaged.json")
      try Data(text.replacingOccurrences(of: "\"zeros\": ", with: "\"zeros\": 1").utf8).write(to: damaged)
      let refused = try CLIRunner.run([
        "compare", "--baseline-file", damaged.path, "--candidate", "3.9.0", "Samples/dump",
      ])
      #expect(refused.status == 2 && refused.stderr.contains("do not agree"), "\(refused.stderr)")
    }
  }
}
