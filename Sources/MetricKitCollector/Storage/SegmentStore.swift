import Dispatch
import Foundation
import MetricKitAnalysis
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where accepted payloads are kept, durably and once: `ROOT/<bundle>/<yyyy-mm-dd>/<instance>-<n>.ndjson.gz`,
/// the day being the day (UTC) the collector received them.
///
/// Requests hand their payloads to one writer thread and wait. The writer takes everything waiting
/// at once (a group commit), leaves out payloads already stored, appends one gzip member per bundle
/// and day to that day's open segment, syncs every file it wrote (and the folders it created), and
/// only then answers each request: an answer means the bytes are on disk. A segment is written
/// under a hidden name and renamed when sealed (by size, age, the day's end or shutdown), so a
/// reader of the folder never sees one being written; after a crash the open segments left behind
/// are cut back to their last whole member and sealed at start-up.
///
/// What was stored is known by id, from the members' headers, across restarts.
///
/// As a `Service`, the store runs until its group's graceful shutdown, then writes what waits and
/// seals every segment.
public final class SegmentStore: Service, Sendable {
  /// How the store behaves.
  public struct Configuration: Sendable {
    /// The folder segments are written under.
    public var root: URL
    /// This collector's name in its segments' names (several collectors can share one folder).
    public var instance: String
    /// A segment is sealed once its compressed size reaches this.
    public var sealBytes = 32 << 20
    /// A segment is sealed once it is this old, in seconds.
    public var sealAge: Double = 300
    /// Payload bytes waiting for the writer beyond which new requests are refused (backpressure).
    public var maximumPendingBytes = 64 << 20
    /// The most bytes the store's segments may take (nil: until the disk is full).
    public var maximumStoreBytes: Int?
    /// Day folders older than this many days are removed (nil: kept).
    public var retainDays: Int?
    /// The clock (the day payloads are filed under, and segments' ages).
    public var now: @Sendable () -> Date = { Date() }
    /// How bytes reach a segment: `pwrite` at an offset (a test injects short writes and a full
    /// disk). Returns the bytes written, or -1 with the error's `errno`.
    public var write: PositionalWrite = { fd, bytes, offset in
      let n = pwrite(fd, bytes.baseAddress, bytes.count, off_t(offset))
      return (n, n < 0 ? errno : 0)
    }

    /// A configuration for `root`, naming segments after `instance`.
    public init(root: URL, instance: String) {
      self.root = root
      self.instance = instance
    }
  }

  /// Writes bytes to a file at an offset: the bytes written, or -1 and `errno`.
  public typealias PositionalWrite =
    @Sendable (
      _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: Int
    ) -> (written: Int, errno: Int32)

  /// What became of a request's payloads.
  public struct Receipt: Sendable, Equatable {
    /// Stored by this request.
    public var stored: [PayloadID]
    /// Already stored before (by an earlier request, or earlier in this one).
    public var duplicates: [PayloadID]
  }

  /// What the store did, for the collector's metrics.
  public struct Counters: Sendable, Equatable {
    /// Payloads written and synced.
    public var payloadsStored = 0
    /// Payloads already stored, answered without being written again.
    public var duplicates = 0
    /// Compressed bytes appended to segments.
    public var bytesStored = 0
    /// Group commits.
    public var commits = 0
    /// Segments sealed.
    public var segmentsSealed = 0
    /// Group commits that synced files, and the seconds their syncs took.
    public var syncs = 0
    public var syncSeconds = 0.0
    /// Payload bytes and requests waiting for the writer.
    public var pendingBytes = 0
    public var pendingRequests = 0
    /// Bytes of the store's segments.
    public var storeBytes = 0
    /// Stored ids the idempotency index holds, and the bytes of its tables.
    public var indexedPayloads = 0
    public var indexBytes = 0
    /// Open segments a stop left behind, sealed at start-up, and the torn bytes cut from them.
    public var recoveredSegments = 0
    public var droppedTailBytes = 0
    /// Segments whose renaming to their sealed name failed (tried again at the next pass).
    public var sealFailures = 0
    /// Whether the last append found no room (the disk, or the store's limit): cleared by the next
    /// append that succeeds.
    public var full = false
    /// Whether the last group commit failed to write or sync for another reason.
    public var failing = false
  }

