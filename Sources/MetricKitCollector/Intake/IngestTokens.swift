import Crypto

/// The apps allowed to send payloads: each ingest token's SHA-256, and the bundle identifier its
/// payloads must carry. The file holds hashes only, so reading it gives no token away.
///
/// The file has one token a line, `sha256:<64 hex digits> <bundle identifier>`; blank lines and
/// lines starting with `#` are ignored.
public struct IngestTokens: Sendable {
  private var bundles: [(hash: [UInt8], bundle: String)]

  /// The tokens of a file's text; `name` is the file's, for errors.
  public init(text: String, name: String) throws(TokenFileError) {
    bundles = []
    for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      if fields.isEmpty || fields[0].hasPrefix("#") { continue }
      guard fields.count == 2, fields[0].hasPrefix("sha256:"),
        let hash = PayloadID(hex: String(fields[0].dropFirst("sha256:".count)))
      else {
        throw TokenFileError(file: name, line: n + 1, reason: "expected 'sha256:<64 hex digits> <bundle identifier>'")
      }
      let bundle = String(fields[1])
      guard SegmentStore.isPlainName(bundle) else {
        throw TokenFileError(
          file: name, line: n + 1, reason: "'\(bundle)' is not a bundle identifier (letters, digits, '.', '-', '_')")
      }
      bundles.append((hash.bytes, bundle))
    }
    guard !bundles.isEmpty else { throw TokenFileError(file: name, line: nil, reason: "no token") }
  }

  /// The bundle identifier `token` sends for; nil for an unknown token. Every hash is compared in
  /// full whatever matched, in time independent of where the bytes differ.
  public func bundle(for token: some StringProtocol) -> String? {
    let hash = Array(SHA256.hash(data: Array(token.utf8)))
    var found: String?
    for entry in bundles {
      var difference: UInt8 = 0
      for i in 0..<32 { difference |= entry.hash[i] ^ hash[i] }
      if difference == 0 { found = entry.bundle }
    }
    return found
  }

  /// A line of the tokens file for `token` and `bundle`.
  public static func line(token: String, bundle: String) -> String {
    "sha256:\(PayloadID(of: Array(token.utf8))) \(bundle)"
  }
}

/// Why a tokens file was refused.
public struct TokenFileError: Error, Sendable, CustomStringConvertible {
  /// The file.
  public var file: String
  /// The line (from 1), if one is at fault.
  public var line: Int?
  /// What is wrong.
  public var reason: String

  public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(reason)" }
}
