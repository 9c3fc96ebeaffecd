import CNettle
import Foundation

/// SHA-256 (Nettle's), for digests that must not collide by accident: the Content-Security-Policy
/// hashes of the report's own script and style (the page runs exactly the code it ships, and nothing a
/// payload string might smuggle in would run even if escaping failed), the identities of snapshot
/// shards (``ShardIdentity``), and the keys of the cache's entries and results.
package enum ContentHash {
  /// The SHA-256 digest of `bytes`.
  static func sha256(_ bytes: some DataProtocol) -> [UInt8] {
    var state = sha256_ctx()
    nettle_sha256_init(&state)
    update(&state, bytes)
    return digest(&state)
  }

  /// Adds `bytes` to `state`, region by region.
  private static func update(_ state: inout sha256_ctx, _ bytes: some DataProtocol) {
    for region in bytes.regions {
      region.withUnsafeBytes { raw in
        guard let base = raw.baseAddress, raw.count > 0 else { return }
        nettle_sha256_update(&state, raw.count, base.assumingMemoryBound(to: UInt8.self))
      }
    }
  }

  /// The digest of what `state` took.
  private static func digest(_ state: inout sha256_ctx) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
    out.withUnsafeMutableBufferPointer { nettle_sha256_digest(&state, $0.count, $0.baseAddress) }
    return out
  }

  /// SHA-256 digests of texts that start alike: the start hashed once, each text's digest then hashing
  /// only what follows it (keys that share a long recipe). Sendable: Nettle's state is a plain C
  /// struct, copied before it changes, and the start's own state is only ever copied.
  struct Start: @unchecked Sendable {
    private let state: sha256_ctx

    init(_ start: some DataProtocol) {
      var state = sha256_ctx()
      nettle_sha256_init(&state)
      ContentHash.update(&state, start)
      self.state = state
    }

    /// The digest, in hex, of the start followed by `rest`.
    func hex(followedBy rest: some DataProtocol) -> String {
      var state = state
      ContentHash.update(&state, rest)
      return ContentHash.hex(ContentHash.digest(&state))
    }
  }

  /// `bytes` as lower-case hexadecimal digits, two a byte (digests as identities and keys).
  package static func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(64)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The CSP source expression of `text`: `'sha256-<base64>'`.
  static func cspSource(_ text: String) -> String {
    "'sha256-\(Data(sha256(Array(text.utf8))).base64EncodedString())'"
  }
}
