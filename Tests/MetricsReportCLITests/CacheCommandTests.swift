import Foundation
import PayloadSynthesis
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--cache DIR` on every command that reads a dump, and `metrics-report cache`: a run with the cache,
/// cold or warm, writes the bytes a run without it writes; changed, added and deleted files are read
/// again or drop out; a run killed while writing leaves a cache the next run uses; a torn or damaged
/// entry is recomputed; a cache of another format is refused.
@Suite("metrics-report --cache")
struct CacheCommandTests {
  /// Every command and format that reads a dump, on `dump`.
  static func runs(_ dump: String, output dir: URL) -> [[String]] {
    let launch = "applicationLaunchMetrics.histogrammedTimeToFirstDraw"
    var runs: [[String]] = []
    for format in ["text", "json", "markdown", "csv"] {
      runs.append(["summary", dump, "--format", format])
      runs.append(["trend", dump, "--metric", launch, "--metric", "hangRate", "--format", format])
    }
    runs.append(["summary", dump, "--by", "deviceType", "--pooling", "per-payload", "--format", "json"])
    runs.append(["trend", dump, "--metric", "*", "--interval", "day", "--by", "deviceType", "--format", "json"])
    runs.append(["trend", dump, "--metric", "payloads", "--interval", "week", "--last", "30d"])
    for format in ["text", "json", "markdown", "junit", "github"] {
      runs.append(["compare", dump, "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", format])
    }
    runs.append([
      "compare", dump, "--baseline", "3.8.0", "--candidate", "3.9.0", "--by", "deviceType", "--format", "json",
    ])
    for format in ["openmetrics", "datadog", "otlp-json"] {
      runs.append(["export", dump, "--to", format, "--interval", "week"])
    }
    runs.append(["snapshot", dump, "--app-version", "3.9.0", "--interval", "week", "--by", "deviceType"])
    runs.append(["snapshot", dump, "--exact-values", "10", "--compact"])
    runs.append(["report", dump, "--baseline", "3.8.0", "--candidate", "3.9.0", "--by", "deviceType"])
    runs.append(["diagnostics", dump, "--format", "json"])
    return runs
  }

  @Test func coldAndWarmRunsWriteTheBytesOfARunWithoutTheCache() throws {
    try withTemporaryDirectory { dir in
      let cache = dir.appendingPathComponent("cache").path
      for run in Self.runs("Samples/dump", output: dir) {
        let plain = try CLIRunner.run(run)
        let cold = try CLIRunner.run(run + ["--cache", cache])
        let warm = try CLIRunner.run(run + ["--cache", cache])
        #expect(plain.stdout.count > 100, "\(run): \(plain.stderr)")
        #expect(cold.stdout == plain.stdout, "cold: \(run)")
        #expect(warm.stdout == plain.stdout, "warm: \(run)")
        #expect(cold.status == plain.status && warm.status == plain.status, "\(run)")
        // Warm: nothing read again. (The same options as an earlier run share its entries.)
        #expect(warm.stderr.contains(", 0 read (0 files)"), "\(run): \(warm.stderr)")
        // The rest of standard error (rejections, notes) is the same too.
        let notes = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("cache: ") } }
        #expect(notes(warm.stderr) == notes(plain.stderr), "\(run)")
      }
    }
  }

  @Test func aMixedMetricKit27DumpGroupedByStateReadsTheSameFromTheCache() throws {
    try withTemporaryDirectory { dir in
      let dump = dir.appendingPathComponent("reports")
      try DeviceDayTwin.write(DeviceDayTwin.rollout(daysPerVersion: 60, seed: 3), mix: .mixed, to: dump)
      let cache = dir.appendingPathComponent("cache").path
      let by = ["--by", "state:com.example.shop.screen"]
      for run in [
        ["compare", dump.path, "--baseline", "4.0.0", "--candidate", "4.1.0", "--format", "json"] + by,
        ["summary", dump.path, "--within-day", "--format", "json"],
        ["trend", dump.path, "--metric", "*", "--interval", "day", "--format", "csv"] + by,
      ] {
        let plain = try CLIRunner.run(run)
        let cold = try CLIRunner.run(run + ["--cache", cache])
        let warm = try CLIRunner.run(run + ["--cache", cache])
        #expect(plain.stdout.count > 100 && cold.stdout == plain.stdout && warm.stdout == plain.stdout, "\(run)")
        #expect(warm.stderr.contains(" 0 read (0 files)"), "\(warm.stderr)")
      }
    }
  }

  /// A copy of `Samples/dump` in `dir`.
  static func copyOfSamples(in dir: URL) throws -> URL {
    let copy = dir.appendingPathComponent("dump")
    try FileManager.default.copyItem(at: TestDirectories.packageRoot.appendingPathComponent("Samples/dump"), to: copy)
    return copy
  }

  @Test func changedAddedAndDeletedFilesAreReadAgainOrDropOut() throws {
    try withTemporaryDirectory { dir in
      let dump = try Self.copyOfSamples(in: dir)
      let cache = dir.appendingPathComponent("cache").path
      let run = ["compare", dump.path, "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "json"]
      let first = try CLIRunner.run(run + ["--cache", cache])
      // One batch a folder: `Samples/dump` holds four, each far below a batch's 4 MiB.
      #expect(first.stderr.contains("0 of 4 batches"), "\(first.stderr)")

      // One file deleted, one changed (another payload's bytes), one added: the two folders' batches
      // are read again, and the output is that of a run without the cache on the tree as it is now.
      let files = try FileManager.default.subpathsOfDirectory(atPath: dump.path).filter { $0.hasSuffix(".json") }
        .sorted()
      let v38 = files.filter { $0.hasPrefix("v3.8.0/") }
      let v39 = files.filter { $0.hasPrefix("v3.9.0/") }
      try FileManager.default.removeItem(at: dump.appendingPathComponent(v38[0]))
      try Data(contentsOf: dump.appendingPathComponent(v39[1])).write(to: dump.appendingPathComponent(v39[0]))
      try FileManager.default.copyItem(
        at: dump.appendingPathComponent(v39[2]), to: dump.appendingPathComponent("v3.9.0/added-later.json"))
      let plain = try CLIRunner.run(run)
      let warm = try CLIRunner.run(run + ["--cache", cache])
      #expect(warm.stdout == plain.stdout)
      #expect(warm.stdout != first.stdout, "the changes changed nothing")
      let counts = Self.cacheCounts(warm.stderr)
      #expect(counts.hits == 2 && counts.read == 2, "\(warm.stderr)")

      // A changed modification time alone is a change: the batch is read again.
      let touched = dump.appendingPathComponent(v38[1])
      var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
      #expect(touched.path.withCString { utimensat(AT_FDCWD, $0, &times, 0) } == 0)
      let again = try CLIRunner.run(run + ["--cache", cache])
      #expect(again.stdout == plain.stdout && Self.cacheCounts(again.stderr).read == 1, "\(again.stderr)")

      // Stale entries (their files changed or are gone) are what prune removes.
      let stats = try CLIRunner.run(["cache", "stats", cache])
      #expect(stats.status == 0 && stats.stdout.contains("stale         "), "\(stats.stdout)")
      let prune = try CLIRunner.run(["cache", "prune", cache])
      #expect(prune.status == 0 && prune.stdout.contains(" stale"), "\(prune.stdout)")
      let after = try CLIRunner.run(["cache", "stats", cache])
      #expect(after.stdout.contains("stale         0 "), "\(after.stdout)")
      let last = try CLIRunner.run(run + ["--cache", cache])
      #expect(last.stdout == plain.stdout && Self.cacheCounts(last.stderr).read == 0, "\(last.stderr)")
    }
  }

  /// Each reading keeps what it merged, a run of batches at a time: the next reading of the same paths
  /// with the same options merges those and reads only the new day's files, for a trend (in outline)
  /// and for the gate (whole, its per-payload samples included); an older file changed, the entries of
  /// its run are merged one by one. The output is always that of a run without the cache.
  @Test func aNewDayMergesTheKeptMergeAndOnlyItsOwnFiles() throws {
    try withTemporaryDirectory { dir in
      let dump = dir.appendingPathComponent("days")
      try DailyDumps.write(to: dump, days: 0..<40, payloadsPerDay: 30, layout: .files)
      let cache = dir.appendingPathComponent("cache").path
      let runs = [
        ["trend", dump.path, "--metric", "*", "--interval", "day", "--format", "json"],
        ["compare", dump.path, "--baseline", "5.0.0", "--candidate", "5.1.0", "--format", "json"],
      ]
      /// N of "(N kept merged)" in a run's first `cache:` line; 0 without.
      func kept(_ stderr: String) -> Int {
        guard let range = stderr.range(of: #"\(\d+ kept merged\)"#, options: .regularExpression) else { return 0 }
        return Int(stderr[range].dropFirst().prefix { $0.isNumber }) ?? -1
      }
      for run in runs { _ = try CLIRunner.run(run + ["--cache", cache]) }
      let batches = Self.cacheCounts(try CLIRunner.run(runs[0] + ["--cache", cache]).stderr).hits
      #expect(batches >= 40)
      try DailyDumps.write(to: dump, days: 40..<41, payloadsPerDay: 30, layout: .files)
      var total = 0
      for run in runs {
        let plain = try CLIRunner.run(run)
        let warm = try CLIRunner.run(run + ["--cache", cache])
        #expect(warm.stdout == plain.stdout && warm.status == plain.status, "\(run)")
        // The new day's folder (a batch or two), read; every other batch comes from the kept merges.
        let counts = Self.cacheCounts(warm.stderr)
        #expect(counts.hits == batches && (1...2).contains(counts.read), "\(warm.stderr)")
        #expect(kept(warm.stderr) == batches, "\(warm.stderr)")
        total = counts.hits + counts.read
      }
      // A file of an older day changed (the day's other batches not): its batch is read, the other
      // entries of its run merged one by one, every other run from its kept merge, and that day's
      // points are computed from both.
      let old = dump.appendingPathComponent(DailyDumps.folder(3))
      let names = try FileManager.default.contentsOfDirectory(atPath: old.path).filter { $0.hasSuffix(".json") }
        .sorted()
      try Data(contentsOf: old.appendingPathComponent(names.last!)).write(to: old.appendingPathComponent(names[0]))
      for run in runs {
        let plain = try CLIRunner.run(run)
        let warm = try CLIRunner.run(run + ["--cache", cache])
        #expect(warm.stdout == plain.stdout && warm.status == plain.status, "\(run)")
        #expect(Self.cacheCounts(warm.stderr) == (total - 1, 1), "\(warm.stderr)")
        #expect(kept(warm.stderr) < total - 1, "\(warm.stderr)")
        // Kept anew: the next run takes it whole.
        let next = try CLIRunner.run(run + ["--cache", cache])
        #expect(next.stdout == plain.stdout && kept(next.stderr) == total, "\(next.stderr)")
      }
    }
  }

  /// What a run says when its whole output came from the cache.
  static let storedOutputLine = "cache: the output from the cache (inputs and options unchanged)"

  /// The trend intervals from the cache and computed, from a run's second `cache:` line.
  static func intervalCounts(_ stderr: String) -> (hits: Int, computed: Int) {
    guard let line = stderr.split(separator: "\n").first(where: { $0.contains(" trend intervals from the cache") })
    else { return (-1, -1) }
    // "cache: H of N trend intervals from the cache, C computed"
    let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    return numbers.count >= 3 ? (numbers[0], numbers[2]) : (-1, -1)
  }

  @Test func aGateOverUnchangedInputsAndOptionsIsWrittenAgainAsItWas() throws {
    try withTemporaryDirectory { dir in
      let dump = try Self.copyOfSamples(in: dir)
      let cache = dir.appendingPathComponent("cache").path
      let rules = dir.appendingPathComponent("rules.yaml")
      try (try CLIRunner.run(["rules", "--print-defaults"])).stdout.write(to: rules, atomically: true, encoding: .utf8)
      let run = [
        "compare", dump.path, "--baseline", "3.8.0", "--candidate", "3.9.0", "--rules", rules.path, "--format", "junit",
      ]
      let plain = try CLIRunner.run(run)
      #expect(plain.status == 1 && plain.stdout.contains("<testsuite"), "\(plain.stderr)")
      let cold = try CLIRunner.run(run + ["--cache", cache])
      #expect(!cold.stderr.contains(Self.storedOutputLine))
      // Written again: the same bytes, the same exit status, the same notes; only outlines read.
      let warm = try CLIRunner.run(run + ["--cache", cache])
      #expect(warm.stdout == plain.stdout && warm.status == plain.status && warm.stderr.contains(Self.storedOutputLine))
      // Another format, the rule file's contents changed, a file added: computed again, and right.
      for change in 0..<3 {
        var again = run
        switch change {
        case 0: again[again.count - 1] = "json"
        case 1:
          try (String(contentsOf: rules, encoding: .utf8) + "# edited\n").write(
            to: rules, atomically: true, encoding: .utf8)
        default:
          try FileManager.default.copyItem(
            at: dump.appendingPathComponent("v3.9.0").appendingPathComponent(
              try FileManager.default.contentsOfDirectory(atPath: dump.appendingPathComponent("v3.9.0").path).sorted()[
                0]),
            to: dump.appendingPathComponent("v3.9.0/added.json"))
        }
        let fresh = try CLIRunner.run(again + ["--cache", cache])
        let expected = try CLIRunner.run(again)
        #expect(!fresh.stderr.contains(Self.storedOutputLine), "change \(change)")
        #expect(fresh.stdout == expected.stdout && fresh.status == expected.status, "change \(change)")
        let stored = try CLIRunner.run(again + ["--cache", cache])
        #expect(stored.stdout == expected.stdout && stored.stderr.contains(Self.storedOutputLine), "change \(change)")
      }
    }
  }

  @Test func trendPointsOfUnchangedIntervalsAreReadBackAndOnlyTheNewDaysComputed() throws {
    try withTemporaryDirectory { dir in
      let dump = dir.appendingPathComponent("days")
      try DailyDumps.write(to: dump, days: 0..<40, payloadsPerDay: 25)
      let cache = dir.appendingPathComponent("cache").path
      let run = ["trend", dump.path, "--metric", "*", "--metric", "payloads", "--interval", "day", "--format", "json"]
      let cold = try CLIRunner.run(run + ["--cache", cache])
      let total = Self.intervalCounts(cold.stderr)
      #expect(total.hits == 0 && total.computed > 40, "\(cold.stderr)")
      // The same run again: its whole output from the cache. The same points in another format: every
      // interval read back.
      let warm = try CLIRunner.run(run + ["--cache", cache])
      #expect(warm.stdout == cold.stdout && warm.stderr.contains(Self.storedOutputLine), "\(warm.stderr)")
      let csv = Array(run.dropLast()) + ["csv"]
      let warmCSV = try CLIRunner.run(csv + ["--cache", cache])
      #expect(warmCSV.stdout == (try CLIRunner.run(csv)).stdout)
      #expect(Self.intervalCounts(warmCSV.stderr) == (total.computed, 0), "\(warmCSV.stderr)")

      // A new day: its intervals and the day its payloads spill into are computed, the rest read back;
      // the output is that of a run without the cache.
      try DailyDumps.write(to: dump, days: 40..<41, payloadsPerDay: 25)
      let plain = try CLIRunner.run(run)
      let next = try CLIRunner.run(run + ["--cache", cache])
      #expect(next.stdout == plain.stdout && next.stdout != cold.stdout)
      let counts = Self.intervalCounts(next.stderr)
      #expect(counts.computed >= 1 && counts.computed <= 6 && counts.hits >= total.computed - 4, "\(next.stderr)")

      // Damaged results are named, computed again and replaced.
      let results = dir.appendingPathComponent("cache/results")
      let files = try FileManager.default.subpathsOfDirectory(atPath: results.path).map {
        results.appendingPathComponent($0)
      }
      .filter { $0.lastPathComponent.count == 64 }
      for file in files {
        var damaged = try Data(contentsOf: file)
        damaged[damaged.count - 3] ^= 0x04
        try damaged.write(to: file)
      }
      let recovered = try CLIRunner.run(run + ["--cache", cache])
      #expect(recovered.stdout == plain.stdout, "\(recovered.stderr)")
      #expect(recovered.stderr.contains(" damaged results recomputed"), "\(recovered.stderr)")
      #expect(recovered.stderr.contains("damaged: the checksum does not match"), "\(recovered.stderr)")
      let replaced = try CLIRunner.run(csv + ["--cache", cache])
      #expect(replaced.stdout == (try CLIRunner.run(csv)).stdout && Self.intervalCounts(replaced.stderr).computed == 0)

      // Other statistics are other results; a group's intervals are its own.
      for other in [run + ["--statistic", "p75"], run + ["--by", "deviceType"]] {
        let fresh = try CLIRunner.run(other + ["--cache", cache])
        #expect(fresh.stdout == (try CLIRunner.run(other)).stdout && Self.intervalCounts(fresh.stderr).hits == 0)
      }

      // A day deleted: its entry and the results made from it are stale, and prune removes them.
      try FileManager.default.removeItem(at: dump.appendingPathComponent(DailyDumps.folder(3)))
      let stats = try CLIRunner.run(["cache", "stats", cache])
      #expect(stats.status == 0 && stats.stdout.contains("results"), "\(stats.stdout)")
      let prune = try CLIRunner.run(["cache", "prune", cache])
      #expect(prune.stdout.contains(" stale results") && !prune.stdout.contains(" 0 stale results"), "\(prune.stdout)")
      #expect((try CLIRunner.run(["cache", "stats", cache])).stdout.contains(", 0 made from stale or removed entries"))
      // The day's intervals are gone, and every other interval is read back: nothing to compute.
      let after = try CLIRunner.run(csv + ["--cache", cache])
      #expect(after.stdout == (try CLIRunner.run(csv)).stdout)
      let again = Self.intervalCounts(after.stderr)
      #expect(again.computed == 0 && again.hits > 40, "\(after.stderr)")
    }
  }

  @Test func otherGroupsPointsFollowTheGroupsKept() throws {
    try withTemporaryDirectory { dir in
      let dump = dir.appendingPathComponent("days")
      try DailyDumps.write(to: dump, days: 0..<6, payloadsPerDay: 40)
      let cache = dir.appendingPathComponent("cache").path
      func trend(top: Int) -> [String] {
        [
          "trend", dump.path, "--metric", "applicationLaunchMetrics.histogrammedTimeToFirstDraw", "--interval", "day",
          "--by", "deviceType", "--top", "\(top)", "--format", "csv",
        ]
      }
      let first = try CLIRunner.run(trend(top: 1) + ["--cache", cache])
      #expect(first.stdout == (try CLIRunner.run(trend(top: 1))).stdout)
      // Another --top: (other) holds other groups now, so none of its points are those stored; the kept
      // group's are.
      let plain = try CLIRunner.run(trend(top: 2))
      let cached = try CLIRunner.run(trend(top: 2) + ["--cache", cache])
      #expect(cached.stdout == plain.stdout, "\(cached.stderr)")
      #expect(Self.intervalCounts(cached.stderr) == (6, 12), "\(cached.stderr)")
      #expect(plain.stdout.contains("deviceType=(other)"))
    }
  }

  @Test func anEditKeepingSizeAndModificationTimeIsSeen() throws {
    try withTemporaryDirectory { dir in
      let dump = try Self.copyOfSamples(in: dir)
      let cache = dir.appendingPathComponent("cache").path
      let run = ["summary", dump.path, "--format", "json"]
      _ = try CLIRunner.run(run + ["--cache", cache])
      // 3.9.0 edited to 3.9.9 in place: the same size, the modification time put back.
      let file = try FileManager.default.subpathsOfDirectory(atPath: dump.path).filter {
        $0.hasPrefix("v3.9.0/") && $0.hasSuffix(".json")
      }.sorted()[0]
      let path = dump.appendingPathComponent(file).path
      var before = stat()
      #expect(stat(path, &before) == 0)
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let edited = text.replacingOccurrences(of: "\"3.9.0\"", with: "\"3.9.9\"")
      #expect(edited != text && edited.utf8.count == text.utf8.count)
      try edited.write(toFile: path, atomically: false, encoding: .utf8)
      // The times put back to the nanosecond, as a tool that restores them would.
      #if canImport(Darwin)
        var times = [before.st_atimespec, before.st_mtimespec]
      #else
        var times = [before.st_atim, before.st_mtim]
      #endif
      #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
      var after = stat()
      #expect(stat(path, &after) == 0 && after.st_size == before.st_size)
      #if canImport(Darwin)
        #expect(
          after.st_mtimespec.tv_sec == before.st_mtimespec.tv_sec
            && after.st_mtimespec.tv_nsec == before.st_mtimespec.tv_nsec)
      #else
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
      #endif
      let stats = try CLIRunner.run(["cache", "stats", cache])
      #expect(stats.stdout.contains("stale         1 "), "\(stats.stdout)")
      let again = try CLIRunner.run(run + ["--cache", cache])
      #expect(Self.cacheCounts(again.stderr) == (3, 1), "\(again.stderr)")
      #expect(again.stdout == (try CLIRunner.run(run)).stdout && again.stdout.contains("\"3.9.9\""))
    }
  }

  @Test func linksInACacheAreNeverFollowedNorWhatTheyPointToRemoved() throws {
    try withTemporaryDirectory { dir in
      let cache = dir.appendingPathComponent("cache")
      _ = try CLIRunner.run(["summary", "Samples/dump", "--cache", cache.path])
      // The user's files, and links to them where the cache keeps its own: a prefix folder, an entry,
      // a result.
      let mine = dir.appendingPathComponent("mine")
      try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
      for name in ["a.txt", "b.txt", String(repeating: "c", count: 64)] {
        try Data("keep me".utf8).write(to: mine.appendingPathComponent(name))
      }
      let fm = FileManager.default
      // A prefix folder of the cache's own, chosen before the link beside it exists: a listing's order is
      // the file system's, and a link taken for a prefix would put the next link in the user's folder.
      let prefix = try #require(try fm.contentsOfDirectory(atPath: cache.appendingPathComponent("entries").path).first)
      try fm.createSymbolicLink(at: cache.appendingPathComponent("entries/zz"), withDestinationURL: mine)
      try fm.createSymbolicLink(
        at: cache.appendingPathComponent("entries/\(prefix)/\(String(repeating: "0", count: 64))"),
        withDestinationURL: mine.appendingPathComponent("a.txt"))
      try fm.createDirectory(at: cache.appendingPathComponent("results"), withIntermediateDirectories: true)
      try fm.createSymbolicLink(at: cache.appendingPathComponent("results/cc"), withDestinationURL: mine)
      let stats = try CLIRunner.run(["cache", "stats", cache.path])
      #expect(stats.stdout.contains("not the cache's 3 "), "\(stats.stdout)")
      let prune = try CLIRunner.run(["cache", "prune", cache.path, "--all"])
      #expect(prune.status == 0, "\(prune.stderr)")
      #expect(
        try fm.contentsOfDirectory(atPath: mine.path).sorted() == ["a.txt", "b.txt", String(repeating: "c", count: 64)])
      #expect(try String(contentsOf: mine.appendingPathComponent("a.txt"), encoding: .utf8) == "keep me")
      // A cache whose entries folder is a link is refused, and nothing is written through it.
      let linked = dir.appendingPathComponent("linked")
      _ = try CLIRunner.run(["summary", "Samples/dump", "--cache", linked.path])
      try fm.removeItem(at: linked.appendingPathComponent("entries"))
      try fm.createSymbolicLink(at: linked.appendingPathComponent("entries"), withDestinationURL: mine)
      let refused = try CLIRunner.run(["summary", "Samples/dump", "--cache", linked.path])
      #expect(refused.status == 2 && refused.stderr.contains("entries is not a folder"), "\(refused.stderr)")
      #expect(try fm.contentsOfDirectory(atPath: mine.path).count == 3)
    }
  }

  @Test func aFolderHoldingOnlyAnEntriesFolderIsNotAdopted() throws {
    try withTemporaryDirectory { dir in
      let folder = dir.appendingPathComponent("work")
      let entries = folder.appendingPathComponent("entries/ab")
      try FileManager.default.createDirectory(at: entries, withIntermediateDirectories: true)
      try Data("my notes".utf8).write(to: entries.appendingPathComponent("notes.txt"))
      let refused = try CLIRunner.run(["summary", "Samples/dump", "--cache", folder.path])
      #expect(refused.status == 2 && refused.stderr.contains("not a metrics-report cache"), "\(refused.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("FORMAT").path))
      #expect((try CLIRunner.run(["cache", "prune", folder.path, "--all"])).status == 2)
      #expect(FileManager.default.fileExists(atPath: entries.appendingPathComponent("notes.txt").path))
    }
  }

  @Test func withContentHashesACopyFindsItsEntriesAndAChangeOfBytesAloneIsSeen() throws {
    try withTemporaryDirectory { dir in
      let dump = try Self.copyOfSamples(in: dir)
      let cache = dir.appendingPathComponent("cache").path
      let run = [
        "summary", "dump", "--format", "json", "--cache", cache, "--cache-content-hash", "--threads", "2",
      ]
      // Run from `dir`, so that the paths are those of a checkout: the same in every copy.
      func summary() throws -> CLIRunner.Result {
        try CLIRunner.shell("cd '\(dir.path)' && \"$B\" \(run.map { "'\($0)'" }.joined(separator: " "))")
      }
      let first = try summary()
      #expect(Self.cacheCounts(first.stderr) == (0, 4), "\(first.stderr)")
      let fileCount = try FileManager.default.subpathsOfDirectory(atPath: dump.path).filter {
        $0.hasSuffix(".json") || $0.hasSuffix(".ndjson") || $0.hasSuffix(".gz")
      }.count
      #expect(Self.hashedCount(first.stderr) == fileCount, "\(first.stderr)")
      // Nothing changed: every file's stat is the one it was hashed at, so none is hashed again.
      let again = try summary()
      #expect(Self.cacheCounts(again.stderr) == (4, 0) && Self.hashedCount(again.stderr) == 0, "\(again.stderr)")
      // A fresh copy: every file a new inode and time, the same bytes. Each is hashed, and everything
      // comes from the cache.
      try FileManager.default.moveItem(at: dump, to: dir.appendingPathComponent("old"))
      try FileManager.default.copyItem(at: dir.appendingPathComponent("old"), to: dump)
      try FileManager.default.removeItem(at: dir.appendingPathComponent("old"))
      let copied = try summary()
      #expect(copied.stdout == first.stdout && Self.cacheCounts(copied.stderr) == (4, 0), "\(copied.stderr)")
      #expect(Self.hashedCount(copied.stderr) == fileCount)
      // One file's bytes changed, its size and time kept: its batch is read again, and counts the change.
      let files = try FileManager.default.subpathsOfDirectory(atPath: dump.path).filter {
        $0.hasPrefix("v3.9.0/") && $0.hasSuffix(".json")
      }.sorted()
      let a = dump.appendingPathComponent(files[0])
      let modified = try FileManager.default.attributesOfItem(atPath: a.path)[.modificationDate] as? Date
      let text = try String(contentsOf: a, encoding: .utf8)
      let changed = text.replacingOccurrences(of: "\"3.9.0\"", with: "\"3.9.9\"")
      #expect(changed != text && changed.utf8.count == text.utf8.count)
      try changed.write(to: a, atomically: false, encoding: .utf8)
      try FileManager.default.setAttributes([.modificationDate: modified as Any], ofItemAtPath: a.path)
      let after = try summary()
      #expect(Self.cacheCounts(after.stderr) == (3, 1), "\(after.stderr)")
      // Its change time moved: that file alone is hashed again.
      #expect(Self.hashedCount(after.stderr) == 1, "\(after.stderr)")
      // `cache stats` counts the hashes kept: each file's, and each batch's under every set of `stat`s
      // it was hashed at (4 at first, 4 after the copy, 1 after the change); pruning everything
      // removes them.
      let stats = try CLIRunner.run(["cache", "stats", cache])
      #expect(stats.stdout.contains("content hashes \(fileCount + 9)"), "\(stats.stdout)")
      let plain = try CLIRunner.shell("cd '\(dir.path)' && \"$B\" summary dump --format json")
      #expect(after.stdout == plain.stdout && after.stdout.contains("\"3.9.9\""))
    }
  }

  /// The files a run hashed, from its `cache:` line (0 when it says none).
  static func hashedCount(_ stderr: String) -> Int {
    guard let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("cache: ") }),
      let range = line.range(of: #"; (\d+) files hashed"#, options: .regularExpression)
    else { return 0 }
    return Int(line[range].split(separator: " ")[1]) ?? -1
  }

  /// The batches from the cache and read, from a run's `cache:` line.
  static func cacheCounts(_ stderr: String) -> (hits: Int, read: Int) {
    guard let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("cache: ") }) else { return (-1, -1) }
    // "cache: H of N batches (F files) from the cache[ (K kept merged)], R read (G files)"
    let parts = line.split(separator: ", ")
    guard parts.count >= 2, let hits = Int(parts[0].dropFirst(7).prefix { $0.isNumber }),
      let read = Int(parts[1].prefix { $0.isNumber })
    else { return (-1, -1) }
    return (hits, read)
  }

  /// Folders in which nothing was modified for an hour are kept as listed and taken so, with the bytes
  /// of a run without the cache; a file added to one is seen; `--cache-check-every-file` lists them all.
  @Test func foldersThatStoppedChangingAreTakenAsKeptAndAFileAddedIsSeen() throws {
    try withTemporaryDirectory { dir in
      let dump = try Self.copyOfSamples(in: dir)
      let twoHoursAgo = timespec(tv_sec: time(nil) - 7_200, tv_nsec: 0)
      func age(_ path: String) {
        var times = [twoHoursAgo, twoHoursAgo]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
      }
      for path in try FileManager.default.subpathsOfDirectory(atPath: dump.path) { age("\(dump.path)/\(path)") }
      let cache = dir.appendingPathComponent("cache").path
      let run = ["compare", dump.path, "--baseline", "3.8.0", "--candidate", "3.9.0", "--format", "json"]
      let plain = try CLIRunner.run(run)
      let first = try CLIRunner.run(run + ["--cache", cache])
      let warm = try CLIRunner.run(run + ["--cache", cache])
      #expect(first.stdout == plain.stdout && warm.stdout == plain.stdout)
      #expect(!first.stderr.contains("folders as kept"), "\(first.stderr)")
      #expect(warm.stderr.contains(", 0 read (0 files); 4 folders as kept, not listed\n"), "\(warm.stderr)")
      let stats = try CLIRunner.run(["cache", "stats", cache])
      #expect(stats.stdout.contains("folders       4 kept as listed, 0 changed since"), "\(stats.stdout)")
      #expect(stats.stdout.contains("; 4 summaries for kinds of runs\n"), "\(stats.stdout)")
      let checking = try CLIRunner.run(run + ["--cache", cache, "--cache-check-every-file"])
      #expect(checking.stdout == plain.stdout && !checking.stderr.contains("folders as kept"), "\(checking.stderr)")

      // A payload added to a kept folder: the folder is listed again and the file read.
      try FileManager.default.copyItem(
        at: dump.appendingPathComponent("v3.9.0/payload-1.json"),
        to: dump.appendingPathComponent("v3.9.0/payload-1-again.json"))
      let added = try CLIRunner.run(run + ["--cache", cache])
      #expect(added.stdout == (try CLIRunner.run(run)).stdout && added.stdout != plain.stdout)
      #expect(added.stderr.contains("; 3 folders as kept, not listed"), "\(added.stderr)")
      #expect(Self.cacheCounts(added.stderr).read == 1, "\(added.stderr)")
      let pruned = try CLIRunner.run(["cache", "prune", cache])
      #expect(pruned.stdout.contains(", 1 folder listings, 1 folder summaries"), "\(pruned.stdout)")
      let alone = try CLIRunner.run(["summary", dump.path, "--cache-check-every-file"])
      #expect(alone.status == 64 && alone.stderr.contains("--cache-check-every-file goes with --cache."))
    }
  }

  @Test func aCacheOfAnotherFormatOrAFolderThatIsNotOneIsRefused() throws {
    try withTemporaryDirectory { dir in
      let other = dir.appendingPathComponent("other")
      try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
      // A cache an older build made.
      try Data("metrics-report cache 1\n".utf8).write(to: other.appendingPathComponent("FORMAT"))
      let refused = try CLIRunner.run(["summary", "Samples/dump", "--cache", other.path])
      #expect(refused.status == 2 && refused.stdout.isEmpty)
      #expect(
        refused.stderr.contains("a metrics-report cache of format 1; this build reads format "), "\(refused.stderr)")
      let notCache = dir.appendingPathComponent("photos")
      try FileManager.default.createDirectory(at: notCache, withIntermediateDirectories: true)
      try Data("x".utf8).write(to: notCache.appendingPathComponent("a.jpg"))
      let notOne = try CLIRunner.run(["summary", "Samples/dump", "--cache", notCache.path])
      #expect(notOne.status == 2 && notOne.stderr.contains("not a metrics-report cache"), "\(notOne.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: notCache.path) == ["a.jpg"])
      let stats = try CLIRunner.run(["cache", "stats", notCache.path])
      #expect(stats.status == 2)
    }
  }

  @Test func tornAndDamagedEntriesAreRecomputedAndReplaced() throws {
    try withTemporaryDirectory { dir in
      let cache = dir.appendingPathComponent("cache")
      let run = ["summary", "Samples/dump", "--format", "json"]
      let plain = try CLIRunner.run(run)
      _ = try CLIRunner.run(run + ["--cache", cache.path])
      let entries = try Self.entries(cache)
      #expect(entries.count == 4)
      // Their kept merges (of the runs of batches, and of all but the first) damaged: reported, and the
      // entries merged one by one instead.
      let merges = try Self.files(in: cache.appendingPathComponent("results"))
      #expect(!merges.isEmpty)
      for file in merges {
        var merge = try Data(contentsOf: file)
        merge[merge.count - 5] ^= 0x01
        try merge.write(to: file)
      }
      let fromEntries = try CLIRunner.run(run + ["--cache", cache.path])
      #expect(fromEntries.stdout == plain.stdout)
      for file in merges {
        #expect(fromEntries.stderr.contains("recomputed \(file.path): damaged"), "\(fromEntries.stderr)")
      }
      #expect(fromEntries.stderr.contains("4 of 4 batches") && !fromEntries.stderr.contains("kept merged"))
      // Gone, so that the next run reads each entry: one cut in half (a torn write), one with a byte changed (damage), one left empty.
      let torn = try Data(contentsOf: entries[0])
      try torn.prefix(torn.count / 2).write(to: entries[0])
      var damaged = try Data(contentsOf: entries[1])
      damaged[damaged.count - 20] ^= 0x01
      try damaged.write(to: entries[1])
      try Data().write(to: entries[2])
      for file in try Self.files(in: cache.appendingPathComponent("results")) {
        try FileManager.default.removeItem(at: file)
      }
      // And a stopped run's temporary file, two hours old.
      let temporary = URL(fileURLWithPath: entries[3].path + ".tmp-1-2")
      try Data("{\"partial".utf8).write(to: temporary)
      var old = [timespec(tv_sec: time(nil) - 7200, tv_nsec: 0), timespec(tv_sec: time(nil) - 7200, tv_nsec: 0)]
      _ = temporary.path.withCString { utimensat(AT_FDCWD, $0, &old, 0) }

      let stats = try CLIRunner.run(["cache", "stats", cache.path])
      #expect(stats.stdout.contains("damaged       3 ") && stats.stdout.contains("temporary     1 "), "\(stats.stdout)")
      let recovered = try CLIRunner.run(run + ["--cache", cache.path])
      #expect(recovered.stdout == plain.stdout)
      #expect(recovered.stderr.contains("torn: "), "\(recovered.stderr)")
      #expect(recovered.stderr.contains("damaged: the checksum does not match"), "\(recovered.stderr)")
      #expect(recovered.stderr.contains("1 of 4 batches") && recovered.stderr.contains("3 damaged entries recomputed"))
      // Replaced: the next run takes everything from the cache.
      let next = try CLIRunner.run(run + ["--cache", cache.path])
      #expect(next.stdout == plain.stdout && Self.cacheCounts(next.stderr) == (4, 0), "\(next.stderr)")
      let prune = try CLIRunner.run(["cache", "prune", cache.path])
      #expect(prune.stdout.contains("1 temporary"), "\(prune.stdout)")
      #expect(!FileManager.default.fileExists(atPath: temporary.path))
    }
  }

  /// The entry files of a cache.
  static func entries(_ cache: URL) throws -> [URL] { try files(in: cache.appendingPathComponent("entries")) }

  /// The files of a cache's folder (`entries`, `results`), by path.
  static func files(in root: URL) throws -> [URL] {
    try FileManager.default.subpathsOfDirectory(atPath: root.path).map { root.appendingPathComponent($0) }
      .filter { !$0.hasDirectoryPath && $0.lastPathComponent.count == 64 }.sorted { $0.path < $1.path }
  }

  @Test func aRunKilledWhileWritingLeavesACacheTheNextRunUses() throws {
    try withTemporaryDirectory { dir in
      // Ninety days, a folder each: a run takes long enough to be killed between entries.
      let dump = dir.appendingPathComponent("days")
      try DailyDumps.write(to: dump, days: 0..<90, payloadsPerDay: 40)
      let run = ["trend", dump.path, "--metric", "*", "--interval", "day", "--format", "json", "--threads", "2"]
      let plain = try CLIRunner.run(run)
      #expect(plain.status == 0)
      var killedMidRun = 0
      for attempt in 0..<3 {
        let cache = dir.appendingPathComponent("cache-\(attempt)")
        let process = Process()
        process.executableURL = CLIRunner.productsDirectory.appendingPathComponent("metrics-report")
        process.arguments = run + ["--cache", cache.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed as soon as the first entries are in place, while others are being written.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline && ((try? Self.entries(cache).count) ?? 0) < 3 { usleep(2_000) }
        if process.isRunning {
          kill(process.processIdentifier, SIGKILL)
          killedMidRun += 1
        }
        process.waitUntilExit()
        let written = (try? Self.entries(cache).count) ?? 0
        let next = try CLIRunner.run(run + ["--cache", cache.path])
        #expect(next.stdout == plain.stdout, "attempt \(attempt)")
        let counts = Self.cacheCounts(next.stderr)
        #expect(counts.hits == written && counts.hits + counts.read == 90, "\(written) entries: \(next.stderr)")
        #expect(!next.stderr.contains("damaged"), "\(next.stderr)")
        let last = try CLIRunner.run(run + ["--cache", cache.path])
        #expect(last.stdout == plain.stdout && Self.cacheCounts(last.stderr) == (90, 0), "\(last.stderr)")
      }
      #expect(killedMidRun > 0, "no run was still writing when killed")
    }
  }
}
