import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// The library side of issue 9: bounded structures that stay exact and independent of how the work
/// was split, and one escaping function per output context.
@Suite("Hardening (library)")
struct HardeningLibraryTests {
  // MARK: - Rejections

  @Test func theRejectionsKeptDoNotDependOnHowTheWorkWasSplit() {
    var rng = SplitMix64(seed: 99)
    let paths = (0..<40).map { "dump/file-\($0).ndjson" }
    let reasons = ["invalid JSON", "empty file", "at x: unknown unit \"eons\" in \"3 eons\"", "line 12 is too long"]
    let all = (0..<5_000).map { _ in
      Rejection(
        location: PayloadLocation(path: paths[Int(rng.next() % 40)], line: Int(rng.next() % 10_000)),
        reason: reasons[Int(rng.next() % 4)])
    }
    var whole = RejectionList(limit: 50, perFileLimit: 3)
    for r in all { whole.append(r) }
    for seed in 0..<20 {
      var split = SplitMix64(seed: UInt64(seed))
      var parts = (0..<(1 + Int(split.next() % 5))).map { _ in RejectionList(limit: 50, perFileLimit: 3) }
      for r in all.shuffled(using: &split) { parts[Int(split.next() % UInt64(parts.count))].append(r) }
      var merged = RejectionList(limit: 50, perFileLimit: 3)
      for part in parts.shuffled(using: &split) { merged.merge(part) }
      #expect(merged.listed == whole.listed, "seed \(seed)")
      #expect(merged.count == 5_000 && merged.countsByReason == whole.countsByReason)
    }
    // The kept ones are the canonically first, at most 3 per file, 50 in all.
    let expected = Dictionary(grouping: all.sorted(by: Rejection.canonicalOrder), by: \.location.path)
      .values.flatMap { $0.prefix(3) }.sorted(by: Rejection.canonicalOrder).prefix(50)
    #expect(whole.listed == Array(expected))
    // Lines 12 and 13 are one cause; omitted counts add up.
    #expect(RejectionList.reasonKey("line 12 is too long") == RejectionList.reasonKey("line 13 is too long"))
    #expect(whole.omitted.reduce(0) { $0 + $1.count } == 5_000 - 50)
  }

  // MARK: - Signposts

  static func payload(signposts names: [String]) throws -> MetricPayload {
    let histogram =
      #"{"histogramNumBuckets":1,"histogramValue":{"0":{"bucketStart":"0 ms","bucketEnd":"10 ms","bucketCount":1}}}"#
    let signposts = names.map {
      #"{"signpostName":"\#($0)","signpostCategory":"C","totalSignpostCount":1,"signpostIntervalData":{"histogrammedSignpostDurations":\#(histogram)}}"#
    }
    return try Support.metricPayload(#"{"appVersion":"1.0","signpostMetrics":[\#(signposts.joined(separator: ","))]}"#)
  }

  @Test func fiftyThousandDistinctSignpostsTakeLinearTimeAndAreBoundedTheSameWayWhateverTheSplit() throws {
    let names = (0..<50_000).map { String(format: "S%05d", $0) }
    let one = try Self.payload(signposts: names.reversed())
    let clock = ContinuousClock()
    var whole = VersionAggregate(version: "1.0")
    let elapsed = clock.measure { whole.add(one, options: AggregationOptions()) }
    print("50,000 distinct signposts aggregated in \(elapsed)")
    // Quadratic, this took minutes (8,000 signposts: 38 s); a generous bound for debug and ASan builds.
    #expect(elapsed < .seconds(20))
    #expect(whole.signpostIDs == names.prefix(10_000).map { MetricID.signpost(category: "C", name: $0) })
    #expect(whole.signpostHistogramsNotKept == 40_000)
    // Split over payloads and merged in any order: the same signposts kept, with their whole data.
    let halves = [
      try Self.payload(signposts: Array(names[25_000...])), try Self.payload(signposts: Array(names[..<25_000])),
    ]
    var a = VersionAggregate(version: "1.0")
    var b = VersionAggregate(version: "1.0")
    a.add(halves[0], options: AggregationOptions())
    b.add(halves[1], options: AggregationOptions())
    b.add(halves[0], options: AggregationOptions())
    a.merge(b)
    #expect(a.signpostIDs == whole.signpostIDs)
    #expect(a.histogram(MetricID.signpost(category: "C", name: "S00000"))?.histogramCount == 1)
    #expect(a.histogram(MetricID.signpost(category: "C", name: "S09999"))?.histogramCount == 1)
    #expect(a.signpostHistogramsNotKept == 40_000 + 25_000)
  }

  // MARK: - Reading

  @Test func gzipBombsCostTheCapOnceWhateverTheThreads() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mr-bombs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let bomb = try SampleDump.gzip(Data(repeating: 0x20, count: 96 << 20))
    for i in 0..<4 { try bomb.write(to: dir.appendingPathComponent("bomb-\(i).json.gz")) }
    let cap = 40 << 20
    var reader = PayloadReader(limits: InputLimits(maximumDecompressedSize: cap))
    let tracker = BufferTracker()
    reader.tracker = tracker
    let read = reader.read(
      paths: [dir.path], threads: 4, makeAccumulator: { DumpAggregate() },
      visit: { $0.add($1, filter: PayloadFilter(), options: AggregationOptions()) })
    var merged = DumpAggregate()
    for part in read.accumulators { merged.merge(part) }
    #expect(merged.inputs.rejectedCount == 4)
    #expect(merged.inputs.rejected.allSatisfy { $0.reason.contains("decompressed-size limit") })
    // One thread at a time holds a buffer over 16 MiB: the peak is one cap, not four.
    print("peak bytes in large buffers: \(tracker.peakLargeByteCount) (cap \(cap))")
    #expect(tracker.peakLargeByteCount <= cap + 1)
    #expect(tracker.liveCount == 0)
  }

