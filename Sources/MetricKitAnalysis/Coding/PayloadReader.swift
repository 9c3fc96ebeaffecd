import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the reader found, one event at a time.
public enum ReadEvent: Sendable {
  /// A decoded metric payload and where it came from.
  case payload(MetricPayload, PayloadLocation)
  /// A diagnostic payload, or a single diagnostic (in a payload without timestamps). The kind is
  /// `.metricPayload` for the diagnostic sections of a document that is also a metric payload (already
  /// counted by its `.payload` event).
  case diagnostics(DiagnosticPayload, DocumentKind, PayloadLocation)
  /// A recognized document with nothing to aggregate (a call stack tree on its own).
  case otherDocument(DocumentKind, PayloadLocation)
  /// A file or payload that could not be used.
  case rejected(Rejection)
}

/// Reads payload dumps: discovers files under the given paths, reads and decompresses each, decodes
/// every payload in it, and reports each as an event. A bad file or payload is reported and skipped;
/// nothing else is lost.
///
/// Reading streams: a payload is handed to the caller as soon as it is decoded and dropped after, a
/// file is held whole only when it is not NDJSON, and NDJSON (even gzip-compressed) is read a window
/// at a time. With several threads, each thread reads its own files (or byte ranges of a large NDJSON
/// file) and folds the events into an accumulator of its own.
public struct PayloadReader: Sendable {
  /// Limits on files and payloads.
  public var limits: InputLimits
  /// How timestamps are read.
  public var timestamps: TimestampParser
  /// Counts the buffers the reader allocates (tests that prove reading is bounded).
  var tracker: BufferTracker?
  /// NDJSON files at least this large are split into byte ranges between threads.
  var splitThreshold = ReadPlan.splitThreshold
  /// The window NDJSON is read through.
  var lineWindow = LineReader.windowSize
  /// Counts the files and payloads read, as they are read (nil: not counted).
  public var progress: ReadingProgress?

  /// Creates a reader.
  public init(limits: InputLimits = InputLimits(), timestamps: TimestampParser = TimestampParser()) {
    self.limits = limits
    self.timestamps = timestamps
  }

  /// Reads every file under `paths` on one thread, calling `visit` for each event in file order.
  /// - Returns: the discovery (files read, files ignored inside directories).
  @discardableResult
  public func read(paths: [String], visit: (ReadEvent) -> Void) -> InputDiscovery.Result {
    read(paths: paths.map(InputPath.init), visit: visit)
  }

  /// Reads every file under `paths` (as the file system's bytes) on one thread, calling `visit` for
  /// each event in file order.
  /// - Returns: the discovery (files read, files ignored inside directories).
  @discardableResult
  public func read(paths: [InputPath], visit: (ReadEvent) -> Void) -> InputDiscovery.Result {
    let discovery = InputDiscovery().discover(paths)
    for (path, failure) in discovery.failures {
      visit(.rejected(Rejection(location: PayloadLocation(path: path.description), reason: failure.reason)))
    }
    let items = ReadPlan.items(for: discovery.files, threads: 1)
    guard let parser = JSONParser(maximumDepth: limits.maximumDepth) else {
      for item in items { visit(.rejected(Self.parserUnavailable(item))) }
      return discovery
    }
    progress?.expect(files: discovery.files.count)
    for item in items {
      counting(item, parser: parser, visit: visit)
    }
    return discovery
  }

  /// Reads every file under `paths` on `threads` threads; see the variant taking ``InputPath``s.
  public func read<Accumulator: Sendable>(
    paths: [String], threads: Int, makeAccumulator: @Sendable () -> Accumulator,
    visit: @Sendable @escaping (inout Accumulator, ReadEvent) -> Void
  ) -> (accumulators: [Accumulator], discovery: InputDiscovery.Result) {
    read(paths: paths.map(InputPath.init), threads: threads, makeAccumulator: makeAccumulator, visit: visit)
  }

