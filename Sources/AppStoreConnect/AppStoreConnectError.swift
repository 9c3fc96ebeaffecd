/// Why a request to App Store Connect failed. No message carries the private key or a token.
public enum AppStoreConnectError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The key could not be read or used.
  case badKey(String)
  /// The request did not reach the server or got no answer (after the retries).
  case transport(url: String, reason: String)
  /// The server answered with an error status (after the retries, for 429 and 5xx): the status,
  /// and Apple's own error text when the body holds one.
  case status(url: String, code: Int, detail: String)
  /// The answer is not the response it should be (`OrganizerReader`'s reason).
  case response(url: String, reason: String)
  /// The output folder could not be written.
  case output(String)
  /// What was asked cannot be asked: an identifier that would change the request's path.
  case request(String)

  public var description: String {
    switch self {
    case .badKey(let reason): return "the API key: \(reason)"
    case .transport(let url, let reason): return "\(url): \(reason)"
    case .status(let url, let code, let detail):
      let meaning: String
      switch code {
      case 401: meaning = " (unauthorized: check --key-id, --issuer-id and the key; the token is refused)"
      case 403: meaning = " (forbidden: the key's role does not allow this request)"
      case 404: meaning = " (not found: check --app-id or --build)"
      case 429: meaning = " (rate limit reached; retried)"
      default: meaning = code >= 500 ? " (server error; retried)" : ""
      }
      return "\(url): HTTP \(code)\(meaning)" + (detail.isEmpty ? "" : ": \(detail)")
    case .response(let url, let reason): return "\(url): \(reason)"
    case .output(let reason): return reason
    case .request(let reason): return reason
    }
  }
}
