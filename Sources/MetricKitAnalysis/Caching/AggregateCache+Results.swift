import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Results computed from cached aggregates (a trend's points), stored beside the entries under keys
// that hash the entries they were computed from and how: a part of a report whose inputs did not
// change is read back, not computed again.
//
// Layout: `results/ab/abcdef…`. A result file is a header (kind `result`, length and checksum, as
// entries have), one line listing the keys of the entries it was computed from (`cache prune` removes
// it once one of them is gone), then the result's bytes.
extension AggregateCache {
  /// What a report did with the results in the cache.
  public struct ResultUse: Sendable, Equatable {
    /// What the results are, for the summary line ("trend intervals": the points of one interval).
    public var kind: String
    /// Results read from the cache.
    public var hits = 0
    /// Results computed (not in the cache, damaged, or from inputs not read through it).
    public var computed = 0
    /// Results found damaged (then computed and replaced), with the reason.
    public var damaged: [String] = []
    /// Results that could not be written.
    public var notStored = 0

    /// Nothing used yet.
    public init(kind: String) { self.kind = kind }

    /// Adds another part's use.
    public mutating func add(_ other: ResultUse) {
      hits += other.hits
      computed += other.computed
      damaged += other.damaged
      notStored += other.notStored
    }

    /// One line for a run's standard error.
    public var summary: String {
      var text = "cache: \(hits) of \(hits + computed) \(kind) from the cache, \(computed) computed"
      if !damaged.isEmpty { text += "; \(damaged.count) damaged results recomputed" }
      if notStored > 0 { text += "; \(notStored) results could not be written" }
      return text
    }
  }

  /// The key of a result: the SHA-256, in hex, of the cache's format, `recipe` (what is computed and
  /// with which options) and the keys of the entries it is computed from.
  static func resultKey(recipe: String, entries: [String]) -> String {
    ResultKeys.any.key(recipe, entries: entries)
  }

  /// The keys of results whose recipes start alike (a trend's intervals: one recipe, each interval's
  /// line and start after it), that start hashed once.
  struct ResultKeys {
    private let start: ContentHash.Start

    private init(hashing start: String) { self.start = ContentHash.Start(Array(start.utf8)) }

    /// Keys of results whose recipes start with `recipe` and a line break.
    init(recipe: String) { self.init(hashing: "format \(formatVersion) result\n\(recipe)\n") }

    /// Keys of any recipe.
    static var any: ResultKeys { ResultKeys(hashing: "format \(formatVersion) result\n") }

    /// ``AggregateCache/resultKey(recipe:entries:)`` of the recipe that is this start followed by
    /// `rest`.
    func key(_ rest: String, entries: [String]) -> String {
      start.hex(followedBy: Array((rest + "\n" + entries.joined(separator: "\n")).utf8))
    }
  }

  func resultPath(_ key: String) -> String { path(of: key, in: "results") }

  /// What looking a result up found.
  enum ResultLookup {
    case hit([UInt8])
    case miss
    case damaged(String)
  }

  /// The bytes stored under `key`, checked against their header's length and checksum.
  func loadResult(_ key: String) -> ResultLookup {
    let path = resultPath(key)
    guard let bytes = Self.contents(ofRegularFile: path) else { return .miss }
    do throws(CacheError) {
      let section = try Self.sections(of: bytes, kind: "result", count: 1)[0]
      try section.check(in: bytes)
      guard let result = section.afterFirstLine(in: bytes) else { throw CacheError.unreadable("no entries line") }
      _ = path.withCString { utimensat(AT_FDCWD, $0, nil, 0) }
      return .hit(Array(bytes[result]))
    } catch {
      return .damaged("\(path): \(error.description)")
    }
  }

  /// Stores `bytes` under `key`, computed from the entries `entries`; atomically.
  func storeResult(_ bytes: [UInt8], key: String, entries: [String]) -> Bool {
    let line = JSONWriter.compact(.array(entries.map { .string($0) }))
    return Self.writeAtomically(
      Self.fileBytes(kind: "result", [Array((line + "\n").utf8) + bytes]), to: resultPath(key))
  }
}

// A command's whole output, stored for the inputs and options that made it: a run with nothing new
// writes it again without computing it.
extension AggregateCache {
  /// What a command wrote, and how it ended.
  public struct StoredOutput: Sendable, Equatable {
    /// What it wrote (to standard output, or to its file).
    public var text: String
    /// What it said on standard error after it (the reason of its exit status).
    public var notes: [String]
    /// Its exit status.
    public var status: Int32

    /// An output.
    public init(text: String, notes: [String] = [], status: Int32 = 0) {
      (self.text, self.notes, self.status) = (text, notes, status)
    }
  }

  /// A recipe for ``CachedReading/output(for:say:compute:)``: `arguments` (a command line, as it was given), the
  /// contents of `files` (the files it reads besides its inputs: rule files), and this program's build
  /// (its executable's size and modification time: another build may write other bytes).
  public static func recipe(arguments: [String], reading files: [String]) -> String {
    var lines = ["build \(build)", "arguments \(arguments.debugDescription)"]
    for file in files {
      let content = FileManager.default.contents(atPath: file).map { ContentHash.hex(ContentHash.sha256(Array($0))) }
      lines.append("file \(file.debugDescription) \(content ?? "unreadable")")
    }
    return lines.joined(separator: "\n")
  }

  /// This program's executable, as its size and modification time.
  private static let build: String = {
    var info = stat()
    // Unknown: this process's outputs are never found by another.
    guard let path = Bundle.main.executablePath, stat(path, &info) == 0 else { return "unknown \(UUID())" }
    return "\(path) \(info.st_size) \(FileStatus(info).modified)"
  }()

  /// What looking an output up found.
  public enum StoredOutputLookup: Sendable, Equatable {
    case found(StoredOutput)
    /// None stored, or the aggregate was not wholly read through the cache (then none is stored).
    case missing
    /// One was stored but does not read (torn, damaged): it is computed again and replaced.
    case damaged(String)
  }

  /// The key of the output of `recipe` over the inputs of `reading`: nil unless every input came
  /// through this cache.
  private func outputKey(_ recipe: String, _ reading: CachedReading) -> (key: String, entries: [String])? {
    guard let entries = reading.entries else { return nil }
    // The accounting holds what the entries do not: files passed over, named twice, not found.
    let inputs = JSONWriter.compact(reading.aggregate.inputs.json)
    return (Self.resultKey(recipe: "output 1\n\(recipe)\n\(inputs)", entries: entries), entries)
  }

  /// The output stored for `recipe` over the inputs of `reading`.
  func storedOutput(for recipe: String, of reading: CachedReading) -> StoredOutputLookup {
    guard let (key, _) = outputKey(recipe, reading) else { return .missing }
    switch loadResult(key) {
    case .miss: return .missing
    case .damaged(let reason): return .damaged(reason)
    case .hit(let bytes):
      // A line of JSON (status and notes), then the text as it was written.
      guard let end = bytes.firstIndex(of: 0x0A),
        let head = try? Self.decodeJSON(bytes[..<end], what: "stored output", Self.outputHead)
      else { return .damaged("\(resultPath(key)): not a stored output") }
      return .found(
        StoredOutput(
          text: String(decoding: bytes[(end + 1)...], as: UTF8.self), notes: head.notes, status: head.status))
    }
  }

  /// Stores `output` for `recipe` over the inputs of `reading`; false when it could not be written
  /// (or not every input came through the cache).
  @discardableResult
  func store(_ output: StoredOutput, for recipe: String, of reading: CachedReading) -> Bool {
    guard let (key, entries) = outputKey(recipe, reading) else { return false }
    let head = JSONWriter.compact(
      .object([
        ("status", .integer(Int128(output.status))), ("notes", .array(output.notes.map { .string($0) })),
      ]))
    return storeResult(Array((head + "\n" + output.text).utf8), key: key, entries: entries)
  }

  private static func outputHead(_ root: JSONValue) throws(PayloadDecodingError) -> (status: Int32, notes: [String]) {
    guard let status = root.member("status")?.int64, let value = Int32(exactly: status),
      let notes = root.member("notes"), notes.kind == .array
    else { throw PayloadDecodingError(keyPath: ["output"], reason: "expected a status and notes") }
    var lines: [String] = []
    for note in notes.children {
      guard let line = note.string else { throw PayloadDecodingError(keyPath: ["notes"], reason: "not a line") }
      lines.append(line)
    }
    return (value, lines)
  }
}
