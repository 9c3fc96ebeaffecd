import MetricKitAnalysis
import Synchronization

/// What the collector counts of its requests, written with the store's counters as OpenMetrics text
/// for `/metrics`.
public final class CollectorMetrics: Sendable {
  /// The upper bounds of the request-latency histogram, in seconds.
  public static let latencyBounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

  private struct Counts {
    var requests: [Int: Int] = [:]
    var accepted = 0
    var rejected: [PayloadIntake.Rejected.Kind: Int] = [:]
    var bytesReceived = 0
    var latencyBuckets = Array(repeating: 0, count: CollectorMetrics.latencyBounds.count)
    var latencyCount = 0
    var latencySum = 0.0
  }

  private let counts = Mutex(Counts())

  /// Empty counts.
  public init() {}

  /// Counts one answered ingest request.
  public func request(
    status: Int, seconds: Double, bytes: Int, accepted: Int, rejected: [PayloadIntake.Rejected.Kind]
  ) {
    counts.withLock { c in
      c.requests[status, default: 0] += 1
      c.accepted += accepted
      for kind in rejected { c.rejected[kind, default: 0] += 1 }
      c.bytesReceived += bytes
      if let i = Self.latencyBounds.firstIndex(where: { seconds <= $0 }) { c.latencyBuckets[i] += 1 }
      c.latencyCount += 1
      c.latencySum += seconds
    }
  }

  /// The OpenMetrics exposition of these counts and `store`'s.
  public func exposition(_ store: SegmentStore.Counters) -> String {
    let c = counts.withLock { $0 }
    var out = ""
    func family(_ name: String, _ type: String, _ help: String, _ samples: [(String, [(String, String)], Double)]) {
      OpenMetricsWriter.header(name, type: type, unit: nil, help: help, into: &out)
      for (suffix, labels, value) in samples {
        let set = labels.isEmpty ? "" : OpenMetricsWriter.labelSet(labels.map { (name: $0.0, value: $0.1) })
        out += "\(name)\(suffix)\(set) \(OpenMetricsWriter.number(value))\n"
      }
    }
    family(
      "collector_requests", "counter", "Ingest requests answered, by HTTP status.",
      c.requests.keys.sorted().map { ("_total", [("code", "\($0)")], Double(c.requests[$0]!)) })
    family(
      "collector_payloads_accepted", "counter", "Payloads that passed validation.", [("_total", [], Double(c.accepted))]
    )
    family(
      "collector_payloads_rejected", "counter", "Payloads refused, by reason.",
      PayloadIntake.Rejected.Kind.allCases.sorted { $0.rawValue < $1.rawValue }.map {
        ("_total", [("reason", $0.rawValue)], Double(c.rejected[$0] ?? 0))
      })
    family(
      "collector_payloads_stored", "counter", "Payloads written and synced.",
      [("_total", [], Double(store.payloadsStored))])
    family(
      "collector_payloads_duplicate", "counter", "Payloads already stored, not written again.",
      [("_total", [], Double(store.duplicates))])
    family(
      "collector_received_bytes", "counter", "Request body bytes received.", [("_total", [], Double(c.bytesReceived))])
    family(
      "collector_stored_bytes", "counter", "Compressed bytes appended to segments.",
      [("_total", [], Double(store.bytesStored))])
    family("collector_commits", "counter", "Group commits.", [("_total", [], Double(store.commits))])
    family(
      "collector_sync_seconds", "summary", "Time spent syncing segments, per group commit.",
      [("_sum", [], store.syncSeconds), ("_count", [], Double(store.syncs))])
    family(
      "collector_segments_sealed", "counter", "Segments sealed.", [("_total", [], Double(store.segmentsSealed))])
    family(
      "collector_queue_bytes", "gauge", "Payload bytes waiting for the writer.", [("", [], Double(store.pendingBytes))])
    family(
      "collector_queue_requests", "gauge", "Requests waiting for the writer.", [("", [], Double(store.pendingRequests))]
    )
    family("collector_store_bytes", "gauge", "Bytes of the store's segments.", [("", [], Double(store.storeBytes))])
    family(
      "collector_index_payloads", "gauge", "Stored payload ids the idempotency index holds.",
      [("", [], Double(store.indexedPayloads))])
    family(
      "collector_index_bytes", "gauge", "Bytes of the idempotency index's tables.", [("", [], Double(store.indexBytes))]
    )
    family(
      "collector_store_full", "gauge", "1 while the last write found no room, on the disk or under the store's limit.",
      [("", [], store.full ? 1 : 0)])
    family(
      "collector_seal_failures", "counter", "Segments whose renaming to their sealed name failed (tried again).",
      [("_total", [], Double(store.sealFailures))])
    var cumulative = 0
    var buckets: [(String, [(String, String)], Double)] = []
    for (i, bound) in Self.latencyBounds.enumerated() {
      cumulative += c.latencyBuckets[i]
      buckets.append(("_bucket", [("le", "\(bound)")], Double(cumulative)))
    }
    buckets.append(("_bucket", [("le", "+Inf")], Double(c.latencyCount)))
    buckets.append(("_sum", [], c.latencySum))
    buckets.append(("_count", [], Double(c.latencyCount)))
    family(
      "collector_request_duration_seconds", "histogram", "Time from a request's start to its answer.", buckets)
    return out + "# EOF\n"
  }
}
