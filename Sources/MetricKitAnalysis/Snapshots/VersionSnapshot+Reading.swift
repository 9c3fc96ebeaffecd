import Foundation

// Reading: files and streams of snapshots, documents found one after the other.
extension VersionSnapshot {
  /// Reads every snapshot of a file or stream: JSON documents one after the other, pretty or one per
  /// line (`snapshot --compact`), of one version or several, as shards and `merge` write them.
  public static func loadAll(path: String, name: String? = nil) throws(SnapshotError) -> [VersionSnapshot] {
    let name = name ?? path
    let buffer: PaddedBuffer
    do {
      buffer = try InputFileReader().read(path: InputPath(path))
    } catch {
      throw SnapshotError.unreadable("\(name): \(error.reason)")
    }
    return try loadAll(buffer, name: name)
  }

  /// Reads every snapshot of `bytes`, a stream as ``loadAll(path:name:)`` reads; `name` names it in
  /// errors.
  public static func loadAll(bytes: UnsafeRawBufferPointer, name: String) throws(SnapshotError) -> [VersionSnapshot] {
    let copied = Result { () throws(InputError) in try PaddedBuffer(copying: bytes) }
    switch copied {
    case .success(let buffer): return try loadAll(buffer, name: name)
    case .failure(let failure): throw SnapshotError.unreadable("\(name): \(failure.reason)")
    }
  }

  private static func loadAll(_ buffer: PaddedBuffer, name: String) throws(SnapshotError) -> [VersionSnapshot] {
    guard let parser = JSONParser(maximumDepth: 64) else { throw SnapshotError.unreadable("\(name): out of memory") }
    let bytes = buffer.bytes
    var out: [VersionSnapshot] = []
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
        i += 1
        continue
      }
      guard byte == UInt8(ascii: "{"), let end = documentEnd(bytes, from: i) else {
        throw SnapshotError.unreadable(
          "\(name): byte \(i): not a snapshot (a stream holds JSON objects, one after the other)")
      }
      // Parsed in place: the buffer's padding (or the next document) follows the slice.
      let slice = UnsafeRawBufferPointer(rebasing: bytes[i..<end])
      do {
        out.append(try parser.parse(slice) { (root) throws(PayloadDecodingError) in try decode(root) })
      } catch {
        throw SnapshotError.unreadable("\(name): snapshot \(out.count + 1): not a metrics-report snapshot: \(error)")
      }
      i = end
    }
    if out.isEmpty { throw SnapshotError.unreadable("\(name): no snapshot in the stream") }
    return out
  }

  /// The end (exclusive) of the JSON object starting at `start`: the brace that closes it outside
  /// strings; nil when the stream ends first.
  private static func documentEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var depth = 0
    var inString = false
    var escaped = false
    var i = start
    while i < bytes.count {
      let b = bytes[i]
      if inString {
        if escaped {
          escaped = false
        } else if b == UInt8(ascii: "\\") {
          escaped = true
        } else if b == UInt8(ascii: "\"") {
          inString = false
        }
      } else if b == UInt8(ascii: "\"") {
        inString = true
      } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
        depth += 1
      } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
        depth -= 1
        if depth == 0 { return i + 1 }
      }
      i += 1
    }
    return nil
  }

  /// Reads a file of one snapshot; a file of several is refused unless `version` picks one.
  public static func load(path: String, version: String? = nil) throws(SnapshotError) -> VersionSnapshot {
    let all = try mergedByVersion(loadAll(path: path))
    if let version {
      guard let picked = all.first(where: { $0.aggregate.version == version }) else {
        throw SnapshotError.unreadable(
          "\(path) holds no snapshot of version \(version) (it holds \(all.map(\.aggregate.version).joined(separator: ", ")))"
        )
      }
      return picked
    }
    guard all.count == 1 else {
      throw SnapshotError.unreadable(
        "\(path) holds snapshots of \(all.count) versions (\(all.map(\.aggregate.version).joined(separator: ", "))); name the one to use"
      )
    }
    return all[0]
  }

  /// Why this snapshot cannot feed a comparison that estimates means with `estimator` and tests the
  /// per-payload `payloadPercentiles`, as a phrase after the snapshot's name; nil when it can.
  public func mismatch(estimator: MeanEstimator, payloadPercentiles: [Percentile]) -> String? {
    let missing = payloadPercentiles.filter { !self.payloadPercentiles.contains($0) }
    guard self.estimator != estimator || !missing.isEmpty else { return nil }
    return "was taken with the \(self.estimator.rawValue) estimator and per-payload "
      + "\(self.payloadPercentiles.map(\.label).joined(separator: ", ")); the rules need the \(estimator.rawValue) "
      + "estimator and \(payloadPercentiles.map(\.label).joined(separator: ", "))"
  }

  /// How a snapshot's time axis differs from the one a reader needs.
  public enum AxisMismatch: Sendable, Equatable {
    /// Taken with another interval, or none (nil).
    case interval(taken: TrendInterval?, needed: TrendInterval)
    /// Not grouped by the key needed.
    case grouping(needed: GroupingKey)
  }

  /// Why this snapshot's time axis cannot feed a reader of `interval` (any, when nil) points grouped
  /// by `grouping`; nil when it can.
  public func mismatch(interval: TrendInterval?, grouping: GroupingKey?) -> AxisMismatch? {
    if let interval, self.interval != interval { return .interval(taken: self.interval, needed: interval) }
    if let grouping, self.grouping != grouping { return .grouping(needed: grouping) }
    return nil
  }
}
