import CMetricsHTTP
import Foundation

/// Signed GET requests to App Store Connect, with retries: a 429 or 5xx answer is tried again after
/// the server's `Retry-After` or an exponential pause; a 401, 403 or 404 is an error at once. Every
/// request carries a fresh enough ES256 token of ``key`` and the `Accept` header the metrics
/// endpoints want.
public struct AppStoreConnectClient: Sendable {
  /// The API's root, `https://api.appstoreconnect.apple.com` (another only for tests and proxies).
  public var baseURL: String
  /// The key that signs the tokens.
  public var key: AppStoreConnectKey
  /// A PEM bundle of certificate authorities to trust instead of the system's (a proxy's, a test
  /// server's); nil for the system's.
  public var certificateAuthorities: String?
  /// Attempts per request, the first included.
  public var attempts = 4
  /// The pause before the second attempt, doubled before each next (unless the server says).
  public var pause: TimeInterval = 2
  /// The longest pause, whatever `Retry-After` says.
  public var longestPause: TimeInterval = 60
  /// Seconds a request may take.
  public var timeout = 120
  /// The largest response accepted, in bytes.
  public var maximumResponseSize = 256 << 20
  /// Where progress and retries are told (standard error in the CLI); never a token.
  public var log: @Sendable (String) -> Void = { _ in }

  /// The media type of the metrics endpoints, which Apple's own sample script sends; the others
  /// answer JSON to it too.
  static let accept = "application/vnd.apple.xcode-metrics+json, application/json"

  /// Creates a client.
  public init(key: AppStoreConnectKey, baseURL: String = "https://api.appstoreconnect.apple.com") {
    self.key = key
    self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
  }

  /// The body of `GET url`, after the retries.
  /// - Throws: ``AppStoreConnectError``: the transport's reason, or the status with Apple's text.
  public func get(_ url: String) throws(AppStoreConnectError) -> [UInt8] {
    var wait = pause
    var attempt = 1
    while true {
      let token = try key.token()
      var response = mr_http_response()
      let headers = ["Authorization: Bearer \(token)", "Accept: \(Self.accept)"]
      var cHeaders = headers.map { strdup($0) }
      defer { for header in cHeaders { free(header) } }
      let status = cHeaders.withUnsafeMutableBufferPointer { buffer in
        buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
          mr_http_get(
            url, pointers.baseAddress, pointers.count, certificateAuthorities, timeout, maximumResponseSize, &response)
        }
      }
      defer { mr_http_response_free(&response) }
      let reason = withUnsafeBytes(of: response.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      let body =
        response.body.map {
          Array(
            UnsafeBufferPointer(
              start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: response.body_length))
        } ?? []
      let code = Int(response.status)
      let retryable = status == -1 || code == 429 || code >= 500
      if status == 0 && (200..<300).contains(code) { return body }
      if status == -2 { throw .transport(url: url, reason: reason) }
      guard retryable, attempt < attempts else {
        if status != 0 { throw .transport(url: url, reason: reason) }
        throw .status(url: url, code: code, detail: Self.detail(body))
      }
      let serverSays = response.retry_after >= 0 ? TimeInterval(response.retry_after) : nil
      let seconds = min(serverSays ?? wait, longestPause)
      log(
        "\(url): \(status == 0 ? "HTTP \(code)" : reason); attempt \(attempt + 1) of \(attempts) in "
          + String(format: "%.3g", seconds) + " s")
      Thread.sleep(forTimeInterval: seconds)
      wait *= 2
      attempt += 1
    }
  }

  /// Apple's error text (`errors[].title` and `detail`), or the start of the body.
  static func detail(_ body: [UInt8]) -> String {
    if let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
      let errors = object["errors"] as? [[String: Any]]
    {
      let texts = errors.map { e in
        [e["code"] as? String, e["title"] as? String, e["detail"] as? String].compactMap { $0 }.joined(separator: ": ")
      }
      return texts.joined(separator: "; ")
    }
    let text = String(decoding: body.prefix(200), as: UTF8.self)
    return text.unicodeScalars.filter { $0.value >= 0x20 }.map(String.init).joined()
  }

  /// Whether `url` is on this client's server (a page's `next` link must be, or the token would go
  /// elsewhere).
  func isOnServer(_ url: String) -> Bool {
    url == baseURL || url.hasPrefix(baseURL + "/") || url.hasPrefix(baseURL + "?")
  }
}
