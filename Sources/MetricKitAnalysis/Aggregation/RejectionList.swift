/// The rejections of a run, bounded: the first ones in canonical order are kept in full (at most
/// `limit` in all and `perFileLimit` per file) and every rejection is counted by its reason, so that
/// ten million bad lines cost a few counters, not ten million strings.
///
/// Which rejections are kept depends only on the set of rejections, not on the order they arrive or
/// on how the work was split between threads: keeping the canonically first ones of each part and
/// then of their union gives the canonically first ones of the whole.
public struct RejectionList: Sendable {
  /// The rejections kept in full, in canonical order (``Rejection/canonicalOrder(_:_:)``).
  public var listed: [Rejection] {
    var copy = self
    copy.compact()
    return copy.kept
  }
  /// Every rejection, listed or not.
  public private(set) var count = 0
  /// Rejections by reason (the reason with numbers and quoted text folded, so one cause is one entry).
  public private(set) var countsByReason: [String: Int] = [:]
  /// The most rejections kept in full.
  public let limit: Int
  /// The most rejections kept in full per file.
  public let perFileLimit: Int

  private var kept: [Rejection] = []
  private var compacted = true
  /// Once `limit` rejections are kept, the last of them: a rejection after it in canonical order can
  /// never be listed (`limit` smaller ones exist), so it is only counted.
  private var listFull: Rejection?
  /// The same per file: for each file with `perFileLimit` rejections kept, the last of them.
  private var fileFull: [String: Rejection] = [:]
  /// The last reason and its key: bad inputs come in runs of one reason.
  private var lastReason: (reason: String, key: String)?

  /// Creates an empty list.
  public init(
    limit: Int = InputLimits().maximumRejectionsListed,
    perFileLimit: Int = InputLimits().maximumRejectionsListedPerFile
  ) {
    self.limit = max(0, limit)
    self.perFileLimit = max(0, perFileLimit)
  }

  /// Whether no input was rejected.
  public var isEmpty: Bool { count == 0 }

  /// Rejections counted but not listed, by reason, most frequent first.
  public var omitted: [(reason: String, count: Int)] {
    var byReason = countsByReason
    for r in listed { byReason[Self.reasonKey(r.reason), default: 0] -= 1 }
    return byReason.filter { $0.value > 0 }.map { (reason: $0.key, count: $0.value) }
      .sorted { ($0.count, $1.reason) > ($1.count, $0.reason) }
  }

  /// Adds a rejection.
  public mutating func append(_ rejection: Rejection) {
    count += 1
    let key: String
    if let last = lastReason, last.reason == rejection.reason {
      key = last.key
    } else {
      key = Self.reasonKey(rejection.reason)
      lastReason = (rejection.reason, key)
    }
    countsByReason[key, default: 0] += 1
    if let full = listFull, Rejection.canonicalOrder(full, rejection) { return }
    if let full = fileFull[rejection.location.path], Rejection.canonicalOrder(full, rejection) { return }
    kept.append(rejection)
    compacted = false
    if kept.count >= 2 * max(limit, 64) { compact() }
  }

  /// Adds the rejections of disjoint inputs.
  public mutating func merge(_ other: RejectionList) {
    count += other.count
    for (reason, n) in other.countsByReason { countsByReason[reason, default: 0] += n }
    kept += other.kept
    compacted = false
    compact()
  }

  /// Restores a list from its parts (reading a snapshot).
  init(listed: [Rejection], count: Int, countsByReason: [String: Int], limit: Int, perFileLimit: Int) {
    self.init(limit: limit, perFileLimit: perFileLimit)
    self.count = count
    self.countsByReason = countsByReason
    kept = listed
    compacted = false
  }

  /// Sorts the kept rejections and drops all but the first `perFileLimit` of each file and the first
  /// `limit` in all.
  private mutating func compact() {
    guard !compacted else { return }
    kept.sort(by: Rejection.canonicalOrder)
    var result: [Rejection] = []
    var perPath = 0
    for r in kept {
      if result.count == limit { break }
      if let last = result.last, last.location.path == r.location.path {
        perPath += 1
      } else {
        perPath = 1
      }
      if perPath <= perFileLimit { result.append(r) }
    }
    kept = result
    compacted = true
    listFull = kept.count == limit ? kept.last : nil
    fileFull = [:]
    var run = 0
    for (i, r) in kept.enumerated() {
      run = i > 0 && kept[i - 1].location.path == r.location.path ? run + 1 : 1
      if run == perFileLimit { fileFull[r.location.path] = r }
    }
  }

  /// One cause, one key: digits and quoted text folded (`line 12 …` and `line 13 …` count together),
  /// and long reasons cut.
  static func reasonKey(_ reason: String) -> String {
    var key = ""
    var inQuote = false
    var lastWasDigit = false
    for ch in reason {
      if key.count >= 160 {
        key += "…"
        break
      }
      if ch == "\"" {
        if !inQuote { key += "\"…\"" }
        inQuote.toggle()
        lastWasDigit = false
        continue
      }
      if inQuote { continue }
      if ch.isASCII && ch.isNumber {
        if !lastWasDigit { key += "N" }
        lastWasDigit = true
        continue
      }
      lastWasDigit = false
      key.append(ch)
    }
    return key
  }
}