  /// Reads every file under `paths` on `threads` threads. Each thread folds its events into its own
  /// accumulator, made by `makeAccumulator`; the accumulators are returned for the caller to merge.
  /// Rejections of paths that could not be listed go to the first accumulator. Every file ends in
  /// an accumulator, read or rejected.
  public func read<Accumulator: Sendable>(
    paths: [InputPath], threads: Int, makeAccumulator: @Sendable () -> Accumulator,
    visit: @Sendable @escaping (inout Accumulator, ReadEvent) -> Void
  ) -> (accumulators: [Accumulator], discovery: InputDiscovery.Result) {
    let discovery = InputDiscovery().discover(paths)
    progress?.expect(files: discovery.files.count)
    let accumulators = read(
      files: discovery.files, failures: discovery.failures, threads: threads, makeAccumulator: makeAccumulator,
      visit: visit)
    return (accumulators, discovery)
  }

  /// Reads `files` (already discovered) on `threads` threads, as the variant taking paths does; the
  /// `failures` of their discovery are rejected into the first accumulator.
  func read<Accumulator: Sendable>(
    files: [InputPath], failures: [(path: InputPath, failure: InputError)] = [], threads: Int,
    makeAccumulator: @Sendable () -> Accumulator, visit: @Sendable @escaping (inout Accumulator, ReadEvent) -> Void
  ) -> [Accumulator] {
    read(files: files, failures: failures, threads: threads, makeAccumulator: makeAccumulator) {
      accumulator, _, event in
      visit(&accumulator, event)
    }
  }

  /// Reads `files` on `threads` threads, as ``read(files:failures:threads:makeAccumulator:visit:)``
  /// does, telling `visit` the index in `files` of the file each event comes from (-1 for a rejection
  /// of `failures`): events of different files fold into different parts of one accumulator.
  func read<Accumulator: Sendable>(
    files: [InputPath], failures: [(path: InputPath, failure: InputError)] = [], threads: Int,
    makeAccumulator: @Sendable () -> Accumulator,
    visitFile visit: @Sendable @escaping (inout Accumulator, Int, ReadEvent) -> Void
  ) -> [Accumulator] {
    let items = ReadPlan.fileItems(for: files, threads: threads, splitThreshold: splitThreshold)
    let reader = self
    return ParallelSlots<Accumulator>.perWorker(count: items.count, threads: threads) { worker, next in
      var accumulator = makeAccumulator()
      if worker == 0 {
        for (path, failure) in failures {
          visit(
            &accumulator, -1,
            .rejected(Rejection(location: PayloadLocation(path: path.description), reason: failure.reason)))
        }
      }
      let parser = JSONParser(maximumDepth: reader.limits.maximumDepth)
      while let index = next() {
        let (file, item) = items[index]
        if let parser {
          reader.counting(item, parser: parser) { visit(&accumulator, file, $0) }
        } else {
          visit(&accumulator, file, .rejected(Self.parserUnavailable(item)))
        }
      }
      return accumulator
    }
  }

  /// Reads `item` as ``read(_:parser:visit:)`` does, counting it into ``progress``.
  private func counting(_ item: ReadPlan.Item, parser: JSONParser, visit: (ReadEvent) -> Void) {
    guard let progress else { return read(item, parser: parser, visit: visit) }
    var payloads = 0
    read(item, parser: parser) { event in
      if case .payload = event { payloads += 1 }
      visit(event)
    }
    // A file read in several ranges counts once, with its first.
    if case .lines(_, let range?, _) = item, range.lowerBound > 0 {
      progress.read(payloads: payloads, files: 0)
    } else {
      progress.read(payloads: payloads, files: 1)
    }
  }

  /// The rejection of an item no parser could be made for (a depth limit too large to allocate).
  private static func parserUnavailable(_ item: ReadPlan.Item) -> Rejection {
    var reason = "out of memory for the JSON parser (is --max-depth too large?); not read"
    switch item {
    case .file(let path):
      return Rejection(location: PayloadLocation(path: path.description), reason: reason)
    case .lines(let path, let range, _):
      if let range { reason += " (bytes \(range.lowerBound)–\(range.upperBound))" }
      return Rejection(location: PayloadLocation(path: path.description), reason: reason)
    }
  }

