/// The logs of Apple's diagnostic signatures (`GET /v1/diagnosticSignatures/{id}/logs`): anonymized
/// call stacks App Store Connect has already symbolicated, with Apple's insights about them.
///
/// Each log's call stacks are read into the library's ``CallStackTree``, its frames carrying Apple's
/// symbols, so that they print, fold and group like the dump's own diagnostics.
public struct OrganizerLogs: Sendable, Hashable {
  /// The response format's version.
  public var version: String?
  /// One entry per signature.
  public var signatures: [SignatureLogs]

  /// Creates a response.
  public init(version: String? = nil, signatures: [SignatureLogs]) {
    self.version = version
    self.signatures = signatures
  }

  /// A signature's insights and logs (`productData[]`).
  public struct SignatureLogs: Sendable, Hashable {
    /// The signature's identifier.
    public var signatureID: String?
    /// Apple's advice (`diagnosticInsights`).
    public var insights: [Insight]
    /// The logs.
    public var logs: [Log]

    /// Creates a signature's logs.
    public init(signatureID: String?, insights: [Insight], logs: [Log]) {
      self.signatureID = signatureID
      self.insights = insights
      self.logs = logs
    }
  }

  /// Apple's advice about a signature (`diagnosticInsights[]`).
  public struct Insight: Sendable, Hashable {
    /// The category, e.g. `SQLiteSpill`.
    public var category: String?
    /// The advice.
    public var text: String?
    /// Where Apple explains it.
    public var url: String?

    /// Creates an insight.
    public init(category: String?, text: String?, url: String?) {
      self.category = category
      self.text = text
      self.url = url
    }
  }

  /// One log (`diagnosticLogs[]`).
  public struct Log: Sendable, Hashable {
    /// What Apple says of the event (`diagnosticMetaData`): `appVersion`, `osVersion`, `deviceType`,
    /// `event`, `eventDetail`, `writesCaused`…, as written.
    public var metaData: [String: String]
    /// The call stacks, one tree per entry of `callStackTree`, frames symbolicated by Apple.
    public var callStackTrees: [CallStackTree]
    /// Per tree, the indices (in its `frames`) of the frames Apple blames (`isBlameFrame`).
    public var blameFrames: [[Int]]

    /// Creates a log.
    public init(metaData: [String: String], callStackTrees: [CallStackTree], blameFrames: [[Int]]) {
      self.metaData = metaData
      self.callStackTrees = callStackTrees
      self.blameFrames = blameFrames
    }

    /// The innermost frame Apple blames, over all trees: the one a reader looks at first.
    public var blameFrame: CallStackTree.Frame? {
      var best: CallStackTree.Frame?
      for (tree, indices) in zip(callStackTrees, blameFrames) {
        for i in indices where best.map({ tree.frames[i].depth > $0.depth }) ?? true { best = tree.frames[i] }
      }
      return best
    }
  }
}
