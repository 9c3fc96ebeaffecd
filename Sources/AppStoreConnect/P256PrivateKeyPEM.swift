import CMetricsSigning
import Foundation

/// The private scalar of a P-256 key written as PEM: PKCS #8 (`BEGIN PRIVATE KEY`, what App Store
/// Connect's `.p8` files hold) or SEC 1 (`BEGIN EC PRIVATE KEY`). Only what those two forms hold is
/// read, strictly: every length within its parent, the curve P-256 (named in the algorithm's
/// parameters or the key's own), a scalar of at most 32 bytes that is a key of that curve.
enum P256PrivateKeyPEM {
  /// The scalar, 32 bytes big-endian, or nil when `pem` holds no P-256 private key.
  static func scalar(_ pem: String) -> [UInt8]? {
    for (label, read) in [("PRIVATE KEY", pkcs8), ("EC PRIVATE KEY", sec1)] {
      guard let der = body(of: pem, label: label) else { continue }
      var reader = DERReader(der)
      guard let scalar = read(&reader), reader.isAtEnd, mr_p256_scalar_is_valid(scalar) == 1 else { return nil }
      return scalar
    }
    return nil
  }

  /// The DER bytes between `-----BEGIN label-----` and `-----END label-----`.
  static func body(of pem: String, label: String) -> [UInt8]? {
    let begin = "-----BEGIN \(label)-----"
    let end = "-----END \(label)-----"
    guard let start = pem.range(of: begin), let stop = pem.range(of: end, range: start.upperBound..<pem.endIndex)
    else { return nil }
    let text = pem[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
    return Data(base64Encoded: String(text)).map { [UInt8]($0) }
  }

  /// `id-ecPublicKey` (1.2.840.10045.2.1) and `prime256v1` (1.2.840.10045.3.1.7), as DER contents.
  static let ecPublicKey: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
  static let prime256v1: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]

  /// PrivateKeyInfo: version 0, the algorithm (EC, curve P-256), the SEC 1 key as an octet string.
  static func pkcs8(_ reader: inout DERReader) -> [UInt8]? {
    guard var info = reader.reader(.sequence), info.contents(.integer) == [0], var algorithm = info.reader(.sequence),
      algorithm.contents(.objectIdentifier) == ecPublicKey
    else { return nil }
    let curve = algorithm.contents(.objectIdentifier)
    guard algorithm.isAtEnd, curve == nil || curve == prime256v1, let key = info.contents(.octetString) else {
      return nil
    }
    // Attributes ([0]) may follow; nothing else.
    if !info.isAtEnd { _ = info.contents(DERReader.contextZero) }
    guard info.isAtEnd else { return nil }
    var inner = DERReader(Array(key))
    guard let scalar = ecPrivateKey(&inner, curveKnown: curve != nil), inner.isAtEnd else { return nil }
    return scalar
  }

  /// ECPrivateKey on its own: the curve must be named inside it.
  static func sec1(_ reader: inout DERReader) -> [UInt8]? { ecPrivateKey(&reader, curveKnown: false) }

  /// ECPrivateKey (RFC 5915): version 1, the scalar, optionally [0] the curve and [1] the public key.
  static func ecPrivateKey(_ reader: inout DERReader, curveKnown: Bool) -> [UInt8]? {
    guard var key = reader.reader(.sequence), key.contents(.integer) == [1], let scalar = key.contents(.octetString),
      (1...32).contains(scalar.count)
    else { return nil }
    var named = curveKnown
    if var parameters = key.reader(DERReader.contextZero) {
      guard parameters.contents(.objectIdentifier) == prime256v1, parameters.isAtEnd else { return nil }
      named = true
    }
    if !key.isAtEnd { guard key.contents(DERReader.contextOne) != nil else { return nil } }
    guard named, key.isAtEnd else { return nil }
    return [UInt8](repeating: 0, count: 32 - scalar.count) + scalar
  }
}