  /// The events of one decoded (or rejected) document: a document with both metric and diagnostic
  /// sections gives its metric payload and then its diagnostics (marked as part of a metric payload,
  /// so that it counts once).
  private static func events(
    _ location: PayloadLocation, _ result: consuming Result<DecodedDocument, PayloadDecodingError>,
    _ visit: (ReadEvent) -> Void
  ) {
    // The result consumed and each payload consumed into its event: bound from a borrowed result, or
    // without `consume`, a payload was copied into its event (about a hundred retains) and the
    // original destroyed.
    switch consume result {
    case .success(.metricPayload(let payload, let diagnostics)):
      visit(.payload(consume payload, location))
      if let diagnostics { visit(.diagnostics(consume diagnostics, .metricPayload, location)) }
    case .success(.diagnosticPayload(let payload, let kind)): visit(.diagnostics(consume payload, kind, location))
    case .success(.other(let kind)): visit(.otherDocument(kind, location))
    case .failure(let error): visit(.rejected(resolvingLine(Rejection(location: location, reason: error.description))))
    }
  }

  /// Reads one planned item.
  private func read(_ item: ReadPlan.Item, parser: JSONParser, visit: (ReadEvent) -> Void) {
    let decoder = PayloadDecoder(limits: limits, timestamps: timestamps)
    switch item {
    case .file(let path):
      let buffer: PaddedBuffer
      do {
        var fileReader = InputFileReader(limits: limits)
        fileReader.tracker = tracker
        buffer = try fileReader.read(path: path)
      } catch {
        visit(.rejected(Rejection(location: PayloadLocation(path: path.description), reason: error.reason)))
        return
      }
      decoder.decodeFile(path: path.description, buffer: buffer, parser: parser) { Self.events($0, $1, visit) }
    case .lines(let path, let range, let gzip):
      // The per-file payload limit counts per byte range when a large file is split between threads.
      var documents = 0
      let name = path.description
      do {
        try streamLines(path: path, range: range, gzip: gzip) { line, number in
          var location = PayloadLocation(path: name, line: number)
          location.lineCountedFromByte = range?.lowerBound ?? 0
          location.file = range == nil ? nil : path
          return decoder.decodeLine(line, location: location, parser: parser, documents: &documents) {
            Self.events($0, $1, visit)
          }
        }
      } catch {
        visit(.rejected(Rejection(location: PayloadLocation(path: name), reason: error.reason)))
      }
    }
  }

  /// Streams the lines of an NDJSON file, or of a byte range of it. Memory is one window (grown for
  /// a long line, up to `maximumLineLength`); a gzip stream inflates a window at a time, so its total
  /// size is not limited, only each line's.
  private func streamLines(
    path: InputPath, range: Range<Int>?, gzip: Bool, _ body: (UnsafeRawBufferPointer, Int) -> Bool
  ) throws(InputError) {
    let (fd, info) = try InputFileReader.openForReading(path)
    defer { close(fd) }
    if (info.st_mode & S_IFMT) != S_IFREG {
      // A pipe or FIFO named on the command line (directories hand out regular files only): streamed
      // like standard input, waiting for its writer.
      var stream = StreamSource(descriptor: fd)
      if gzip {
        var source = try GzipStreamSource(input: stream, limit: .max, inflater: IsalInflater.self)
        try LineReader.forEachLine(
          in: &source, window: lineWindow, maximumLineLength: limits.maximumLineLength, tracker: tracker, body)
      } else {
        try LineReader.forEachLine(
          in: &stream, window: lineWindow, maximumLineLength: limits.maximumLineLength, tracker: tracker, body)
      }
      return
    }
    let size = Int(info.st_size)
    if gzip {
      var source = try GzipStreamSource(
        input: FileRangeSource(descriptor: fd, offset: 0, end: size), limit: .max, inflater: IsalInflater.self)
      try LineReader.forEachLine(
        in: &source, window: lineWindow, maximumLineLength: limits.maximumLineLength, tracker: tracker, body)
    } else {
      if range == nil && size > limits.maximumFileSize {
        throw InputError(reason: "file is \(size) bytes, over the \(limits.maximumFileSize)-byte limit")
      }
      var source = FileRangeSource(descriptor: fd, offset: range?.lowerBound ?? 0, end: range?.upperBound ?? size)
      try LineReader.forEachLine(
        in: &source, window: lineWindow, maximumLineLength: limits.maximumLineLength, tracker: tracker, body)
    }
  }

