import CZlib
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends an ``UploadQueue``'s payloads to a `metrics-report collect` service: a batch at a time as
/// gzip-compressed NDJSON with the app's ingest token; removes each payload only once the collector's
/// `202` said it is stored (or was before), sets aside the ones it refused, and on any other answer
/// or none waits — exponentially longer, with jitter, or as `Retry-After` says — before trying again.
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
    /// Payloads it refused (set aside, never sent again).
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
    sleep: @escaping @Sendable (Double) async -> Void = { try? await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }
  ) {
    self.queue = queue
    self.configuration = configuration
    self.session = session
    self.sleep = sleep
  }

  /// Sends every waiting payload, batch by batch, until the queue is empty or `maximumAttempts`
  /// requests in a row failed.
  public func drain() async throws -> Outcome {
    var outcome = Outcome()
    var failures = 0
    var waiting = Int.max
    sending: while true {
      var files: [URL] = []
      var payloads: [Data] = []
      for file in try queue.pending().prefix(configuration.batchSize) {
        // A file that cannot be read is no payload to send: set aside, with the refused.
        guard let data = try? Data(contentsOf: file) else {
          queue.refuse(file)
          outcome.refused += 1
          continue
        }
        files.append(file)
        payloads.append(data)
      }
      // Nothing readable in this batch: go on while setting files aside shrank the queue.
      if files.isEmpty {
        let left = try queue.pending().count
        if left == 0 || left >= waiting { break }
        waiting = left
        continue
      }
      let answer = await send(payloads)
      switch answer {
      case .stored(let refusedIndexes):
        for (i, file) in files.enumerated() {
          if refusedIndexes.contains(i) {
            queue.refuse(file)
            outcome.refused += 1
          } else {
            queue.remove(file)
            outcome.delivered += 1
          }
        }
        failures = 0
      case .refused:
        for file in files { queue.refuse(file) }
        outcome.refused += files.count
      case .retry(let after):
        failures += 1
        outcome.retries += 1
        if failures >= configuration.maximumAttempts { break sending }
        await sleep(after ?? backoff(attempt: failures))
        continue
      }
    }
    outcome.waiting = try queue.pending().count
    return outcome
  }

  /// The wait after `attempt` failures in a row: a random time up to the exponential bound (full
  /// jitter, so that devices refused together do not return together).
  func backoff(attempt: Int) -> Double {
    let bound = min(configuration.maximumBackoff, configuration.initialBackoff * pow(2, Double(attempt - 1)))
    return Double.random(in: (bound / 2)...bound)
  }

  private enum Answer {
    /// 202: stored, except the documents at these indexes.
    case stored(Set<Int>)
    /// 400 or 403: none will ever be taken.
    case refused
    /// Anything else: try again, after this many seconds if the collector said.
    case retry(Double?)
  }

  /// Sends `payloads` as one request, the nth on the nth line (the receipt's indexes name them).
  private func send(_ payloads: [Data]) async -> Answer {
    var lines = Data()
    for data in payloads {
      // One payload a line: MetricKit's JSON may be pretty-printed (a line break is never inside a
      // JSON string).
      lines += Data(data.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }) + Data([0x0A])
    }
    var request = URLRequest(url: configuration.endpoint.appendingPathComponent("v1/payloads"))
    request.httpMethod = "POST"
    request.setValue("Bearer \(configuration.token)", forHTTPHeaderField: "Authorization")
    request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
    request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
    guard let body = Self.gzip(lines),
      let (data, response) = try? await session.upload(for: request, from: body),
      let http = response as? HTTPURLResponse
    else { return .retry(nil) }
    let retryAfter = http.value(forHTTPHeaderField: "Retry-After").flatMap(Double.init)
    switch http.statusCode {
    case 202:
      let receipt = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
      let rejected = (receipt?["rejected"] as? [[String: Any]] ?? []).compactMap { $0["index"] as? Int }
      return .stored(Set(rejected))
    case 400, 403: return .refused
    default: return .retry(retryAfter)
    }
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
