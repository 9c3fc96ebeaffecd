import CMetricsSigning
import Crypto
import Foundation
import Testing

@testable import AppStoreConnect
@testable import MetricKitAnalysis

/// The package's own SHA-256 (Nettle's) and ES256 tokens (Nettle's ECDSA), checked against published
/// vectors and against swift-crypto, a second implementation; and the `.p8` reader's refusals.
@Suite struct AppStoreConnectKeyTests {
  @Test func sha256MatchesThePublishedVectorsAndASecondImplementation() {
    #expect(
      ContentHash.hex(ContentHash.sha256([UInt8]()))
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      ContentHash.hex(ContentHash.sha256(Array("abc".utf8)))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      ContentHash.hex(ContentHash.sha256([UInt8](repeating: 0x61, count: 1_000_000)))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    var generator = SystemRandomNumberGenerator()
    for length in [1, 55, 56, 63, 64, 65, 1000, 100_003] {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      #expect(ContentHash.sha256(bytes) == Array(SHA256.hash(data: bytes)), "\(length) bytes")
      #expect(ContentHash.sha256(Data(bytes)) == ContentHash.sha256(bytes))
      // A start hashed once, then each rest: the digest of the whole.
      let cut = length / 3
      #expect(
        ContentHash.Start(bytes[..<cut]).hex(followedBy: bytes[cut...]) == ContentHash.hex(SHA256.hash(data: bytes)))
    }
  }

  /// A token's parts, and whether swift-crypto's verifier takes its signature with `publicKey`.
  static func verifies(_ token: String, _ publicKey: P256.Signing.PublicKey) throws -> Bool {
    let parts = token.split(separator: ".").map(String.init)
    try #require(parts.count == 3)
    var base64 = parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    let raw = try #require(Data(base64Encoded: base64))
    #expect(raw.count == 64)
    let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
    return publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
  }

  @Test func tokensSignedFromAPKCS8KeyVerifyWithItsPublicKey() throws {
    for _ in 0..<20 {
      let key = P256.Signing.PrivateKey()
      let ours = try AppStoreConnectKey(keyID: "ABC123", issuerID: "issuer", pem: key.pemRepresentation)
      let token = try ours.token(now: Date(timeIntervalSince1970: 1_700_000_000))
      #expect(try Self.verifies(token, key.publicKey))
      #expect(try !Self.verifies(token, P256.Signing.PrivateKey().publicKey))
    }
  }

  /// SEC 1's ECPrivateKey, as `openssl ecparam -genkey` writes it: the scalar, the curve, the public key.
  static func sec1PEM(_ key: P256.Signing.PrivateKey, curve: [UInt8] = P256PrivateKeyPEM.prime256v1) -> String {
    func item(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
      let count = contents.count
      let length: [UInt8] = count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
      return [tag] + length + contents
    }
    let scalar = [UInt8](key.rawRepresentation)
    let der = item(
      0x30,
      item(0x02, [1]) + item(0x04, scalar) + item(0xA0, item(0x06, curve))
        + item(0xA1, item(0x03, [0] + [UInt8](key.publicKey.x963Representation))))
    return "-----BEGIN EC PRIVATE KEY-----\n" + Data(der).base64EncodedString(options: .lineLength64Characters)
      + "\n-----END EC PRIVATE KEY-----\n"
  }

  @Test func aSEC1KeySignsTooAndAnotherCurveDoesNot() throws {
    let key = P256.Signing.PrivateKey()
    let ours = try AppStoreConnectKey(keyID: "K", issuerID: "I", pem: Self.sec1PEM(key))
    #expect(try Self.verifies(ours.token(), key.publicKey))
    // secp384r1's key, in either form, and a SEC 1 key naming another curve.
    for pem in [P384.Signing.PrivateKey().pemRepresentation, Self.sec1PEM(key, curve: [0x2B, 0x81, 0x04, 0x00, 0x22])] {
      #expect(throws: AppStoreConnectError.self) { try AppStoreConnectKey(keyID: "K", issuerID: "I", pem: pem) }
    }
  }

  @Test func scalarsOutsideTheGroupAndDamagedKeysAreRefused() throws {
    // 0 and the group's order n are not keys; n − 1 is.
    let order: [UInt8] = [
      0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
      0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]
    var below = order
    below[31] -= 1
    #expect(mr_p256_scalar_is_valid([UInt8](repeating: 0, count: 32)) == 0)
    #expect(mr_p256_scalar_is_valid(order) == 0)
    #expect(mr_p256_scalar_is_valid(below) == 1)
    // Every cut of a valid key's DER is refused; every one-byte change is refused or read as a key
    // whose tokens sign.
    let pem = P256.Signing.PrivateKey().pemRepresentation
    let der = try #require(P256PrivateKeyPEM.body(of: pem, label: "PRIVATE KEY"))
    func wrapped(_ bytes: [UInt8]) -> String {
      "-----BEGIN PRIVATE KEY-----\n\(Data(bytes).base64EncodedString())\n-----END PRIVATE KEY-----\n"
    }
    for cut in 0..<der.count { #expect(P256PrivateKeyPEM.scalar(wrapped(Array(der[..<cut]))) == nil, "cut at \(cut)") }
    #expect(P256PrivateKeyPEM.scalar(wrapped(der + [0])) == nil)
    for index in der.indices {
      var changed = der
      changed[index] ^= 0x5A
      if let key = try? AppStoreConnectKey(keyID: "K", issuerID: "I", pem: wrapped(changed)) {
        #expect(try key.token().split(separator: ".").count == 3)
      }
    }
    for text in [
      "", "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----", "not a key", wrapped([0x30, 0x84, 0, 0, 0, 1]),
    ] {
      #expect(P256PrivateKeyPEM.scalar(text) == nil, "\(text)")
    }
  }
}
