/// A whole dump, read and filtered: per-version aggregates and the accounting of every input.
public struct DumpAggregate: Sendable {
  /// Aggregates by version.
  public private(set) var versions: [String: VersionAggregate] = [:]
  /// What was read, counted, excluded and rejected.
  public private(set) var inputs = InputAccounting()

  /// Creates an empty aggregate.
  public init() {}

  /// Reads `paths` with `reader`, keeps the payloads `filter` lets through, and aggregates them.
  public init(
    paths: [String], reader: PayloadReader = PayloadReader(), filter: PayloadFilter = PayloadFilter(),
    options: AggregationOptions = AggregationOptions()
  ) {
    let discovery = reader.read(paths: paths) { event in
      add(event, filter: filter, options: options)
    }
    inputs.files = discovery.files.count
    inputs.ignoredFiles = discovery.ignored
    inputs.assumedUTCOffset = reader.timestamps.assumedUTCOffset
  }

  /// Accounts for one read event, aggregating it when it is a payload the filter keeps.
  public mutating func add(_ event: ReadEvent, filter: PayloadFilter, options: AggregationOptions) {
    switch event {
    case .payload(let payload, _):
      inputs.payloads += 1
      if payload.timeZoneAssumed { inputs.zoneAssumedPayloads += 1 }
      if let reason = filter.exclusion(of: payload) {
        inputs.excluded[reason, default: 0] += 1
        return
      }
      let version = payload.latestApplicationVersion
      versions[version, default: VersionAggregate(version: version)].add(payload, options: options)
    case .otherDocument(let kind, _):
      inputs.otherDocuments[kind, default: 0] += 1
    case .rejected(let rejection):
      inputs.rejected.append(rejection)
    }
  }
}
