/// Why an alert could not be delivered, or the state of alerts sent could not be kept. No message
/// holds a token, a routing key or a webhook's path.
public enum AlertError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The request failed before a status arrived, after every attempt.
  case transport(receiver: String, reason: String)
  /// The receiver answered with a status that is not success (after the retries a 429 or 5xx gets).
  case refused(receiver: String, status: Int, detail: String)
  /// A receiver's settings cannot be used (an unusable URL, a token sent in clear).
  case configuration(String)
  /// The state file cannot be read or written.
  case state(path: String, reason: String)

  public var description: String {
    switch self {
    case .transport(let receiver, let reason): "\(receiver): \(reason)"
    case .refused(let receiver, let status, let detail):
      "\(receiver) refused the alert: HTTP \(status)" + (detail.isEmpty ? "" : ": \(detail)")
    case .configuration(let message): message
    case .state(let path, let reason): "\(path): \(reason)"
    }
  }
}
