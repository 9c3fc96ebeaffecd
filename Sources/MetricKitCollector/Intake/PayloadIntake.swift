import MetricKitAnalysis

/// A request body judged payload by payload: each document cut out (``PayloadBody``), decoded by
/// the library's own decoder, and held to the token's bundle identifier. One bad payload costs only
/// itself.
public struct PayloadIntake: Sendable {
  /// One payload taken: its id and its line.
  public struct Accepted: Sendable {
    /// Its place in the body (from 0).
    public var index: Int
    /// Its id: the SHA-256 of `line`.
    public var id: PayloadID
    /// Its bytes, without whitespace between tokens: one line of a segment.
    public var line: [UInt8]
  }

  /// One document refused, with the decoder's words.
  public struct Rejected: Sendable, Equatable {
    /// Why a document is refused, as the collector's metrics count it.
    public enum Kind: String, Sendable, CaseIterable {
      /// It is no JSON value.
      case syntax
      /// The library's decoder refused it.
      case decoding
      /// It carries another app's bundle identifier.
      case bundle
    }
    /// Its place in the body (from 0).
    public var index: Int
    /// Why, naming the key and the offending text where the decoder does.
    public var reason: String
    /// What kind of refusal.
    public var kind: Kind
  }

  /// The payloads taken.
  public var accepted: [Accepted] = []
  /// The documents refused.
  public var rejected: [Rejected] = []

  /// Judges `body`, cut into documents by `framing`, for an app whose payloads carry `bundle` (a
  /// payload without a bundle identifier is taken as the app's); the decoder's parsers are taken
  /// from `parsers` when given (a server's, kept from request to request).
  public init(
    body: [UInt8], bundle: String, framing: PayloadBody.Framing = .detected, limits: InputLimits = InputLimits(),
    parsers: PayloadDecoder.Parsers? = nil
  ) {
    var lines: [(index: Int, line: [UInt8])] = []
    for (index, document) in PayloadBody.documents(body, framing: framing).enumerated() {
      switch document {
      case .failure(let error): rejected.append(Rejected(index: index, reason: error.description, kind: .syntax))
      case .success(let line): lines.append((index, line))
      }
    }
    // Every document decoded with one parser: a request pays for it once.
    let results = PayloadDecoder(limits: limits).decodeEach(lines.map(\.line), parsers: parsers)
    for ((index, line), result) in zip(lines, results) {
      if let refusal = Self.judge(result, bundle: bundle) {
        rejected.append(Rejected(index: index, reason: refusal.reason, kind: refusal.kind))
      } else {
        accepted.append(Accepted(index: index, id: PayloadID(of: line), line: line))
      }
    }
    rejected.sort { $0.index < $1.index }
  }

  /// Why a decoded document is refused, or nil when it is a payload of `bundle`.
  private static func judge(
    _ result: Result<DecodedDocument, PayloadDecodingError>, bundle: String
  ) -> (reason: String, kind: Rejected.Kind)? {
    let carried: [String?]
    switch result {
    case .failure(let error): return (error.description, .decoding)
    case .success(.metricPayload(let payload, let diagnostics)):
      carried =
        [payload.metaData?.bundleIdentifier] + (diagnostics?.diagnostics.map(\.metaData.common.bundleIdentifier) ?? [])
    case .success(.diagnosticPayload(let payload, _)):
      carried = payload.diagnostics.map(\.metaData.common.bundleIdentifier)
    case .success(.other(let kind)):
      return ("a \(kind) carries no payload to store", .decoding)
    }
    if let other = carried.compactMap({ $0 }).first(where: { $0 != bundle }) {
      return ("bundle identifier '\(other)' is not this token's ('\(bundle)')", .bundle)
    }
    return nil
  }
}
