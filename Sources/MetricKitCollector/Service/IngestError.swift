import Hummingbird
import MetricKitAnalysis
import NIOCore

/// Why an ingest request was not taken at all, as the framework renders it: the status, a
/// `Retry-After` where waiting helps, and `{"error": "…"}`. Nothing of such a request is stored.
public struct IngestError: HTTPResponseError, Sendable, Equatable {
  /// What went wrong, each with its status.
  public enum Kind: Sendable, Equatable {
    /// No token, or an unknown one: 401.
    case unauthorized
    /// The body is over the limit, or inflates past it: 413.
    case tooLarge
    /// A `Content-Encoding` other than gzip: 415.
    case unsupportedEncoding
    /// A gzip body that does not inflate: 400, with no receipt (the body, not its payloads, is bad).
    case badGzip
    /// The body did not arrive within the request's deadline: 408.
    case timedOut
    /// The body stopped short (the connection closed, or stalled past the idle timeout): 400, with no
    /// receipt.
    case incompleteBody
    /// Too much is being written, inflated or decoded at once, or the server is stopping: 503.
    case busy
    /// No room on the disk or under the store's limit: 503 (not 507, which many clients take as final).
    case full
    /// The store failed to write or sync: 503.
    case storeFailed
  }

  /// What went wrong.
  public var kind: Kind
  /// The words of the answer's `error`.
  public var message: String
  /// Seconds to wait before trying again, sent as `Retry-After`.
  public var retryAfter: Int?

  /// An error of `kind`.
  public init(_ kind: Kind, _ message: String, retryAfter: Int? = nil) {
    (self.kind, self.message, self.retryAfter) = (kind, message, retryAfter)
  }

  /// The error a store's refusal is answered with.
  init(_ error: StoreError) {
    switch error {
    case .overloaded: self.init(.busy, error.description, retryAfter: 1)
    case .shuttingDown: self.init(.busy, error.description, retryAfter: 5)
    case .full: self.init(.full, error.description, retryAfter: 60)
    default: self.init(.storeFailed, error.description, retryAfter: 30)
    }
  }

  public var status: HTTPResponse.Status {
    switch kind {
    case .unauthorized: .unauthorized
    case .tooLarge: .contentTooLarge
    case .unsupportedEncoding: .unsupportedMediaType
    case .badGzip, .incompleteBody: .badRequest
    case .timedOut: .requestTimeout
    case .busy, .full, .storeFailed: .serviceUnavailable
    }
  }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    var headers: HTTPFields = [.contentType: "application/json"]
    if let retryAfter { headers[.retryAfter] = String(retryAfter) }
    let text = JSONWriter.compact(.object([("error", .string(message))])) + "\n"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}