  private struct Commit: Sendable {
    var bundle: String
    var day: CalendarDay
    var payloads: [(id: PayloadID, line: [UInt8])]
    var answer: CheckedContinuation<Receipt, any Error>
  }

  private struct OpenSegment {
    var bundle: String
    var day: CalendarDay
    var descriptor: Int32
    var hiddenPath: String
    var sealedPath: String
    var folder: String
    var size: Int
    var opened: Date
  }

  private struct State: ~Copyable {
    var pending: [Commit] = []
    var pendingBytes = 0
    var closing = false
    var closed = false
    var closers: [CheckedContinuation<Void, Never>] = []
    var counters = Counters()
  }

  /// What only the writer thread touches.
  private final class WriterState: @unchecked Sendable {
    var open: [String: OpenSegment] = [:]
    var index: [String: PayloadIndex] = [:]
    var nextSequence = 0
    var storeBytes = 0
    var lastRetention: CalendarDay?
    /// Segments written and closed whose rename failed: renamed at the next pass.
    var unsealed: [OpenSegment] = []
    /// The instance's lock on the folder, held while the store is open.
    var lock: Int32 = -1

    /// Writes the segments' bytes, the ids indexed and their tables' bytes into `counters`.
    func sizes(into counters: inout Counters) {
      counters.storeBytes = storeBytes
      (counters.indexedPayloads, counters.indexBytes) = index.values.reduce((0, 0)) {
        ($0.0 + $1.count, $0.1 + $1.bytes)
      }
    }
  }

  /// How the store behaves.
  public let configuration: Configuration
  private let state = Mutex(State())
  private let writer = WriterState()
  private let wake = DispatchSemaphore(value: 0)

  /// Opens the store at `configuration.root`: takes the folder (a new or empty one, or a store; any
  /// other folder is refused), takes this instance's lock on it (refused while another process holds
  /// it), seals what a crash of this instance left open, learns what is stored, and starts the writer.
  public init(_ configuration: Configuration) throws(StoreError) {
    self.configuration = configuration
    guard Self.isPlainName(configuration.instance) else { throw .badName(configuration.instance) }
    if let days = configuration.retainDays, days < 1 { throw .badRetention(days) }
    try StoreFolder.claim(configuration.root.path)
    writer.lock = try StoreFolder.lock(configuration.root.path, instance: configuration.instance)
    let recovered: (segments: Int, dropped: Int)
    do { recovered = try recover() } catch {
      closeDescriptor(writer.lock)
      throw error
    }
    state.withLock {
      $0.counters.recoveredSegments = recovered.segments
      $0.counters.droppedTailBytes = recovered.dropped
    }
    removeExpiredDays()
    state.withLock { writer.sizes(into: &$0.counters) }
    let thread = Thread { [self] in run() }
    thread.name = "segment-writer"
    thread.start()
  }

  /// Stores `payloads` of `bundle`, filed under today: returns once they are on disk, saying which
  /// were new. Throws when the store is overloaded, full, failing or shutting down; then nothing of
  /// this request is stored.
  public func store(_ payloads: [(id: PayloadID, line: [UInt8])], bundle: String) async throws -> Receipt {
    let day = Self.day(of: configuration.now())
    let bytes = payloads.reduce(0) { $0 + $1.line.count }
    return try await withCheckedThrowingContinuation { answer in
      let refusal: StoreError? = state.withLock { s in
        if s.closing { return .shuttingDown }
        if s.pendingBytes + bytes > configuration.maximumPendingBytes, !s.pending.isEmpty { return .overloaded }
        s.pending.append(Commit(bundle: bundle, day: day, payloads: payloads, answer: answer))
        s.pendingBytes += bytes
        return nil
      }
      if let refusal { answer.resume(throwing: refusal) } else { wake.signal() }
    }
  }

  /// A copy of the counters, with what waits for the writer now.
  public var counters: Counters {
    state.withLock { s in
      var counters = s.counters
      (counters.pendingBytes, counters.pendingRequests) = (s.pendingBytes, s.pending.count)
      return counters
    }
  }

  /// Runs until the service group shuts down gracefully (or the task is cancelled), then shuts the
  /// store down.
  public func run() async throws {
    try? await gracefulShutdown()
    await shutdown()
  }