  /// Hands out a few bytes at a time, as a pipe does under load.
  struct TrickleSource: ChunkSource {
    let bytes: [UInt8]
    var offset = 0
    let chunk: Int
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputFailure) -> Int {
      let n = min(chunk, buffer.count, bytes.count - offset)
      guard n > 0 else { return 0 }
      bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
      offset += n
      return n
    }
  }

  @Test func aLongLineArrivingInSmallReadsIsSearchedOnce() throws {
    // 16 MB in 4 KiB reads: searching the whole line again on every read scanned 32 GB.
    let line = [UInt8](repeating: UInt8(ascii: "x"), count: 16 << 20) + [0x0A] + Array("{}\n".utf8)
    var source = TrickleSource(bytes: line, chunk: 4096)
    var lengths: [Int] = []
    let clock = ContinuousClock()
    let elapsed = try clock.measure {
      try LineReader.forEachLine(in: &source, window: 1 << 16, maximumLineLength: 32 << 20) { bytes, _ in
        lengths.append(bytes.count)
        return true
      }
    }
    print("16 MB line in 4 KiB reads: \(elapsed)")
    #expect(lengths == [16 << 20, 2])
    var limited = TrickleSource(bytes: line, chunk: 4096)
    #expect(throws: InputFailure.self) {
      try LineReader.forEachLine(in: &limited, window: 1 << 16, maximumLineLength: 1 << 20) { _, _ in true }
    }
  }

  // MARK: - Escaping

  @Test func eachContextHasItsOwnEscaping() {
    let esc = "\u{1B}[2J"
    let table: [(String, String, String, String)] = [
      // input, terminal, markdown cell, CSV field
      ("plain", "plain", "plain", "plain"),
      ("a\nb", "a\\nb", "a\\\\nb", "\"a\nb\""),
      (esc, "\\u{1B}[2J", "\\\\u{1B}\\[2J", "\\u{1B}[2J"),
      ("\u{9B}31m", "\\u{9B}31m", "\\\\u{9B}31m", "\\u{9B}31m"),
      ("\u{202E}txt", "\\u{202E}txt", "\\\\u{202E}txt", "\\u{202E}txt"),
      ("a\u{2028}b", "a\\u{2028}b", "a\\\\u{2028}b", "a\\u{2028}b"),
      ("\u{7F}", "\\u{7F}", "\\\\u{7F}", "\\u{7F}"),
      ("=1+1", "=1+1", "=1+1", "'=1+1"),
      ("\t=1+1", "\\t=1+1", "\\\\t=1+1", "'\t=1+1"),
      ("\r=1", "\\r=1", "\\\\r=1", "\"'\r=1\""),
      ("@SUM", "@SUM", "@SUM", "'@SUM"),
      ("-5", "-5", "-5", "-5"),
      ("a|b<c>", "a|b<c>", "a\\|b&lt;c&gt;", "a|b<c>"),
    ]
    for (input, terminal, markdown, csv) in table {
      #expect(TextEscaping.terminal(input) == terminal, "terminal \(input.debugDescription)")
      #expect(TextEscaping.markdownCell(input) == markdown, "markdown \(input.debugDescription)")
      #expect(TextEscaping.csvField(input) == csv, "csv \(input.debugDescription)")
    }
    #expect(TextEscaping.diagnosticLine("::error::x") == " ::error::x")
    #expect(TextEscaping.diagnosticLine("rejected: a\n::error::x") == "rejected: a\\n::error::x")
    #expect(TextEscaping.terminalCell(String(repeating: "n", count: 500), width: 10) == "nnnnnnnnn…")
    #expect(TextEscaping.xml("a\u{1B}<\u{FFFE}") == "a\\u{1B}&lt;\\u{FFFE}")
    #expect(TextEscaping.githubMessage("100%\n\u{1B}") == "100%25\\n\\u{1B}")
    // JSON keeps every character, as escapes a reader decodes back.
    let json = JSONWriter.render(.string("\u{9B}\u{202E}\u{1B}"))
    #expect(json.trimmingCharacters(in: .newlines) == "\"\\u009b\\u202e\\u001b\"")
  }

  // MARK: - Rule files

  @Test func theNestingBoundPassesRealRuleFilesAndStopsDeepOnes() throws {
    #expect(RuleFileNesting.firstLineTooDeep(RuleFileParser.yaml(.builtIn)) == nil)
    let quoted = "rules:\n  - metric: \"signpost:[[[[[[/{{{{\"  # ]]]] [[[[\n    statistic: 'p90 [[['\n"
    #expect(RuleFileNesting.firstLineTooDeep(quoted, maximum: 8) == nil)
    #expect(RuleFileNesting.firstLineTooDeep("a: " + String(repeating: "[", count: 70)) == 1)
    #expect(RuleFileNesting.firstLineTooDeep("x: 1\n" + String(repeating: "- ", count: 70) + "y") == 2)
    #expect(throws: RuleFileError.self) { try RuleFileParser.parse(String(repeating: "[", count: 100_000), file: "f") }
  }

  // MARK: - Folded stacks

  @Test func foldedStacksMergeTheSameWayInAnyOrderAndElideDeepFrames() throws {
    func chain(_ n: Int, perThread: Bool) -> CallStackTree {
      var tree = CallStackTree(callStackPerThread: perThread)
      for i in 0..<n {
        tree.frames.append(
          CallStackTree.Frame(
            binaryUUID: nil, binaryName: "B", offsetIntoBinaryTextSegment: UInt64(i), address: nil,
            sampleCount: n - i, subFrames: i + 1 < n ? [i + 1] : [], depth: i))
      }
      tree.callStacks = [CallStackTree.CallStack(threadAttributed: true, rootFrames: [0])]
      return tree
    }
    func lines(_ s: FoldedStacks) -> [String] {
      var out: [String] = []
      s.forEachLine { out.append($0) }
      return out
    }
    var a = FoldedStacks(maximumDepth: 5)
    a.add(chain(12, perThread: false), under: FoldedStacks.root)
    #expect(lines(a).count == 6)
    #expect(lines(a).last == "B+0x0;B+0x1;B+0x2;B+0x3;B+0x4;[deeper frames elided] 7")
    // Per-thread trees read from the outermost frame: the innermost ones are elided.
    var p = FoldedStacks(maximumDepth: 3)
    p.add(chain(6, perThread: true), under: FoldedStacks.root)
    #expect(lines(p) == ["B+0x5;B+0x4;B+0x3;[deeper frames elided] 1"])
    var b = FoldedStacks(maximumDepth: 5)
    b.add(chain(3, perThread: false), under: FoldedStacks.root)
    var ab = a
    ab.merge(b)
    var ba = b
    ba.merge(a)
    #expect(lines(ab) == lines(ba))
    #expect(lines(ab).first == "B+0x0 2")
  }
}
