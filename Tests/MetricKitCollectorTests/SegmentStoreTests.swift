import Dispatch
import Foundation
import MetricKitAnalysis
import Synchronization
import TestSupport
import Testing

@testable import MetricKitCollector

/// The store: members any gzip reader reads, whose headers say what is stored; payloads stored once
/// across requests and restarts; what a crash leaves cut back to whole members; limits that refuse
/// rather than lose.
@Suite("Segment store")
struct SegmentStoreTests {
  /// A valid metric payload line of `bundle`, unique by `n`.
  static func line(_ n: Int, bundle: String = "com.example.app") -> [UInt8] {
    Array(
      """
      {"appVersion":"1.0","timeStampBegin":"2026-05-01 00:00:00","timeStampEnd":"2026-05-01 23:59:00",\
      "metaData":{"bundleIdentifier":"\(bundle)","deviceType":"iPhone14,2","applicationBuildVersion":"\(n)"},\
      "applicationLaunchMetrics":{"histogrammedTimeToFirstDrawKey":{"histogramValue":{"0":{"bucketStart":"\(100 + n) ms",\
      "bucketEnd":"\(110 + n) ms","bucketCount":1}}}}}
      """.utf8)
  }

  static func payloads(_ range: Range<Int>) -> [(id: PayloadID, line: [UInt8])] {
    range.map { (PayloadID(of: line($0)), line($0)) }
  }

  /// Every line stored under `root` (sealed segments only), by id.
  static func storedLines(_ root: URL) throws -> [PayloadID: Int] {
    var out: [PayloadID: Int] = [:]
    let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
    for file in files where file.hasSuffix(".ndjson.gz") && !(file as NSString).lastPathComponent.hasPrefix(".") {
      let data = try Data(contentsOf: root.appendingPathComponent(file))
      let text = try data.withUnsafeBytes { try GzipDecompressor.inflated($0, limit: 1 << 30) }
      for line in text.split(separator: 0x0A) { out[PayloadID(of: line), default: 0] += 1 }
    }
    return out
  }

  @Test func membersRoundTripAndTheirHeadersAloneSayWhatIsStored() throws {
    let payloads = Self.payloads(0..<5)
    let member = SegmentMember(ids: payloads.map(\.id), lines: payloads.flatMap { $0.line + [0x0A] })
    let bytes = try member.encoded() + member.encoded()
    try bytes.withUnsafeBytes { raw in
      let header = try SegmentMember.header(at: 0, of: raw)
      #expect(header.ids == payloads.map(\.id))
      let (decoded, end) = try SegmentMember.decode(at: header.end, of: raw)
      #expect(decoded == member && end == bytes.count)
      // zlib, through the library's reader, reads the two members as one stream.
      let text = try GzipDecompressor.inflated(raw, limit: 1 << 20)
      #expect(text == member.lines + member.lines)
    }
  }

