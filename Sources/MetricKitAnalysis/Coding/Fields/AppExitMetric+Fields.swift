import Foundation

extension AppExitMetric {
  /// How the members of its MetricKit object reach its fields (see ``FieldTable``).
  static let fields = FieldTable(
    "applicationExitMetrics", empty: AppExitMetric(),
    [
      .custom(
        "foregroundExitData",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.foregroundExitData = try context.exitCounts(value)
        }, write: { MetricPayloadEncoder.exits($0.foregroundExitData) }),
      .custom(
        "backgroundExitData",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.backgroundExitData = try context.exitCounts(value)
        }, write: { MetricPayloadEncoder.exits($0.backgroundExitData) }),
    ])
}

extension DecodingContext {
  /// The counters of `foregroundExitData` or `backgroundExitData`: the known ones by position, any
  /// other kept by name.
  func exitCounts(_ value: JSONValue) throws(PayloadDecodingError) -> ExitCounts {
    var counts = ExitCounts()
    for counter in try object(value).children where counter.kind != .null {
      let n = try within(counter.key) { () throws(PayloadDecodingError) in try count(counter) }
      if let i = ExitCounts.knownKeySet.index(of: counter) {
        counts.set(n, at: i)
      } else {
        counts.set(n, forUnknownKey: counter.key)
      }
    }
    return counts
  }
}

extension ExitCounts {
  /// The known counters' keys, matched in their order.
  static let knownKeySet = KeySet(knownStaticKeys)
}
