import Synchronization

/// The tokens a running collector accepts: read from their file at start-up and again on demand
/// (SIGHUP), so that a token is added or revoked without a restart. A file that no longer reads
/// leaves the tokens as they were.
public final class TokenRegistry: Sendable {
  private let current: Mutex<IngestTokens>
  /// The file the tokens are read from, if any.
  public let file: String?

  /// The registry of `tokens`, read again from `file` on ``reload()``.
  public init(_ tokens: IngestTokens, file: String? = nil) {
    current = Mutex(tokens)
    self.file = file
  }

  /// Reads the file again; returns how many tokens it lists. On an error the tokens stay as they were.
  @discardableResult
  public func reload() throws(TokenFileError) -> Int {
    guard let file else { return current.withLock { $0.count } }
    let tokens = try IngestTokens(contentsOfFile: file)
    current.withLock { $0 = tokens }
    return tokens.count
  }

  /// The bundle identifier `token` sends for; nil for an unknown token.
  public func bundle(for token: some StringProtocol) -> String? {
    let tokens = current.withLock { $0 }
    return tokens.bundle(for: token)
  }
}
