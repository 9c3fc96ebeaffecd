/// What the reader found, one event at a time, in file order.
public enum ReadEvent: Sendable {
  /// A decoded metric payload and where it came from.
  case payload(MetricPayload, PayloadLocation)
  /// A recognized document that is not a metric payload (a diagnostic payload, a single diagnostic, a
  /// call stack tree).
  case otherDocument(DocumentKind, PayloadLocation)
  /// A file or payload that could not be used.
  case rejected(Rejection)
}

/// Reads payload dumps: discovers files under the given paths, reads and decompresses each, decodes
/// every payload in it, and reports each as an event. A bad file or payload is reported and skipped;
/// nothing else is lost.
public struct PayloadReader: Sendable {
  /// Limits on files and payloads.
  public var limits: InputLimits
  /// How timestamps are read.
  public var timestamps: TimestampParser

  /// Creates a reader.
  public init(limits: InputLimits = InputLimits(), timestamps: TimestampParser = TimestampParser()) {
    self.limits = limits
    self.timestamps = timestamps
  }

  /// Reads every file under `paths`, calling `visit` for each event.
  /// - Returns: the discovery (files read, files ignored inside directories).
  @discardableResult
  public func read(paths: [String], visit: (ReadEvent) -> Void) -> InputDiscovery.Result {
    let discovery = InputDiscovery().discover(paths)
    for (path, failure) in discovery.failures {
      visit(.rejected(Rejection(location: PayloadLocation(path: path), reason: failure.reason)))
    }
    guard let parser = JSONParser(maximumDepth: limits.maximumDepth) else {
      for path in discovery.files {
        visit(.rejected(Rejection(location: PayloadLocation(path: path), reason: "out of memory for the JSON parser")))
      }
      return discovery
    }
    for path in discovery.files {
      read(file: path, parser: parser, visit: visit)
    }
    return discovery
  }

  /// Reads one file with a given parser.
  func read(file path: String, parser: JSONParser, visit: (ReadEvent) -> Void) {
    let buffer: PaddedBuffer
    do {
      buffer = try InputFileReader(limits: limits).read(path: path)
    } catch {
      visit(.rejected(Rejection(location: PayloadLocation(path: path), reason: error.reason)))
      return
    }
    let decoder = PayloadDecoder(limits: limits, timestamps: timestamps)
    decoder.decodeFile(path: path, buffer: buffer, parser: parser) { location, result in
      switch result {
      case .success(.metricPayload(let payload)): visit(.payload(payload, location))
      case .success(.other(let kind)): visit(.otherDocument(kind, location))
      case .failure(let error): visit(.rejected(Rejection(location: location, reason: error.description)))
      }
    }
  }

  /// Reads everything into memory: the metric payloads and the rejections. Convenient for analysis
  /// scripts; the reports stream instead.
  public func readAll(paths: [String]) -> (payloads: [MetricPayload], rejected: [Rejection]) {
    var payloads: [MetricPayload] = []
    var rejected: [Rejection] = []
    read(paths: paths) { event in
      switch event {
      case .payload(let payload, _): payloads.append(payload)
      case .rejected(let rejection): rejected.append(rejection)
      case .otherDocument: break
      }
    }
    return (payloads, rejected)
  }
}
