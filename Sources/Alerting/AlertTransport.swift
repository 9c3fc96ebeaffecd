import Foundation
import RetryingHTTP

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
    let http = RetryingHTTP(
      attempts: attempts, pause: pause, longestPause: longestPause, timeout: timeout,
      certificateAuthorities: certificateAuthorities, maximumResponseSize: 1 << 20)
    switch http.send(url, body: body, named: receiver, log: log, headers: { headers }) {
    case .success(let answer): return answer
    case .failed(let reason): throw .transport(receiver: receiver, reason: reason)
    case .status(let code, let answer): throw .refused(receiver: receiver, status: code, detail: Self.detail(answer))
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