  @Test func everyCutAndEveryFlippedByteIsCaughtNeverTrusted() throws {
    let payloads = Self.payloads(0..<3)
    let bytes = try SegmentMember(ids: payloads.map(\.id), lines: payloads.flatMap { $0.line + [0x0A] }).encoded()
    for cut in 0..<bytes.count {
      #expect(throws: SegmentError.self) {
        try Array(bytes[..<cut]).withUnsafeBytes { try SegmentMember.decode(at: 0, of: $0) }
      }
    }
    let member = try bytes.withUnsafeBytes { try SegmentMember.decode(at: 0, of: $0).0 }
    let lastDataByte = bytes.count - 9
    for position in 0..<bytes.count {
      // A flip in the header's MTIME, XFL or OS bytes changes nothing a reader uses.
      if (4..<10).contains(position) { continue }
      for bit in 0..<8 {
        var damaged = bytes
        damaged[position] ^= 1 << bit
        // Anywhere else a flip is refused, except in the padding bits after the deflate stream's
        // last block, which no inflater reads: there it must give back the very same member.
        do {
          let decoded = try damaged.withUnsafeBytes { try SegmentMember.decode(at: 0, of: $0).0 }
          #expect(decoded == member && position == lastDataByte, "byte \(position), bit \(bit)")
        } catch {}
      }
    }
    // A byte slipped in after the deflate data, with the header's length grown to cover it, leaves
    // a stream that ends before the data does: refused too.
    var grown = bytes
    grown.insert(0, at: lastDataByte + 1)
    let length = (0..<4).reduce(0) { $0 | Int(grown[17 + $1]) << (8 * $1) } + 1
    for k in 0..<4 { grown[17 + k] = UInt8(truncatingIfNeeded: length >> (8 * k)) }
    #expect(throws: SegmentError.self) {
      try grown.withUnsafeBytes { try SegmentMember.decode(at: 0, of: $0) }
    }
  }

  @Test func aPayloadIsStoredOnceAcrossRequestsBatchesAndRestarts() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let store = try SegmentStore(.init(root: dir, instance: "a"))
      let first = try await store.store(Self.payloads(0..<10), bundle: "com.example.app")
      #expect(first.stored == Self.payloads(0..<10).map(\.id) && first.duplicates.isEmpty)
      let again = try await store.store(Self.payloads(5..<15) + Self.payloads(14..<15), bundle: "com.example.app")
      #expect(again.stored == Self.payloads(10..<15).map(\.id))
      #expect(again.duplicates == Self.payloads(5..<10).map(\.id) + Self.payloads(14..<15).map(\.id))
      // Another bundle is its own namespace.
      let other = try await store.store(Self.payloads(0..<1), bundle: "com.example.other")
      #expect(other.stored.count == 1)
      await store.shutdown()
      let reopened = try SegmentStore(.init(root: dir, instance: "a"))
      let third = try await reopened.store(Self.payloads(0..<20), bundle: "com.example.app")
      #expect(third.stored == Self.payloads(15..<20).map(\.id) && third.duplicates.count == 15)
      await reopened.shutdown()
      let stored = try Self.storedLines(dir)
      // 20 lines of the app's, and one of the other bundle's (bytes the app's first payload has too).
      #expect(stored.count == 20 && stored.values.reduce(0, +) == 21)
      // Sealed segments are named after the instance and numbered on across restarts: the reopened
      // store's segment comes after every number the first one used, in either bundle.
      let today = SegmentStore.day(of: Date()).description
      func numbers(_ bundle: String) throws -> [Int] {
        try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("\(bundle)/\(today)").path)
          .map { name in
            #expect(name.hasPrefix("a-") && name.hasSuffix(".ndjson.gz") && name.count == "a-00000000.ndjson.gz".count)
            return Int(name.dropFirst(2).prefix(8)) ?? -1
          }.sorted()
      }
      let app = try numbers("com.example.app")
      let otherApp = try numbers("com.example.other")
      #expect(
        app.count >= 2 && otherApp.count == 1 && app.first == 0 && app.last! > otherApp[0], "\(app) \(otherApp)")
    }
  }

  @Test func concurrentRequestsShareGroupCommitsAndEachIsAnsweredForItsOwn() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let store = try SegmentStore(.init(root: dir, instance: "a"))
      let receipts = try await withThrowingTaskGroup(of: SegmentStore.Receipt.self) { group in
        for k in 0..<200 {
          group.addTask { try await store.store(Self.payloads((k % 100)..<(k % 100 + 1)), bundle: "com.example.app") }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      await store.shutdown()
      #expect(receipts.reduce(0) { $0 + $1.stored.count } == 100)
      #expect(receipts.reduce(0) { $0 + $1.duplicates.count } == 100)
      #expect(store.counters.commits < 200)
      #expect(try Self.storedLines(dir).count == 100)
    }
  }

  @Test func whatACrashLeavesOpenIsCutBackToWholeMembersAndSealed() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let folder = dir.appendingPathComponent("com.example.app/2026-05-01")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let whole = Self.payloads(0..<4)
      let torn = Self.payloads(4..<8)
      var bytes = try SegmentMember(ids: whole.map(\.id), lines: whole.flatMap { $0.line + [0x0A] }).encoded()
      let kept = bytes.count
      let next = try SegmentMember(ids: torn.map(\.id), lines: torn.flatMap { $0.line + [0x0A] }).encoded()
      bytes += next[..<(next.count - 9)]
      try Data(bytes).write(to: folder.appendingPathComponent(".a-00000007.ndjson.gz.open"))
      // Another collector's open segment is its own to recover: left alone.
      try Data(next).write(to: folder.appendingPathComponent(".b-00000001.ndjson.gz.open"))
      let store = try SegmentStore(.init(root: dir, instance: "a"))
      #expect(store.counters.recoveredSegments == 1 && store.counters.droppedTailBytes == next.count - 9)
      let sealed = folder.appendingPathComponent("a-00000007.ndjson.gz")
      #expect(try Data(contentsOf: sealed).count == kept)
      let receipt = try await store.store(Self.payloads(0..<8), bundle: "com.example.app")
      #expect(receipt.duplicates == whole.map(\.id) && receipt.stored == torn.map(\.id))
      await store.shutdown()
      #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".b-00000001.ndjson.gz.open").path))
      #expect(try Self.storedLines(dir).count == 8)
    }
  }

  @Test func aFullStoreRefusesAndLosesNothingItAcknowledged() async throws {
    try await withTemporaryDirectoryAsync { dir in
      var configuration = SegmentStore.Configuration(root: dir, instance: "a")
      configuration.maximumStoreBytes = 2_000
      let store = try SegmentStore(configuration)
      var acknowledged: [PayloadID] = []
      var refusals = 0
      for k in 0..<20 {
        do {
          acknowledged += try await store.store(Self.payloads(k..<(k + 1)), bundle: "com.example.app").stored
        } catch let error as StoreError {
          if case .full = error { refusals += 1 } else { throw error }
        }
      }
      await store.shutdown()
      #expect(refusals > 0 && !acknowledged.isEmpty)
      let stored = try Self.storedLines(dir)
      #expect(Set(stored.keys) == Set(acknowledged))
    }
  }

  @Test func dayFoldersPastTheRetentionAreRemovedWithTheirIDs() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let clock = Mutex(Date(timeIntervalSince1970: 86_400 * 20_000))
      var configuration = SegmentStore.Configuration(root: dir, instance: "a")
      configuration.retainDays = 2
      configuration.now = { clock.withLock { $0 } }
      let store = try SegmentStore(configuration)
      _ = try await store.store(Self.payloads(0..<3), bundle: "com.example.app")
      clock.withLock { $0 += 86_400 * 3 }
      // The day's end seals the old segment; the next pass removes its folder.
      _ = try await store.store(Self.payloads(3..<4), bundle: "com.example.app")
      try await Task.sleep(nanoseconds: 1_200_000_000)
      let again = try await store.store(Self.payloads(0..<1), bundle: "com.example.app")
      await store.shutdown()
      let days = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("com.example.app").path)
      #expect(days == [CalendarDay(daysSinceEpoch: 20_003).description])
      #expect(again.stored.count == 1)
    }
  }
}

