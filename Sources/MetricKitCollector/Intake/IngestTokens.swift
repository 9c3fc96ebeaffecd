import Foundation

/// The apps allowed to send payloads: each ingest token's SHA-256, and the bundle identifier its
/// payloads must carry. The file holds hashes only, so reading it gives no token away.
///
/// The file has one token a line, `sha256:<64 hex digits> <bundle identifier>`; blank lines and
/// lines starting with `#` are ignored, and so is a carriage return ending a line. A token listed
/// twice is an error naming both lines.
public struct IngestTokens: Sendable {
  private var bundles: [(hash: PayloadID, bundle: String)]

  /// How many tokens the file lists.
  public var count: Int { bundles.count }

  /// The tokens of a file's text; `name` is the file's, for errors.
  public init(text: String, name: String) throws(TokenFileError) {
    bundles = []
    var lineOf: [PayloadID: Int] = [:]
    // "\r\n" is one Character to Swift: lines are split on either ending.
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    for (n, raw) in lines.enumerated() {
      let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      if fields.isEmpty || fields[0].hasPrefix("#") { continue }
      guard fields.count == 2, fields[0].hasPrefix("sha256:"), let hash = PayloadID(hex: fields[0].dropFirst(7)) else {
        throw TokenFileError(file: name, line: n + 1, reason: "expected 'sha256:<64 hex digits> <bundle identifier>'")
      }
      let bundle = String(fields[1])
      guard SegmentStore.isPlainName(bundle) else {
        throw TokenFileError(
          file: name, line: n + 1, reason: "'\(bundle)' is not a bundle identifier (letters, digits, '.', '-', '_')")
      }
      if let first = lineOf[hash] {
        throw TokenFileError(file: name, line: n + 1, reason: "the same token as line \(first)")
      }
      lineOf[hash] = n + 1
      bundles.append((hash, bundle))
    }
    guard !bundles.isEmpty else { throw TokenFileError(file: name, line: nil, reason: "no token") }
  }

  /// The tokens of the file at `path`.
  public init(contentsOfFile path: String) throws(TokenFileError) {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw TokenFileError(file: path, line: nil, reason: "cannot be read")
    }
    try self.init(text: String(decoding: data, as: UTF8.self), name: path)
  }

  /// The bundle identifier `token` sends for; nil for an unknown token. Every hash is compared in
  /// full whatever matched, in time independent of where the bytes differ.
  public func bundle(for token: some StringProtocol) -> String? {
    let hash = PayloadID(of: Array(token.utf8))
    var found: String?
    for entry in bundles where entry.hash.equalsInConstantTime(hash) { found = entry.bundle }
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
