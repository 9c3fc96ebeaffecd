import CZlib
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends an ``UploadQueue``'s payloads to a `metrics-report collect` service: a batch at a time as
/// gzip-compressed NDJSON with the app's ingest token; removes each payload only once a receipt lists
/// its id (computed on the device, ``PayloadID``) as stored or stored before, sets aside the ones the
/// collector refused, and on any other answer or none waits — exponentially longer, with jitter, or as
/// `Retry-After` says, never longer than `maximumBackoff` — before trying again.
public final class Uploader: Sendable {
  /// Where and how payloads are sent.
  public struct Configuration: Sendable {
    /// The collector's base URL (`https://metrics.example.com`).
    public var endpoint: URL
    /// The app's ingest token.
    public var token: String
    /// The most payloads sent in one request.
    public var batchSize = 50
    /// The first wait after a failure, in seconds; each further failure doubles it.
    public var initialBackoff: Double = 1
    /// The longest wait, in seconds.
    public var maximumBackoff: Double = 3600
    /// The most attempts one ``drain()`` makes before it gives up until the next call.
    public var maximumAttempts = 8

    /// A configuration for the collector at `endpoint`, with `token`.
    public init(endpoint: URL, token: String) {
      self.endpoint = endpoint
      self.token = token
    }
  }

  /// What one ``drain()`` did.
  public struct Outcome: Sendable, Equatable {
    /// Payloads the collector stored, or had stored before.
    public var delivered = 0
    /// Payloads set aside, never sent again: refused by the collector, too large alone, or no JSON.
    public var refused = 0
    /// Payloads still waiting (the collector could not be reached, or asked to wait).
    public var waiting = 0
    /// Requests that failed and were retried.
    public var retries = 0

    /// An outcome with these counts.
    public init(delivered: Int = 0, refused: Int = 0, waiting: Int = 0, retries: Int = 0) {
      (self.delivered, self.refused, self.waiting, self.retries) = (delivered, refused, waiting, retries)
    }
  }

  /// The payloads waiting.
  public let queue: UploadQueue
  /// Where and how they are sent.
  public let configuration: Configuration
  private let session: URLSession
  private let sleep: @Sendable (Double) async -> Void

  /// An uploader of `queue`'s payloads; `sleep` waits (tests pass a shorter one).
  public init(
    queue: UploadQueue, configuration: Configuration, session: URLSession = .shared,
    sleep: @escaping @Sendable (Double) async -> Void = { seconds in
      // Bounded before the conversion: a wait is at most a day.
      try? await Task.sleep(nanoseconds: UInt64(min(max(seconds, 0), 86_400) * 1e9))
    }
  ) {
    self.queue = queue
    self.configuration = configuration
    self.session = session
    self.sleep = sleep
  }

  /// Sends every waiting payload, batch by batch, until the queue is empty or `maximumAttempts`
  /// requests in a row failed.
  ///
  /// Each payload is sent as its canonical line, whose id the device computes as the collector does;
  /// a file is removed only when a receipt lists its id as stored or as a duplicate. A document the
  /// receipt refuses is set aside with the collector's reason; one it does not mention stays queued.
  /// A batch answered `413` is split in halves down to one payload, and one payload still too large
  /// is set aside. A `202` without a receipt, or a `400` or `403` without one (a proxy's, or a body
  /// that did not inflate), is no verdict on the payloads: they stay, and the request is retried.
  public func drain() async throws -> Outcome {
    var outcome = Outcome()
    var failures = 0
    // Batches split after a 413, sent before anything else.
    var split: [[Item]] = []
    sending: while true {
      let batch: [Item]
      if let next = split.popLast() {
        batch = next
      } else {
        let waiting = try queue.pending()
        guard !waiting.isEmpty else { break }
        var items: [Item] = []
        for file in waiting where items.count < configuration.batchSize {
          switch Self.item(file) {
          case .success(let item): items.append(item)
          case .failure(let unsendable):
            queue.refuse(file, reason: unsendable.reason)
            outcome.refused += 1
          }
        }
        if items.isEmpty { continue }
        batch = items
      }
      switch await send(batch) {
      case .receipt(let receipt):
        var progressed = false
        for (i, item) in batch.enumerated() {
          if receipt.delivered.contains(item.id) {
            queue.remove(item.file)
            outcome.delivered += 1
            progressed = true
          } else if let reason = receipt.rejected[i] {
            queue.refuse(item.file, reason: "refused by the collector: \(reason)")
            outcome.refused += 1
            progressed = true
          }
        }
        // Nothing of the batch was settled: the answer said nothing about these payloads.
        if !progressed {
          failures += 1
          outcome.retries += 1
          if failures >= configuration.maximumAttempts { break sending }
          await pause(backoff(attempt: failures))
        } else {
          failures = 0
        }
      case .tooLarge:
        if batch.count == 1 {
          queue.refuse(batch[0].file, reason: "too large for the collector (413), alone in its request")
          outcome.refused += 1
        } else {
          split.append(Array(batch[(batch.count / 2)...]))
          split.append(Array(batch[..<(batch.count / 2)]))
        }
      case .retry(let after):
        failures += 1
        outcome.retries += 1
        if failures >= configuration.maximumAttempts { break sending }
        await pause(after ?? backoff(attempt: failures))
      }
    }
    outcome.waiting = try queue.pending().count
    return outcome
  }

