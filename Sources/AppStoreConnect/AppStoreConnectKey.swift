import CMetricsSigning
import Foundation
import MetricKitAnalysis

/// An App Store Connect API key: its identifier, its issuer, and the P-256 private key of the
/// `AuthKey_<id>.p8` file, which signs the short-lived ES256 tokens every request carries.
///
/// The private key is never written anywhere: ``description`` names the key by its identifier only.
public struct AppStoreConnectKey: Sendable, CustomStringConvertible {
  /// The key's identifier (the JWT header's `kid`).
  public let keyID: String
  /// The issuer's identifier (the JWT's `iss`), from App Store Connect's Keys page.
  public let issuerID: String
  /// The private key's scalar, 32 bytes big-endian.
  private let privateKey: [UInt8]

  /// The audience App Store Connect expects.
  static let audience = "appstoreconnect-v1"
  /// The longest life App Store Connect accepts for a token, in seconds.
  public static let maximumLifetime: TimeInterval = 20 * 60

  /// A key from the text of a `.p8` file (PKCS #8 PEM, `BEGIN PRIVATE KEY`).
  /// - Throws: ``AppStoreConnectError/badKey(_:)`` when the text holds no P-256 private key; the
  ///   message does not quote the text.
  public init(keyID: String, issuerID: String, pem: String) throws(AppStoreConnectError) {
    guard !keyID.isEmpty, !issuerID.isEmpty else { throw .badKey("the key and issuer identifiers must not be empty") }
    guard let scalar = P256PrivateKeyPEM.scalar(pem) else {
      throw .badKey("not a P-256 private key in PEM (an App Store Connect .p8 file holds one)")
    }
    privateKey = scalar
    self.keyID = keyID
    self.issuerID = issuerID
  }

  /// A key read from a `.p8` file.
  public init(keyID: String, issuerID: String, path: String) throws(AppStoreConnectError) {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw .badKey("cannot read \(path)")
    }
    do {
      try self.init(keyID: keyID, issuerID: issuerID, pem: text)
    } catch {
      guard case .badKey(let reason) = error else { throw error }
      throw .badKey("\(path): \(reason)")
    }
  }

  public var description: String { "App Store Connect key \(keyID) of issuer \(issuerID)" }

  /// A signed token (JWS compact form) issued at `now`, valid for `lifetime` seconds (at most
  /// ``maximumLifetime``): header `{"alg":"ES256","kid":…,"typ":"JWT"}`, claims `iss`, `iat`, `exp`,
  /// `aud`.
  public func token(now: Date = Date(), lifetime: TimeInterval = maximumLifetime) throws(AppStoreConnectError) -> String
  {
    let issued = Int(now.timeIntervalSince1970)
    let expires = issued + Int(min(max(lifetime, 1), Self.maximumLifetime))
    let header = #"{"alg":"ES256","kid":"# + JSONWriter.quoted(keyID) + #","typ":"JWT"}"#
    let claims =
      #"{"iss":"# + JSONWriter.quoted(issuerID) + #","iat":\#(issued),"exp":\#(expires),"aud":"#
      + JSONWriter.quoted(Self.audience) + "}"
    let signingInput = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(claims.utf8))
    // JWS wants R ‖ S, 64 bytes, not DER.
    var signature = [UInt8](repeating: 0, count: 64)
    let input = Array(signingInput.utf8)
    guard mr_es256_sign(privateKey, input, input.count, &signature) == 0 else {
      throw .badKey("signing failed (no randomness from the system)")
    }
    return signingInput + "." + Self.base64URL(Data(signature))
  }

  /// Base64 without padding, `-` and `_` for `+` and `/`.
  static func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}