  /// A rejection inside a byte range carries a line number counted from the range: counts the lines
  /// before it (only for rejections, which are rare; a decoded payload is handed on as it is, not
  /// copied through here).
  private static func resolvingLine(_ rejection: Rejection) -> Rejection {
    guard rejection.location.lineCountedFromByte > 0, let line = rejection.location.line else { return rejection }
    var rejection = rejection
    let file = rejection.location.file ?? InputPath(rejection.location.path)
    let before = Self.newlines(in: file, before: rejection.location.lineCountedFromByte)
    rejection.location.line = line + before
    rejection.location.lineCountedFromByte = 0
    rejection.location.file = nil
    return rejection
  }

  private static func newlines(in path: InputPath, before end: Int) -> Int {
    let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else { return 0 }
    defer { close(fd) }
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var offset = 0
    var count = 0
    while offset < end {
      let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, min($0.count, end - offset), off_t(offset)) }
      guard n > 0 else { break }
      count += chunk[0..<n].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
      offset += n
    }
    return count
  }

  /// The path standard input is reported under.
  public static let standardInputPath = "<stdin>"

  /// Reads NDJSON from standard input, a window at a time, calling `visit` for each event; gzip
  /// (`aws s3 cp s3://…/dump.ndjson.gz - | metrics-report summary --stdin`) is recognized by its
  /// first bytes and inflated as it comes. This is how a dump is sharded across machines: any engine
  /// that pipes a partition through a command (Spark `RDD.pipe`, Hadoop Streaming, `xargs -P`) runs
  /// `metrics-report snapshot --stdin` per partition, and `metrics-report merge` adds the snapshots.
  public func readStandardInput(visit: (ReadEvent) -> Void) {
    let path = Self.standardInputPath
    guard let parser = JSONParser(maximumDepth: limits.maximumDepth) else {
      visit(.rejected(Rejection(location: PayloadLocation(path: path), reason: "out of memory for the JSON parser")))
      return
    }
    let decoder = PayloadDecoder(limits: limits, timestamps: timestamps)
    var documents = 0
    func lines<Source: ChunkSource>(of source: inout Source) throws(InputError) {
      try LineReader.forEachLine(
        in: &source, window: lineWindow, maximumLineLength: limits.maximumLineLength, tracker: tracker
      ) { line, number in
        decoder.decodeLine(
          line, location: PayloadLocation(path: path, line: number), parser: parser, documents: &documents
        ) {
          Self.events($0, $1, visit)
        }
      }
    }
    do {
      var source = try PeekedSource(StreamSource(descriptor: 0), peeking: 2)
      if source.isGzip {
        var inflated = try GzipStreamSource(input: source, limit: .max, inflater: IsalInflater.self)
        try lines(of: &inflated)
      } else {
        try lines(of: &source)
      }
    } catch {
      visit(.rejected(Rejection(location: PayloadLocation(path: path), reason: error.reason)))
    }
  }

  /// The events of a read, for async code: files are read on a thread of their own, a few events ahead
  /// of the consumer (the reader waits while 64 events are unconsumed, so memory stays bounded however
  /// slow the consumer). Stopping the iteration early stops the reading.
  ///
  /// ```swift
  /// for await event in PayloadReader().events(paths: ["dumps"]) {
  ///   if case .payload(let payload, _) = event { … }
  /// }
  /// ```
  public func events(paths: [String]) -> PayloadEvents { PayloadEvents(reader: self, paths: paths) }
}
