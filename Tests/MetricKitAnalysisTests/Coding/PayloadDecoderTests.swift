import Foundation
import PayloadSynthesis
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// Containers, JSON quirks and error reporting of the payload decoder.
@Suite("Payload decoding")
struct PayloadDecoderTests {
  static let minimal =
    #"{"appVersion": "2.0", "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": "#
    + Support.histogramJSON([(100, 110, 3)]) + "}}"

  @Test func quirksMapOntoAPINames() throws {
    let json = """
      {"appVersion": "3.9.0", "multipleAppVersions": "1", "someFutureKey": {"x": [1, 2]},
       "timeStampBegin": "2024-05-01 00:00:00 +0000", "timeStampEnd": "2024-05-01 23:59:00",
       "applicationLaunchMetrics": {
         "histogrammedTimeToFirstDrawKey": \(Support.histogramJSON([(100, 110, 3)])),
         "histogrammedResumeTime": \(Support.histogramJSON([(10, 20, 4)])),
         "histogrammedOptimizedTimeToFirstDrawKey": \(Support.histogramJSON([(50, 60, 5)]))},
       "applicationResponsivenessMetrics": {"histogrammedAppHangTime": \(Support.histogramJSON([(0, 100, 6)]))},
       "cellularConditionMetrics": {"cellConditionTime": \(Support.histogramJSON([(3, 3, 7)], unit: "bars"))},
       "animationMetrics": {"scrollHitchTimeRatio": "12 ms per s", "hitchTimeRatio": "3 ms per s"},
       "applicationExitMetrics": {"foregroundExitData": {}, "backgroundExitData": {"cumulativeMemoryPressureExitCount": 2}},
       "metaData": {"appBuildVersion": "391", "lowPowerModeEnabled": true, "isTestFlightApp": false, "pid": 42}}
      """
    let p = try Support.metricPayload(json)
    #expect(p.latestApplicationVersion == "3.9.0")
    #expect(p.includesMultipleApplicationVersions)
    #expect(p.timeZoneAssumed)
    #expect(p.applicationLaunchMetrics?.histogrammedTimeToFirstDraw?.sampleCount == 3)
    #expect(p.applicationLaunchMetrics?.histogrammedApplicationResumeTime?.sampleCount == 4)
    #expect(p.applicationLaunchMetrics?.histogrammedOptimizedTimeToFirstDraw?.sampleCount == 5)
    #expect(p.applicationResponsivenessMetrics?.histogrammedApplicationHangTime?.sampleCount == 6)
    #expect(
      p.cellularConditionMetrics?.histogrammedCellularConditionTime?.buckets == [.init(start: 3, end: 3, count: 7)])
    #expect(p.animationMetrics?.scrollHitchTimeRatio?.value == 12)
    #expect(p.animationMetrics?.hitchTimeRatio?.value == 3)
    #expect(p.applicationExitMetrics?.foregroundExitData.cumulativeAbnormalExitCount == 0)
    #expect(p.applicationExitMetrics?.backgroundExitData.cumulativeMemoryPressureExitCount == 2)
    #expect(p.metaData?.lowPowerModeEnabled == true)
    #expect(p.metaData?.isTestFlightApp == false)
    #expect(p.metaData?.pid == 42)
  }

  @Test func booleanMultipleVersionsKeyIsAccepted() throws {
    let p = try Support.metricPayload(#"{"appVersion": "1", "includesMultipleApplicationVersions": true}"#)
    #expect(p.includesMultipleApplicationVersions)
    let q = try Support.metricPayload(#"{"appVersion": "1", "includesMultipleApplicationVersions": false}"#)
    #expect(!q.includesMultipleApplicationVersions)
  }

  @Test func histogramKeysSortNumericallyGapsAndEmptyEntriesAreFine() throws {
    let json = """
      {"appVersion": "1", "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": {"histogramNumBuckets": 9,
       "histogramValue": {"10": {"bucketStart": "1,530 ms", "bucketEnd": "1,539 ms", "bucketCount": 1},
                          "2": {"bucketStart": "1,260 ms", "bucketEnd": "1,269 ms", "bucketCount": 2},
                          "5": {},
                          "3": {"bucketStart": "1,330 ms", "bucketEnd": "1,339 ms", "bucketCount": 3}}}}}
      """
    let h = try #require(try Support.metricPayload(json).applicationLaunchMetrics?.histogrammedTimeToFirstDraw)
    #expect(h.buckets.map(\.start) == [1260, 1330, 1530])
    #expect(h.declaredBucketCount == 9)
    #expect(h.hasBucketCountMismatch)
  }

  @Test func badValuesNameKeyPathAndText() throws {
    let unit = try Support.decodingError(
      #"{"appVersion": "1", "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": "#
        + Support.histogramJSON([(100, 110, 3)], unit: "parsecs") + "}}")
    #expect(
      unit.keyPath == [
        "applicationLaunchMetrics", "histogrammedTimeToFirstDrawKey", "histogramValue", "0", "bucketStart",
      ])
    #expect(unit.reason.contains("\"100 parsecs\""))

    let negative = try Support.decodingError(
      #"{"appVersion": "1", "applicationResponsivenessMetrics": {"histogrammedAppHangTime": "#
        + Support.histogramJSON([(0, 100, -4)]) + "}}")
    #expect(negative.keyPath.last == "bucketCount")
    #expect(negative.reason.contains("negative count -4"))

    let kind = try Support.decodingError(#"{"appVersion": "1", "memoryMetrics": {"peakMemoryUsage": "20 ms"}}"#)
    #expect(kind.keyPath == ["memoryMetrics", "peakMemoryUsage"])
    #expect(kind.reason.contains("expected an amount of data"))

    let type = try Support.decodingError(#"{"appVersion": 3.9, "cpuMetrics": {}}"#)
    #expect(type.keyPath == ["appVersion"])

    let inverted = try Support.decodingError(
      #"{"appVersion": "1", "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": "#
        + Support.histogramJSON([(200, 100, 1)]) + "}}")
    #expect(inverted.reason.contains("above bucketEnd"))
  }

  @Test func arraysAndNDJSONReportEachBadPayloadAlone() throws {
    let bad = #"{"appVersion": "1", "cpuMetrics": {"cumulativeCPUTime": "lots"}}"#
    let array = Support.decode("[\(Self.minimal), \(bad), \(Self.minimal)]")
    #expect(array.count == 3)
    #expect(array.map { if case .success = $0.1 { true } else { false } } == [true, false, true])
    #expect(array[1].0.index == 1)

    let ndjson = Support.decode("\(Self.minimal)\n\n\(bad)\n{\"truncated\": \n\(Self.minimal)\n", name: "d.ndjson")
    #expect(ndjson.count == 4)
    #expect(ndjson.map(\.0.line) == [1, 3, 4, 5])
    if case .failure(let e) = ndjson[2].1 { #expect(e.reason.contains("invalid JSON")) } else { Issue.record() }

    // Without the .ndjson name: detected from the first line.
    #expect(Support.decode("\(Self.minimal)\n\(Self.minimal)\n").count == 2)
  }

  @Test func emptyAndNonPayloadDocuments() throws {
    #expect(try Support.decodingError("  \n").reason == "empty file")
    #expect(try Support.decodingError("{}").reason.contains("the object is empty"))
    #expect(try Support.decodingError("42").reason.contains("expected a payload object"))
    let diag = Support.decode(#"{"crashDiagnostics": [], "timeStampBegin": "2020-10-10 19:35:24 +0000"}"#)
    if case .success(.diagnosticPayload(let p, .diagnosticPayload)) = diag[0].1 {
      #expect(p.diagnostics.isEmpty)
    } else {
      Issue.record("not recognized")
    }
  }

  @Test func deepNestingWithinTheLimitDecodesAndBeyondIsRejected() throws {
    let deep = String(repeating: "[", count: 15_000) + String(repeating: "]", count: 15_000)
    let json = #"{"appVersion": "1", "unknownDeepKey": "# + deep + "}"
    #expect(try Support.metricPayload(json).latestApplicationVersion == "1")
    let tooDeep = Support.decode(json, limits: InputLimits(maximumDepth: 1000))
    if case .failure(let e) = tooDeep[0].1 { #expect(e.reason.contains("invalid JSON")) } else { Issue.record() }
  }

  @Test func gzipFilesAndDirectoriesAreRead() throws {
    try withTemporaryDirectory { dir in
      try FileManager.default.createDirectory(at: dir.appendingPathComponent("b/c"), withIntermediateDirectories: true)
      try Data(Self.minimal.utf8).write(to: dir.appendingPathComponent("b/one.json"))
      try SampleDump.gzip(Data(Self.minimal.utf8)).write(to: dir.appendingPathComponent("b/c/two.json.gz"))
      // Double-gzipped, as some upload pipelines do.
      try SampleDump.gzip(SampleDump.gzip(Data(Self.minimal.utf8))).write(to: dir.appendingPathComponent("a.gz"))
      try Data("x".utf8).write(to: dir.appendingPathComponent("notes.txt"))
      try Data([0x1f, 0x8b, 0x08, 0x00, 0x01]).write(to: dir.appendingPathComponent("fake.json.gz"))
      let read = PayloadReader().readAll(paths: [dir.path])
      let (payloads, rejected) = (read.metricPayloads, read.rejected)
      #expect(payloads.count == 3)
      #expect(rejected.count == 1)
      #expect(rejected.first?.location.path.hasSuffix("fake.json.gz") == true)
      #expect(rejected.first?.reason.contains("gzip") == true)
      let discovery = InputDiscovery().discover([dir.path])
      #expect(
        discovery.files.map { URL(fileURLWithPath: $0.description).lastPathComponent } == [
          "a.gz", "two.json.gz", "one.json", "fake.json.gz",
        ])
      #expect(discovery.ignored.count == 1)
    }
  }

  @Test func symbolicLinkLoopsAreWalkedOnce() throws {
    try withTemporaryDirectory { dir in
      try Data(Self.minimal.utf8).write(to: dir.appendingPathComponent("p.json"))
      try FileManager.default.createSymbolicLink(
        at: dir.appendingPathComponent("loop"), withDestinationURL: dir)
      #expect(PayloadReader().readAll(paths: [dir.path]).metricPayloads.count == 1)
    }
  }
}

extension PayloadDecoderTests {
  /// Whole gzip files and gzip NDJSON streams: concatenated members are one stream,
  /// truncation and the decompressed-size limit are reasons.
  @Test func gzipMembersTruncationAndBombs() throws {
    try withTemporaryDirectory { dir in
      let one = try SampleDump.gzip(Data((Self.minimal + "\n").utf8))
      try (one + one).write(to: dir.appendingPathComponent("two-members.ndjson.gz"))
      try (one + one).write(to: dir.appendingPathComponent("two-members.gz"))
      try one.prefix(one.count - 12).write(to: dir.appendingPathComponent("cut.json.gz"))
      let big = try SampleDump.gzip(Data(repeating: 0x20, count: 2_000_000))
      try big.write(to: dir.appendingPathComponent("bomb.json.gz"))
      let reader = PayloadReader(limits: InputLimits(maximumDecompressedSize: 1_000_000))
      let read = reader.readAll(paths: [dir.path])
      let (payloads, rejected) = (read.metricPayloads, read.rejected)
      #expect(payloads.count == 4)
      let reasons = Dictionary(
        uniqueKeysWithValues: rejected.map { (URL(fileURLWithPath: $0.location.path).lastPathComponent, $0.reason) })
      #expect(reasons["cut.json.gz"]?.contains("truncated gzip stream") == true, "\(reasons)")
      #expect(reasons["bomb.json.gz"]?.contains("decompressed-size limit") == true, "\(reasons)")
      #expect(rejected.count == 2)
    }
  }
}

extension PayloadDecoderTests {
  /// A whole gzip file inflates through libdeflate member by member, growing past the trailer's size
  /// hint (which states the last member only), to exactly the bytes compressed; at the limit it
  /// passes, one byte under it is refused; data libdeflate refuses gets zlib's wording.
  @Test func wholeGzipFilesInflateExactly() throws {
    let small = Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    let large = Data((0..<300_000).map { UInt8(ascii: "a") + UInt8(truncatingIfNeeded: ($0 / 13) % 26) })
    let twoMembers = try SampleDump.gzip(large) + SampleDump.gzip(small) + SampleDump.gzip(large)
    let expected = large + small + large
    func inflate(_ data: Data, limit: Int) throws(InputError) -> Data {
      let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 1)
      defer { raw.deallocate() }
      data.copyBytes(to: raw.bindMemory(to: UInt8.self))
      let buffer = try GzipDecompressor.decompress(UnsafeRawBufferPointer(raw), limit: limit)
      return withExtendedLifetime(buffer) { Data(buffer.bytes) }
    }
    #expect(try inflate(twoMembers, limit: 1 << 30) == expected)
    #expect(try inflate(twoMembers, limit: expected.count) == expected)
    #expect(throws: InputError.self) { try inflate(twoMembers, limit: expected.count - 1) }
    do throws(InputError) {
      _ = try inflate(twoMembers, limit: expected.count - 1)
    } catch {
      #expect(error.reason.contains("decompressed-size limit"), "\(error.reason)")
    }
    // A valid member, then bytes that are not one.
    let damaged = try SampleDump.gzip(small) + Data([0x1f, 0x8b, 8, 0, 1, 2, 3])
    do throws(InputError) {
      _ = try inflate(damaged, limit: 1 << 20)
      Issue.record("a damaged second member was accepted")
    } catch {
      #expect(error.reason.contains("gzip stream"), "\(error.reason)")
    }
  }
}

extension PayloadDecoderTests {
  /// Bucket keys in any order come out in index order: a permutation (placed by index), sparse keys,
  /// a repeated key (kept in document order, stably) and empty `{}` entries (dropped); the same
  /// strings again hit the measurement cache and decode to the same values.
  @Test func bucketKeysInAnyOrderComeOutInIndexOrder() throws {
    func bucket(_ key: String, _ start: Int, _ count: Int) -> String {
      "\"\(key)\": {\"bucketStart\": \"\(start) ms\", \"bucketEnd\": \"\(start + 10) ms\", \"bucketCount\": \(count)}"
    }
    func payload(_ entries: [String]) -> String {
      #"{"appVersion": "1.0", "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": "#
        + #"{"histogramNumBuckets": 9, "histogramValue": {"# + entries.joined(separator: ", ") + "}}}}"
    }
    let cases: [(entries: [String], starts: [Int])] = [
      ([bucket("2", 20, 1), bucket("0", 0, 2), bucket("3", 30, 3), bucket("1", 10, 4)], [0, 10, 20, 30]),
      ([bucket("100", 90, 1), bucket("5", 50, 2), bucket("0", 0, 3)], [0, 50, 90]),
      ([bucket("1", 10, 1), bucket("0", 0, 2), bucket("1", 11, 3)], [0, 10, 11]),
      ([bucket("1", 10, 1), "\"2\": {}", bucket("0", 0, 2)], [0, 10]),
    ]
    // One NDJSON input, every case twice: one parser, so the second time every edge is a cache hit.
    let text = (cases + cases).map { payload($0.entries) }.joined(separator: "\n")
    let results = text.utf8CString.withUnsafeBytes { raw in
      PayloadDecoder().decode(UnsafeRawBufferPointer(rebasing: raw.dropLast()), path: "cases.ndjson")
    }
    #expect(results.count == 2 * cases.count)
    for (result, (entries, starts)) in zip(results, cases + cases) {
      guard case .success(.metricPayload(let p, _)) = result.result else {
        Issue.record("\(entries): \(result.result)")
        continue
      }
      let buckets = try #require(p.applicationLaunchMetrics?.histogrammedTimeToFirstDraw?.buckets)
      #expect(buckets.map(\.start) == starts.map(Double.init), "\(entries)")
      #expect(buckets.map(\.end) == starts.map { Double($0 + 10) }, "\(entries)")
    }
  }
}
