import CMetricsHTTP
import Foundation

/// POST requests to alert receivers, with retries: a failed connection, a 429 or a 5xx is tried
/// again after the server's `Retry-After` or a pause that doubles; any other answer is final.
public struct AlertTransport: Sendable {
  /// Attempts per request, the first included.
  public var attempts = 4
  /// The pause before the second attempt, doubled before each next.
  public var pause: TimeInterval = 1
  /// The longest pause, whatever `Retry-After` says.
  public var longestPause: TimeInterval = 30
  /// Seconds a request may take.
  public var timeout = 30
  /// A PEM bundle of certificate authorities to trust instead of the system's; nil for the system's.
  public var certificateAuthorities: String?
  /// Where retries are told (standard error in the CLI); never a header, a body or a URL's path.
  public var log: @Sendable (String) -> Void = { _ in }

  /// Creates a transport with the default retries.
  public init() {}

  /// POSTs `body` to `url` with `headers`; `receiver` names the receiver in messages.
  /// - Returns: The response body of a 2xx answer.
  public func post(_ url: String, headers: [String], body: [UInt8], receiver: String) throws(AlertError) -> [UInt8] {
    var wait = pause
    var attempt = 1
    while true {
      var response = mr_http_response()
      var cHeaders = headers.map { strdup($0) }
      defer { for header in cHeaders { free(header) } }
      let status = cHeaders.withUnsafeMutableBufferPointer { buffer in
        buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
          body.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
              mr_http_post(
                url, pointers.baseAddress, pointers.count, chars.baseAddress, chars.count, certificateAuthorities,
                timeout, 1 << 20, &response)
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
      if status == 0 && (200..<300).contains(code) { return answer }
      let retryable = status == -1 || code == 429 || code >= 500
      guard retryable, attempt < attempts else {
        if status != 0 { throw .transport(receiver: receiver, reason: reason) }
        throw .refused(receiver: receiver, status: code, detail: Self.detail(answer))
      }
      let serverSays = response.retry_after >= 0 ? TimeInterval(response.retry_after) : nil
      let seconds = min(serverSays ?? wait, longestPause)
      log(
        "\(receiver): \(status == 0 ? "HTTP \(code)" : reason); attempt \(attempt + 1) of \(attempts) in "
          + String(format: "%.3g", seconds) + " s")
      Thread.sleep(forTimeInterval: seconds)
      wait *= 2
      attempt += 1
    }
  }

  /// The start of a refusal's body, on one line, printable characters only.
  static func detail(_ body: [UInt8]) -> String {
    let text = String(decoding: body.prefix(300), as: UTF8.self)
    return String(
      text.unicodeScalars.map { $0.properties.isWhitespace ? " " : Character($0) }.filter {
        !$0.isASCII || $0.asciiValue! >= 32
      }
    )
    .trimmingCharacters(in: .whitespaces)
  }
}
