/// A page of Apple's diagnostic signatures for a build (`GET /v1/builds/{id}/diagnosticSignatures`):
/// the call stacks App Store Connect groups its disk-write, hang and launch diagnostics by, each with
/// its share of the build's diagnostics of that type.
public struct OrganizerSignatures: Sendable, Hashable {
  /// The signatures of the page.
  public var signatures: [Signature]
  /// The next page's address (`links.next`), when there is one.
  public var nextPage: String?
  /// The number of signatures over all pages (`meta.paging.total`).
  public var total: Int?

  /// Creates a page.
  public init(signatures: [Signature], nextPage: String? = nil, total: Int? = nil) {
    self.signatures = signatures
    self.nextPage = nextPage
    self.total = total
  }

  /// One signature (`data[]`).
  public struct Signature: Sendable, Hashable {
    /// Apple's identifier, which names its logs (`/v1/diagnosticSignatures/{id}/logs`).
    public var id: String
    /// `DISK_WRITES`, `HANGS`, `LAUNCHES`, or a type Apple adds later.
    public var diagnosticType: String?
    /// The signature, e.g. `ExampleApp: -[TemporaryFile appendData:] + 100`.
    public var signature: String?
    /// Its share of the build's diagnostics of its type, 0 to 1.
    public var weight: Double?
    /// Apple's advice about it, when it gives one.
    public var insight: String?
    /// The address of its logs (`relationships.logs.links.related`).
    public var logsAddress: String?

    /// Creates a signature.
    public init(
      id: String, diagnosticType: String? = nil, signature: String? = nil, weight: Double? = nil,
      insight: String? = nil, logsAddress: String? = nil
    ) {
      self.id = id
      self.diagnosticType = diagnosticType
      self.signature = signature
      self.weight = weight
      self.insight = insight
      self.logsAddress = logsAddress
    }
  }
}
