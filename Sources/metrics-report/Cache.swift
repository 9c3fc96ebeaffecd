import ArgumentParser
import Foundation
import MetricKitAnalysis

/// `metrics-report cache …`: what a `--cache` folder holds, and pruning it.
struct Cache: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cache",
    abstract: "Look after a --cache folder: what it holds, and removing what no run will read again.",
    subcommands: [CacheStats.self, CachePrune.self])
}

/// `metrics-report cache stats DIR`.
struct CacheStats: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats",
    abstract: "Entries and results, their size, those whose files changed or are gone, damaged ones.")

  @Argument(help: "The cache folder.")
  var directory: String

  func run() throws {
    let s = try CacheCommand.open(directory).statistics()
    func day(_ d: Date?) -> String {
      d.map { CalendarDay(utcDayOf: $0).description } ?? "–"
    }
    print("\(directory): format \(AggregateCache.formatVersion)")
    print("  entries       \(s.entries) (\(s.bytes) bytes), made from \(s.sourceFiles) files")
    print("  stale         \(s.stale) (their files changed or are gone: cache prune removes them)")
    print("  damaged       \(s.damaged) (recomputed when read; cache prune removes them)")
    print("  temporary     \(s.temporary) (left by stopped runs)")
    if s.foreign > 0 {
      print(
        "  not the cache's \(s.foreign) (links or other files where entries and results go: never followed nor removed)"
      )
    }
    print("  results       \(s.results) (\(s.resultBytes) bytes), \(s.staleResults) made from stale or removed entries")
    if s.contentHashes > 0 {
      print("  content hashes \(s.contentHashes) (--cache-content-hash: a file is hashed again when its stat changes)")
    }
    if s.folderListings > 0 {
      print(
        "  folders       \(s.folderListings) kept as listed, \(s.staleFolderListings) changed since (listed again by the next run); "
          + "\(s.folderSummaries) summaries for kinds of runs"
      )
    }
    print("  last used     \(day(s.oldestUse)) to \(day(s.newestUse))")
  }
}

/// `metrics-report cache prune DIR`.
struct CachePrune: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prune",
    abstract:
      "Remove entries whose files changed or are gone (and the results made from them), damaged files and stopped runs' temporary files."
  )

  @Argument(help: "The cache folder.")
  var directory: String

  @Option(help: "Also remove entries not used for this long: 30d, 12w.")
  var unusedFor: String?

  @Flag(help: "Remove every entry.")
  var all = false

  func validate() throws {
    if let unusedFor, CacheCommand.days(unusedFor) == nil {
      throw ValidationError("--unused-for takes a number of days or weeks: 30d, 12w.")
    }
  }

  func run() throws {
    let p = try CacheCommand.open(directory).prune(
      unusedFor: unusedFor.flatMap(CacheCommand.days).map { Double($0) * 86_400 }, everything: all)
    print(
      "\(directory): removed \(p.files) files (\(p.bytes) bytes): \(p.stale) stale, \(p.unused) unused, "
        + "\(p.damaged) damaged, \(p.temporary) temporary, \(p.staleResults) stale results"
        + (p.contentHashes > 0 ? ", \(p.contentHashes) content hashes" : "")
        + (p.folderListings > 0 ? ", \(p.folderListings) folder listings" : "")
        + (p.folderSummaries > 0 ? ", \(p.folderSummaries) folder summaries" : ""))
  }
}

enum CacheCommand {
  /// The cache, or exit 2 naming why not.
  static func open(_ directory: String) throws -> AggregateCache {
    guard FileManager.default.fileExists(atPath: directory + "/FORMAT") else {
      throw CommandFailure.cannotEvaluate(
        "\(directory) is not a metrics-report cache (no FORMAT file)")
    }
    do {
      return try AggregateCache(directory: directory)
    } catch {
      throw CommandFailure.cannotEvaluate("--cache \(error)")
    }
  }

  /// `30d` or `12w` in days (at most 100,000 of either).
  static func days(_ text: String) -> Int? {
    guard let span = DaySpan(parsing: text), span.count <= 100_000 else { return nil }
    return span.days
  }
}
