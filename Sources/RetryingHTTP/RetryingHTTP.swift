import CMetricsHTTP
import Foundation

/// Requests through the libcurl shim, tried again when they may succeed later: a failed connection,
/// a 429 or a 5xx waits for the server's `Retry-After` or a pause that doubles, up to a number of
/// attempts; any other answer is final. App Store Connect's client and watch's alerts send through it.
package struct RetryingHTTP: Sendable {
  /// Attempts per request, the first included.
  package var attempts: Int
  /// The pause before the second attempt, doubled before each next (unless the server says).
  package var pause: TimeInterval
  /// The longest pause, whatever `Retry-After` says.
  package var longestPause: TimeInterval
  /// Seconds a request may take.
  package var timeout: Int
  /// A PEM bundle of certificate authorities to trust instead of the system's; nil for the system's.
  package var certificateAuthorities: String?
  /// The largest response accepted, in bytes.
  package var maximumResponseSize: Int

  package init(
    attempts: Int, pause: TimeInterval, longestPause: TimeInterval, timeout: Int, certificateAuthorities: String?,
    maximumResponseSize: Int
  ) {
    self.attempts = attempts
    self.pause = pause
    self.longestPause = longestPause
    self.timeout = timeout
    self.certificateAuthorities = certificateAuthorities
    self.maximumResponseSize = maximumResponseSize
  }

  /// How a request ended, after the retries.
  package enum Outcome: Sendable {
    /// A 2xx answer, with its body.
    case success([UInt8])
    /// No status arrived (or the body passed the size limit): why.
    case failed(reason: String)
    /// Another status, with its body.
    case status(Int, [UInt8])
  }

  /// GETs `url` (POSTs `body`, when given) with the headers `headers()` makes for each attempt (a
  /// fresh token), saying each retry to `log` as `named: …` (`named` never holds a secret).
  package func send<E: Error>(
    _ url: String, body: [UInt8]? = nil, named: String, log: (String) -> Void,
    headers: () throws(E) -> [String]
  ) throws(E) -> Outcome {
    var wait = pause
    var attempt = 1
    while true {
      var response = mr_http_response()
      var cHeaders = try headers().map { strdup($0) }
      defer { for header in cHeaders { free(header) } }
      let status = cHeaders.withUnsafeMutableBufferPointer { buffer in
        buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
          guard let body else {
            return mr_http_get(
              url, pointers.baseAddress, pointers.count, certificateAuthorities, timeout, maximumResponseSize,
              &response)
          }
          return body.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
              mr_http_post(
                url, pointers.baseAddress, pointers.count, chars.baseAddress, chars.count, certificateAuthorities,
                timeout, maximumResponseSize, &response)
            }
          }
        }
      }
      defer { mr_http_response_free(&response) }
      let reason = withUnsafeBytes(of: response.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      let answer =
        response.body.map {
          Array(
            UnsafeBufferPointer(
              start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: response.body_length))
        } ?? []
      let code = Int(response.status)
      if status == 0 && (200..<300).contains(code) { return .success(answer) }
      if status == -2 { return .failed(reason: reason) }
      let retryable = status == -1 || code == 429 || code >= 500
      guard retryable, attempt < attempts else {
        return status != 0 ? .failed(reason: reason) : .status(code, answer)
      }
      let serverSays = response.retry_after >= 0 ? TimeInterval(response.retry_after) : nil
      let seconds = min(serverSays ?? wait, longestPause)
      log(
        "\(named): \(status == 0 ? "HTTP \(code)" : reason); attempt \(attempt + 1) of \(attempts) in "
          + String(format: "%.3g", seconds) + " s")
      Thread.sleep(forTimeInterval: seconds)
      wait *= 2
      attempt += 1
    }
  }
}