/// The store at the edges: a disk that fills up in the middle of a member, two collectors on one
/// folder, a write that fails in a group commit that spans midnight, a folder that is not a store.
@Suite("Segment store at the edges")
struct SegmentStoreEdgeTests {
  /// Reads a segment as a reader stricter than gzip's: member after member from byte 0, each whole
  /// and checked, up to the file's last byte exactly (zero padding or a torn member is an error).
  static func strictlyRead(_ path: String) throws -> [PayloadID] {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    return try bytes.withUnsafeBytes { raw in
      var ids: [PayloadID] = []
      var offset = 0
      while offset < raw.count {
        let (member, end) = try SegmentMember.decode(at: offset, of: raw)
        ids += member.ids
        offset = end
      }
      return ids
    }
  }

  /// Every sealed segment under `root`, read strictly: each id with how often it is stored.
  static func strictlyStored(_ root: URL) throws -> [PayloadID: Int] {
    var out: [PayloadID: Int] = [:]
    let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
    for file in files where file.hasSuffix(".ndjson.gz") && !(file as NSString).lastPathComponent.hasPrefix(".") {
      for id in try strictlyRead(root.appendingPathComponent(file).path) { out[id, default: 0] += 1 }
    }
    return out
  }

  /// A disk that takes half of a member and then says it is full: the request is refused, room is
  /// made, the same payloads are stored, and the segment reads strictly, member by member, with
  /// every acknowledged payload once (a write at the descriptor's offset would have left a hole
  /// where the cut half was).
  @Test func aShortWriteOnAFullDiskLeavesNoHoleBeforeTheNextMember() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let full = Atomic<Bool>(false)
      var configuration = SegmentStore.Configuration(root: dir, instance: "a")
      configuration.write = { fd, bytes, offset in
        if full.load(ordering: .relaxed) {
          let half = pwrite(fd, bytes.baseAddress, max(1, bytes.count / 2), off_t(offset))
          _ = half
          return (-1, ENOSPC)
        }
        let n = pwrite(fd, bytes.baseAddress, bytes.count, off_t(offset))
        return (n, n < 0 ? errno : 0)
      }
      let store = try SegmentStore(configuration)
      var acknowledged = try await store.store(SegmentStoreTests.payloads(0..<5), bundle: "com.example.app").stored
      full.store(true, ordering: .relaxed)
      await #expect(throws: StoreError.full("no space left on the device")) {
        try await store.store(SegmentStoreTests.payloads(5..<10), bundle: "com.example.app")
      }
      #expect(store.counters.full)
      full.store(false, ordering: .relaxed)
      acknowledged += try await store.store(SegmentStoreTests.payloads(5..<10), bundle: "com.example.app").stored
      #expect(!store.counters.full)
      await store.shutdown()
      let stored = try Self.strictlyStored(dir)
      #expect(Set(stored.keys) == Set(acknowledged) && stored.values.allSatisfy { $0 == 1 } && stored.count == 10)
    }
  }

  /// `web` started beside a running `web-2` (a name that starts with its own) owns only its own
  /// names: `web-2`'s open segment is neither cut nor sealed, and everything both acknowledged reads
  /// back once. A second process named `web-2` refuses to start.
  @Test func twoInstancesOnOneFolderTouchOnlyTheirOwnSegments() async throws {
    try await withTemporaryDirectoryAsync { dir in
      // Sealed by nothing but shutdown: on a loaded machine a test may wait minutes for a thread, and
      // a segment sealed for its age in the meantime would leave nothing open to look at.
      func configuration(_ instance: String) -> SegmentStore.Configuration {
        var configuration = SegmentStore.Configuration(root: dir, instance: instance)
        configuration.sealAge = .infinity
        return configuration
      }
      let second = try SegmentStore(configuration("web-2"))
      var acknowledged = try await second.store(SegmentStoreTests.payloads(0..<10), bundle: "com.example.app").stored
      let open = try FileManager.default.subpathsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".open") }
      try #require(open.count == 1)
      let before = try Data(contentsOf: dir.appendingPathComponent(open[0]))
      let first = try SegmentStore(configuration("web"))
      #expect(first.counters.recoveredSegments == 0)
      #expect(try Data(contentsOf: dir.appendingPathComponent(open[0])) == before)
      #expect(throws: StoreError.instanceRunning("web-2")) { try SegmentStore(configuration("web-2")) }
      acknowledged += try await second.store(SegmentStoreTests.payloads(10..<20), bundle: "com.example.app").stored
      acknowledged += try await first.store(SegmentStoreTests.payloads(20..<30), bundle: "com.example.app").stored
      await first.shutdown()
      await second.shutdown()
      let stored = try Self.strictlyStored(dir)
      #expect(Set(stored.keys) == Set(acknowledged) && stored.count == 30 && stored.values.allSatisfy { $0 == 1 })
      // Once it has stopped, the name is free again.
      let again = try SegmentStore(.init(root: dir, instance: "web-2"))
      await again.shutdown()
    }
  }

  /// One group commit holds a request filed under a day and one filed under the next (midnight
  /// passed between them) that carries the same payload. The first day's write fails: both are
  /// refused, since the second one's "duplicate" would point at bytes that were never written.
  @Test func aDuplicateOfAFailedWriteInTheSameGroupCommitFailsToo() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let clock = Mutex(Date(timeIntervalSince1970: 86_400 * 20_000 + 86_399))
      let gate = DispatchSemaphore(value: 0)
      let writes = Atomic<Int>(0)
      var configuration = SegmentStore.Configuration(root: dir, instance: "a")
      configuration.now = { clock.withLock { $0 } }
      configuration.write = { fd, bytes, offset in
        switch writes.wrappingAdd(1, ordering: .relaxed).newValue {
        case 1: gate.wait()  // holds the writer while the next two requests queue up
        case 2: return (-1, EIO)
        default: break
        }
        let n = pwrite(fd, bytes.baseAddress, bytes.count, off_t(offset))
        return (n, n < 0 ? errno : 0)
      }
      let store = try SegmentStore(configuration)
      let shared = SegmentStoreTests.payloads(1..<2)
      async let held = store.store(SegmentStoreTests.payloads(0..<1), bundle: "com.example.app")
      try await Task.sleep(nanoseconds: 300_000_000)
      func attempt() async -> Result<SegmentStore.Receipt, any Error> {
        do { return .success(try await store.store(shared, bundle: "com.example.app")) } catch {
          return .failure(error)
        }
      }
      async let before = attempt()
      try await Task.sleep(nanoseconds: 100_000_000)
      clock.withLock { $0 += 2 }
      async let after = attempt()
      try await Task.sleep(nanoseconds: 100_000_000)
      #expect(store.counters.pendingRequests == 2)
      gate.signal()
      _ = try await held
      let (first, second) = await (before, after)
      #expect(throws: StoreError.self) { try first.get() }
      #expect(throws: StoreError.self) { try second.get() }
      // Sent again, it is stored, once.
      let retried = try await store.store(shared, bundle: "com.example.app")
      #expect(retried.stored == shared.map(\.id))
      await store.shutdown()
      #expect(try Self.strictlyStored(dir).count == 2)
    }
  }

  /// A folder that holds something no collector writes is refused, and nothing in it is touched;
  /// retention removes only sealed segments, never through a link, and keeps what is not a segment;
  /// a retention below a day is refused.
  @Test func retentionTouchesOnlyTheStoresOwnSegments() async throws {
    try await withTemporaryDirectoryAsync { dir in
      let home = dir.appendingPathComponent("home")
      let photo = home.appendingPathComponent("Photos/2019-05-03/beach.jpg")
      try FileManager.default.createDirectory(at: photo.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("jpeg".utf8).write(to: photo)
      var refused = SegmentStore.Configuration(root: home, instance: "a")
      refused.retainDays = 30
      #expect(throws: StoreError.notAStore(home.path, "Photos/2019-05-03/beach.jpg")) { try SegmentStore(refused) }
      #expect(FileManager.default.fileExists(atPath: photo.path))

      // A store whose old day holds a note, and a bundle folder that is a link to the photos.
      let root = dir.appendingPathComponent("store")
      let clock = Mutex(Date(timeIntervalSince1970: 86_400 * 20_000))
      var configuration = SegmentStore.Configuration(root: root, instance: "a")
      configuration.now = { clock.withLock { $0 } }
      let store = try SegmentStore(configuration)
      _ = try await store.store(SegmentStoreTests.payloads(0..<3), bundle: "com.example.app")
      await store.shutdown()
      let oldDay = root.appendingPathComponent("com.example.app/\(CalendarDay(daysSinceEpoch: 20_000))")
      try Data("mine".utf8).write(to: oldDay.appendingPathComponent("notes.txt"))
      try FileManager.default.createSymbolicLink(
        at: root.appendingPathComponent("com.example.linked"), withDestinationURL: home.appendingPathComponent("Photos")
      )
      clock.withLock { $0 += 86_400 * 40 }
      configuration.retainDays = 30
      let later = try SegmentStore(configuration)
      await later.shutdown()
      #expect(try FileManager.default.contentsOfDirectory(atPath: oldDay.path) == ["notes.txt"])
      #expect(FileManager.default.fileExists(atPath: photo.path))
      configuration.retainDays = -1
      #expect(throws: StoreError.badRetention(-1)) { try SegmentStore(configuration) }
    }
  }

  @Test func segmentNamesBelongToExactlyOneInstance() {
    #expect(
      SegmentName(parsing: ".web-2-00000007.ndjson.gz.open")
        == SegmentName(instance: "web-2", sequence: 7, isOpen: true))
    #expect(SegmentName(parsing: "web-00000012.ndjson.gz") == SegmentName(instance: "web", sequence: 12, isOpen: false))
    #expect(SegmentName(parsing: "web-123456789.ndjson.gz")?.sequence == 123_456_789)
    for other in [
      "web.ndjson.gz", "-00000001.ndjson.gz", "web-0001.ndjson.gz", ".web-00000001.ndjson.gz", "web-00000001.json",
    ] {
      #expect(SegmentName(parsing: other) == nil, "\(other)")
    }
    #expect(SegmentName(instance: "web", sequence: 3, isOpen: true).open == ".web-00000003.ndjson.gz.open")
  }
}
