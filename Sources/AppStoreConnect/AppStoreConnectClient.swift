import Foundation
import RetryingHTTP

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
    let http = RetryingHTTP(
      attempts: attempts, pause: pause, longestPause: longestPause, timeout: timeout,
      certificateAuthorities: certificateAuthorities, maximumResponseSize: maximumResponseSize)
    let outcome = try http.send(url, named: url, log: log) { () throws(AppStoreConnectError) in
      ["Authorization: Bearer \(try key.token())", "Accept: \(Self.accept)"]
    }
    switch outcome {
    case .success(let body): return body
    case .failed(let reason): throw .transport(url: url, reason: reason)
    case .status(let code, let body): throw .status(url: url, code: code, detail: Self.detail(body))
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