  /// The wait after `attempt` failures in a row: a random time up to the exponential bound (full
  /// jitter, so that devices refused together do not return together).
  func backoff(attempt: Int) -> Double {
    let bound = min(configuration.maximumBackoff, configuration.initialBackoff * pow(2, Double(min(attempt, 62) - 1)))
    return Double.random(in: (bound / 2)...bound)
  }

  /// Waits `seconds`, bounded by the longest backoff.
  private func pause(_ seconds: Double) async {
    await sleep(min(max(seconds, 0), configuration.maximumBackoff))
  }

  /// A queued payload ready to send: its file, its canonical line and that line's id.
  struct Item {
    var file: URL
    var line: [UInt8]
    var id: PayloadID
  }

  /// A queued file as a payload to send, or why it can never be one.
  static func item(_ file: URL) -> Result<Item, Unsendable> {
    guard let data = try? Data(contentsOf: file) else { return .failure(.init("the queue cannot read this file")) }
    switch CanonicalJSON.canonical(Array(data)) {
    case .success(let line):
      guard line.first == UInt8(ascii: "{") else { return .failure(.init("not a payload object")) }
      return .success(Item(file: file, line: line, id: PayloadID(of: line)))
    case .failure(let error):
      return .failure(.init("not a JSON payload: \(error)"))
    }
  }

  /// Why a queued file can never be sent.
  struct Unsendable: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
  }

  /// What a collector's answer says.
  enum Answer {
    /// A receipt: the ids it holds now, and why documents were refused, by their index.
    case receipt(Receipt)
    /// 413: the request is too large; smaller ones may pass.
    case tooLarge
    /// No verdict on the payloads: try again, after this many seconds if the collector said.
    case retry(Double?)
  }

  /// A collector's receipt.
  struct Receipt {
    /// The ids stored by the request, or before it.
    var delivered: Set<PayloadID>
    /// Refused documents' reasons, by their index in the request.
    var rejected: [Int: String]

    /// The receipt of a response body; nil when the body is not one (a proxy's page, nothing).
    init?(_ data: Data) {
      guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
        let stored = object["stored"] as? [String], let duplicates = object["duplicates"] as? [String]
      else { return nil }
      let ids = (stored + duplicates).map { PayloadID(hex: $0) }
      guard !ids.contains(where: { $0 == nil }) else { return nil }
      delivered = Set(ids.compactMap { $0 })
      rejected = [:]
      for entry in object["rejected"] as? [[String: Any]] ?? [] {
        if let index = entry["index"] as? Int { rejected[index] = entry["error"] as? String ?? "no reason given" }
      }
    }
  }

  /// Sends `batch` as one request, the nth payload on the nth line (the receipt's indexes name them).
  private func send(_ batch: [Item]) async -> Answer {
    var lines = Data()
    for item in batch { lines += Data(item.line) + Data([0x0A]) }
    var request = URLRequest(url: configuration.endpoint.appendingPathComponent("v1/payloads"))
    request.httpMethod = "POST"
    request.setValue("Bearer \(configuration.token)", forHTTPHeaderField: "Authorization")
    request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
    request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
    guard let body = Self.gzip(lines),
      let (data, response) = try? await session.upload(for: request, from: body),
      let http = response as? HTTPURLResponse
    else { return .retry(nil) }
    let retryAfter = http.value(forHTTPHeaderField: "Retry-After").flatMap { Self.retryAfter($0, now: Date()) }
    switch http.statusCode {
    case 202, 400, 403:
      // Without a receipt the answer is a proxy's, or about the body: nothing is settled.
      guard let receipt = Receipt(data) else { return .retry(retryAfter) }
      return .receipt(receipt)
    case 413: return .tooLarge
    default: return .retry(retryAfter)
    }
  }

  /// Seconds to wait from a `Retry-After` value: a number of seconds (finite, not negative) or an
  /// HTTP date (RFC 9110), counted from `now`; nil for anything else.
  static func retryAfter(_ value: String, now: Date) -> Double? {
    let text = value.trimmingCharacters(in: .whitespaces)
    if let seconds = Double(text) { return seconds.isFinite && seconds >= 0 ? seconds : nil }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return max(0, date.timeIntervalSince(now)) }
    }
    return nil
  }

  /// `data` as one gzip member (zlib's deflate at its default level).
  static func gzip(_ data: Data) -> Data? {
    var stream = z_stream()
    guard
      deflateInit2_(
        &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
        Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else {
      return nil
    }
    defer { deflateEnd(&stream) }
    var input = [UInt8](data)
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
    let status = input.withUnsafeMutableBufferPointer { inBuffer in
      output.withUnsafeMutableBufferPointer { outBuffer in
        stream.next_in = inBuffer.baseAddress
        stream.avail_in = uInt(inBuffer.count)
        stream.next_out = outBuffer.baseAddress
        stream.avail_out = uInt(outBuffer.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { return nil }
    return Data(output[..<Int(stream.total_out)])
  }
}