  /// Stops taking requests, writes what waits, seals every open segment and stops the writer;
  /// returns once that is done (at once if it was).
  public func shutdown() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let resumeNow = state.withLock { s in
        if s.closed { return true }
        s.closing = true
        s.closers.append(done)
        return false
      }
      if resumeNow { done.resume() } else { wake.signal() }
    }
  }

  // MARK: - The writer

  private func run() {
    while true {
      _ = wake.wait(timeout: .now() + .milliseconds(500))
      let (batch, closing) = state.withLock { s in
        let batch = s.pending
        s.pending = []
        s.pendingBytes = 0
        return (batch, s.closing)
      }
      if !batch.isEmpty { commit(batch) }
      sealDue(all: closing)
      removeExpiredDays()
      if closing {
        closeDescriptor(writer.lock)
        let closers = state.withLock { s in
          s.closed = true
          return s.closers
        }
        for closer in closers { closer.resume() }
        return
      }
    }
  }

  /// Writes a batch of requests as one group commit and answers each.
  ///
  /// A request's payloads go to its bundle's and day's group. A payload already stored is a
  /// duplicate; one that an earlier request of the same batch carries is a duplicate of that
  /// request's group, and the answer depends on that group's write too (a batch can span midnight:
  /// the two requests then write to different days). A group's ids are indexed only once its bytes
  /// are written and synced.
  private func commit(_ batch: [Commit]) {
    struct Group {
      var bundle: String
      var day: CalendarDay
      var members: [SegmentMember] = []
      var failure: StoreError?
    }
    var groups: [String: Group] = [:]
    var order: [String] = []
    var seenIn: [String: [PayloadID: String]] = [:]
    var receipts = Array(repeating: Receipt(stored: [], duplicates: []), count: batch.count)
    var dependsOn = Array(repeating: Set<String>(), count: batch.count)
    for (n, request) in batch.enumerated() {
      let key = Self.segmentKey(request.bundle, request.day)
      if groups[key] == nil {
        groups[key] = Group(bundle: request.bundle, day: request.day)
        order.append(key)
      }
      dependsOn[n].insert(key)
      for (id, line) in request.payloads {
        if writer.index[request.bundle]?.contains(id) == true {
          receipts[n].duplicates.append(id)
          continue
        }
        if let earlier = seenIn[request.bundle]?[id] {
          receipts[n].duplicates.append(id)
          dependsOn[n].insert(earlier)
          continue
        }
        seenIn[request.bundle, default: [:]][id] = key
        receipts[n].stored.append(id)
        if groups[key]!.members.last.map({ $0.ids.count >= SegmentMember.maximumPayloads }) ?? true {
          groups[key]!.members.append(SegmentMember(ids: [], lines: []))
        }
        let last = groups[key]!.members.count - 1
        groups[key]!.members[last].ids.append(id)
        groups[key]!.members[last].lines += line
        groups[key]!.members[last].lines.append(0x0A)
      }
    }
    var written: [String] = []
    var bytesWritten = 0
    var full = false
    for key in order where !groups[key]!.members.isEmpty {
      let group = groups[key]!
      do throws(StoreError) {
        var encoded: [UInt8] = []
        for member in group.members {
          do { encoded += try member.encoded() } catch { throw .io("compress a member: \(error)", ENOMEM) }
        }
        try append(encoded, bundle: group.bundle, day: group.day)
        written.append(key)
        bytesWritten += encoded.count
      } catch {
        if case .full = error { full = true }
        groups[key]!.failure = error
      }
    }
    let start = DispatchTime.now()
    for key in written {
      guard let segment = writer.open[key] else { continue }
      if !syncData(segment.descriptor) {
        groups[key]!.failure = .io("sync \(segment.hiddenPath)", errno)
        abandon(key)
      }
    }
    let syncSeconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    for key in written where groups[key]!.failure == nil {
      let group = groups[key]!
      for member in group.members {
        for id in member.ids { writer.index[group.bundle, default: PayloadIndex()].insert(id, day: group.day) }
      }
    }
    // Every answer, then the counters, then the answers given: a request answered finds the counters
    // already counting it.
    let answers = batch.indices.map { n -> Result<Receipt, StoreError> in
      if let error = dependsOn[n].sorted().lazy.compactMap({ groups[$0]?.failure }).first { return .failure(error) }
      return .success(receipts[n])
    }
    let answered = answers.compactMap { try? $0.get() }
    let failed = order.contains { groups[$0]!.failure != nil }
    state.withLock { s in
      s.counters.payloadsStored += answered.reduce(0) { $0 + $1.stored.count }
      s.counters.duplicates += answered.reduce(0) { $0 + $1.duplicates.count }
      s.counters.bytesStored += bytesWritten
      s.counters.commits += 1
      s.counters.syncs += written.isEmpty ? 0 : 1
      s.counters.syncSeconds += syncSeconds
      writer.sizes(into: &s.counters)
      if full || !written.isEmpty { s.counters.full = full }
      if failed || !written.isEmpty { s.counters.failing = failed && !full }
    }
    for (request, answer) in zip(batch, answers) { request.answer.resume(with: answer) }
  }

  /// Appends a group's members to its open segment (opening one when needed) at the segment's
  /// length: written at that offset, so that after a failed write, cut back, the next member starts
  /// exactly where the last whole one ended.
  private func append(_ bytes: [UInt8], bundle: String, day: CalendarDay) throws(StoreError) {
    if let limit = configuration.maximumStoreBytes, writer.storeBytes + bytes.count > limit {
      throw .full("the store's limit of \(limit) bytes")
    }
    let key = Self.segmentKey(bundle, day)
    if writer.open[key] == nil { writer.open[key] = try openSegment(bundle: bundle, day: day) }
    let segment = writer.open[key]!
    var done = 0
    while done < bytes.count {
      let (n, code) = bytes.withUnsafeBytes {
        configuration.write(segment.descriptor, UnsafeRawBufferPointer(rebasing: $0[done...]), segment.size + done)
      }
      if n < 0 && code == EINTR { continue }
      if n <= 0 {
        // Cut back what part of the member reached the file; if even that fails, stop writing to
        // this segment (a restart cuts its torn tail).
        if ftruncate(segment.descriptor, off_t(segment.size)) != 0 { abandon(key) }
        throw code == ENOSPC || code == EDQUOT || n == 0
          ? .full("no space left on the device") : .io("write \(segment.hiddenPath)", code)
      }
      done += n
    }
    writer.open[key]!.size += bytes.count
    writer.storeBytes += bytes.count
  }

  /// Creates the open segment of a bundle and day, with its folders, all synced.
  private func openSegment(bundle: String, day: CalendarDay) throws(StoreError) -> OpenSegment {
    let bundleFolder = configuration.root.path + "/" + bundle
    let folder = bundleFolder + "/" + day.description
    try Self.makeFolder(bundleFolder)
    try Self.makeFolder(folder)
    let name = SegmentName(instance: configuration.instance, sequence: writer.nextSequence, isOpen: true)
    writer.nextSequence += 1
    let hidden = folder + "/" + name.open
    let fd = open(hidden, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard fd >= 0 else {
      throw errno == ENOSPC || errno == EDQUOT ? .full("no space left on the device") : .io("create \(hidden)", errno)
    }
    try Self.syncFolder(folder)
    return OpenSegment(
      bundle: bundle, day: day, descriptor: fd, hiddenPath: hidden, sealedPath: folder + "/" + name.sealed,
      folder: folder, size: 0, opened: configuration.now())
  }

  /// Seals the open segments that are due (all of them when closing), and renames again those whose
  /// renaming failed before.
  private func sealDue(all: Bool) {
    let now = configuration.now()
    let today = Self.day(of: now)
    for (key, segment) in writer.open {
      let due =
        all || segment.size >= configuration.sealBytes || now.timeIntervalSince(segment.opened) >= configuration.sealAge
        || segment.day != today
      guard due else { continue }
      guard let segment = writer.open.removeValue(forKey: key) else { continue }
      closeDescriptor(segment.descriptor)
      if segment.size == 0 {
        unlink(segment.hiddenPath)
      } else {
        writer.unsealed.append(segment)
      }
    }
    let waiting = writer.unsealed
    writer.unsealed = waiting.filter { !rename($0) }
  }

  /// Renames a closed segment to its sealed name and syncs its folder; false when that failed (the
  /// segment stays hidden, whole, and is tried again; a restart seals it too).
  private func rename(_ segment: OpenSegment) -> Bool {
    guard renameFile(segment.hiddenPath, segment.sealedPath) == 0 else {
      state.withLock { $0.counters.sealFailures += 1 }
      return false
    }
    try? Self.syncFolder(segment.folder)
    state.withLock { $0.counters.segmentsSealed += 1 }
    return true
  }

  /// Stops writing to a segment whose state is unknown after a failure: it is left hidden as it is
  /// (at the next start, a torn tail is cut back and it is sealed).
  private func abandon(_ key: String) {
    guard let segment = writer.open.removeValue(forKey: key) else { return }
    closeDescriptor(segment.descriptor)
  }

  // MARK: - Start-up

  /// Walks the store: learns the ids of sealed segments from their headers, cuts this instance's own
  /// open segments (its name exactly) back to their last whole member and seals them. Another
  /// instance's open segments are left as they are. Returns the segments recovered and the bytes
  /// dropped.
  private func recover() throws(StoreError) -> (segments: Int, dropped: Int) {
    var segments = 0
    var dropped = 0
    for (bundle, day, folder) in dayFolders() {
      for file in StoreFolder.entries(folder) {
        guard let name = SegmentName(parsing: file), StoreFolder.kind(folder + "/" + file) == S_IFREG else { continue }
        let own = name.instance == configuration.instance
        if own { writer.nextSequence = max(writer.nextSequence, name.sequence + 1) }
        if name.isOpen {
          guard own else { continue }
          let path = folder + "/" + file
          let cut = Self.wholeMembers(path)
          dropped += cut.dropped
          if cut.kept == 0 {
            unlink(path)
            continue
          }
          if truncate(path, off_t(cut.kept)) != 0 || renameFile(path, folder + "/" + name.sealed) != 0 {
            throw .io("recover \(path)", errno)
          }
          try Self.syncFolder(folder)
          segments += 1
        }
        let ids = Self.storedIDs(folder + "/" + name.sealed)
        for id in ids.ids { writer.index[bundle, default: PayloadIndex()].insert(id, day: day) }
        writer.storeBytes += ids.size
      }
    }
    return (segments, dropped)
  }

  /// The ids listed by a sealed segment's member headers (as far as they read), and its size: the
  /// headers alone are read, from member to member, not the payloads between them.
  static func storedIDs(_ path: String) -> (ids: [PayloadID], size: Int) {
    guard let file = FileHandle(forReadingAtPath: path), let size = try? file.seekToEnd() else { return ([], 0) }
    defer { try? file.close() }
    func read(_ count: Int, at offset: Int) -> [UInt8]? {
      guard (try? file.seek(toOffset: UInt64(offset))) != nil, let data = try? file.read(upToCount: count),
        data.count == count
      else { return nil }
      return [UInt8](data)
    }
    var ids: [PayloadID] = []
    var offset = 0
    while offset < Int(size), let fixed = read(12, at: offset),
      let whole = read(12 + (Int(fixed[10]) | Int(fixed[11]) << 8), at: offset),
      let header = whole.withUnsafeBytes({ try? SegmentMember.header(at: 0, of: $0, length: Int(size) - offset) })
    {
      ids += header.ids
      offset += header.end
    }
    return (ids, Int(size))
  }

  /// How many leading bytes of an open segment are whole, checked members, and how many follow.
  static func wholeMembers(_ path: String) -> (kept: Int, dropped: Int) {
    guard let data = FileManager.default.contents(atPath: path) else { return (0, 0) }
    return data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count, let (_, end) = try? SegmentMember.decode(at: offset, of: bytes) {
        offset = end
      }
      return (offset, bytes.count - offset)
    }
  }

  /// Removes the segments of the days past the retention, and their ids: only sealed segment files
  /// (another instance's open segments stay, and so does anything that is not a segment), never
  /// through a link; then the day's folder once it is empty.
  private func removeExpiredDays() {
    guard let days = configuration.retainDays else { return }
    let today = Self.day(of: configuration.now())
    guard writer.lastRetention != today else { return }
    writer.lastRetention = today
    let cutoff = today.adding(days: -days)
    for (bundle, day, folder) in dayFolders() where day < cutoff {
      for file in StoreFolder.entries(folder) {
        let path = folder + "/" + file
        guard let name = SegmentName(parsing: file), !name.isOpen, StoreFolder.kind(path) == S_IFREG else { continue }
        let size = StoreFolder.size(path)
        if unlink(path) == 0 { writer.storeBytes -= size }
      }
      if rmdir(folder) == 0 { try? Self.syncFolder((folder as NSString).deletingLastPathComponent) }
      writer.index[bundle]?.removeAll(before: cutoff)
    }
    state.withLock { writer.sizes(into: &$0.counters) }
  }

  // MARK: - Files

  static func day(of date: Date) -> CalendarDay { CalendarDay(utcDayOf: date) }

  /// The open segment's key of a bundle and day: its folder, relative to the root.
  private static func segmentKey(_ bundle: String, _ day: CalendarDay) -> String { "\(bundle)/\(day)" }

  /// The store's day folders: each bundle's folders named as a day, folders themselves (a link to
  /// a folder is not followed).
  private func dayFolders() -> [(bundle: String, day: CalendarDay, path: String)] {
    let root = configuration.root.path
    var folders: [(bundle: String, day: CalendarDay, path: String)] = []
    for bundle in StoreFolder.entries(root) where Self.isPlainName(bundle) {
      let bundlePath = root + "/" + bundle
      guard StoreFolder.kind(bundlePath) == S_IFDIR else { continue }
      for name in StoreFolder.entries(bundlePath) {
        let path = bundlePath + "/" + name
        if let day = CalendarDay(parsing: name), StoreFolder.kind(path) == S_IFDIR {
          folders.append((bundle, day, path))
        }
      }
    }
    return folders
  }

  /// Whether `name` is usable as one path component: letters, digits, `.`, `-` and `_`, not
  /// starting with a dot.
  public static func isPlainName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 255 && name.first != "."
      && name.utf8.allSatisfy {
        ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2E
          || $0 == 0x2D || $0 == 0x5F
      }
  }

  /// Makes a folder when it is missing, and syncs its parent so the new entry survives a crash.
  static func makeFolder(_ path: String) throws(StoreError) {
    var info = stat()
    if stat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else { throw .io("\(path) is not a folder", ENOTDIR) }
      return
    }
    guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
      throw errno == ENOSPC ? .full("no space left on the device") : .io("create \(path)", errno)
    }
    try syncFolder((path as NSString).deletingLastPathComponent)
  }

  /// Syncs a folder's entries.
  static func syncFolder(_ path: String) throws(StoreError) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw .io("open \(path)", errno) }
    defer { closeDescriptor(fd) }
    guard fsync(fd) == 0 else { throw .io("sync \(path)", errno) }
  }
}

/// Closes a file descriptor (the store's own `close()` hides the system's name).
private func closeDescriptor(_ fd: Int32) {
  _ = close(fd)
}

/// Renames a file (the store's own `rename(_:)` hides the system's name).
private func renameFile(_ from: String, _ to: String) -> Int32 {
  rename(from, to)
}

/// Flushes a file's data to the device.
private func syncData(_ fd: Int32) -> Bool {
  #if canImport(Glibc)
    fdatasync(fd) == 0
  #else
    fcntl(fd, F_FULLFSYNC) == 0 || fsync(fd) == 0
  #endif
}

/// Why the store did not take a request.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// More is waiting to be written than the store holds in memory: try again shortly.
  case overloaded
  /// The store is shutting down.
  case shuttingDown
  /// No room: the disk is full, or the store's limit is reached.
  case full(String)
  /// A file operation failed, with `errno`.
  case io(String, Int32)
  /// A name that cannot be one path component.
  case badName(String)
  /// The folder holds something other than a store's files (the entry named).
  case notAStore(String, String)
  /// Another process already runs this instance on the folder.
  case instanceRunning(String)
  /// A retention of fewer than one day.
  case badRetention(Int)

  public var description: String {
    switch self {
    case .overloaded: "the collector is overloaded"
    case .shuttingDown: "the collector is shutting down"
    case .full(let what): "out of space: \(what)"
    case .io(let what, let code): "\(what): \(String(cString: strerror(code)))"
    case .badName(let name): "'\(name)' is not a plain name (letters, digits, '.', '-', '_')"
    case .notAStore(let root, let entry):
      "\(root) is not a collector's store: it holds \(entry), which no collector writes (give an empty or new folder)"
    case .instanceRunning(let instance):
      "another collector named '\(instance)' is running on this folder (give each one its own --instance)"
    case .badRetention(let days): "a retention of \(days) days: it must be at least 1"
    }
  }
}
