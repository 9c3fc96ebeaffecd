import Foundation
import MetricKitAnalysis

/// What `metrics-report organizer fetch` downloads: an app's power and performance metrics, and per
/// build its metrics, its diagnostic signatures (every page) and, on request, their logs. Each
/// response is checked to read as what it should be (``OrganizerReader``) and written unchanged.
public struct OrganizerFetch: Sendable {
  /// The app's App Store Connect identifier (numeric).
  public var appID: String
  /// Builds (App Store Connect build identifiers) whose metrics and signatures are fetched too.
  public var builds: [String] = []
  /// `filter[deviceType]`, e.g. `all_iphones` (none: every class Apple has).
  public var deviceTypes: [String] = []
  /// `filter[metricType]`, e.g. `LAUNCH`, `HANG` (none: every category).
  public var metricTypes: [String] = []
  /// `filter[platform]`.
  public var platform: String? = "IOS"
  /// `filter[diagnosticType]` of the signatures, e.g. `HANGS` (none: every type).
  public var diagnosticTypes: [String] = []
  /// Logs fetched per signature (`limit`); 0 fetches none.
  public var logsPerSignature = 0
  /// The most signature pages followed per build.
  public var maximumPages = 100

  /// Creates a fetch of an app's metrics.
  public init(appID: String) { self.appID = appID }

  /// One file written.
  public struct Written: Sendable, Hashable {
    /// Its path.
    public var path: String
    /// Its size in bytes.
    public var bytes: Int
  }

  /// Fetches everything asked into `directory` (created if needed).
  public func run(client: AppStoreConnectClient, into directory: String) throws(AppStoreConnectError) -> [Written] {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw .output("cannot create \(directory): \(error.localizedDescription)")
    }
    var written: [Written] = []
    var logsFetched: Set<String> = []
    let base = client.baseURL
    let metricQuery = query([
      ("filter[deviceType]", deviceTypes.joined(separator: ",")),
      ("filter[metricType]", metricTypes.joined(separator: ",")),
      ("filter[platform]", platform ?? ""),
    ])
    let appURL = "\(base)/v1/apps/\(Self.pathSegment(appID))/perfPowerMetrics\(metricQuery)"
    written.append(
      try fetch(
        appURL, client: client, expecting: .metrics, into: directory, name: "app-\(appID)-perfPowerMetrics.json"
      ).0)
    for build in builds {
      let buildURL = "\(base)/v1/builds/\(Self.pathSegment(build))/perfPowerMetrics\(metricQuery)"
      written.append(
        try fetch(
          buildURL, client: client, expecting: .metrics, into: directory, name: "build-\(build)-perfPowerMetrics.json"
        ).0)
      var next: String? =
        "\(base)/v1/builds/\(Self.pathSegment(build))/diagnosticSignatures"
        + query([("filter[diagnosticType]", diagnosticTypes.joined(separator: ",")), ("limit", "200")])
      var page = 1
      while let url = next, page <= maximumPages {
        let (file, document) = try fetch(
          url, client: client, expecting: .signatures, into: directory,
          name: "build-\(build)-diagnosticSignatures-\(page).json")
        written.append(file)
        guard case .signatures(let signatures) = document else { break }
        if logsPerSignature > 0 {
          for signature in signatures.signatures where logsFetched.insert(signature.id).inserted {
            let logsURL =
              "\(base)/v1/diagnosticSignatures/\(Self.pathSegment(signature.id))/logs"
              + query([("limit", String(logsPerSignature))])
            written.append(
              try fetch(
                logsURL, client: client, expecting: .logs, into: directory, name: "signature-\(signature.id)-logs.json"
              ).0)
          }
        }
        next = signatures.nextPage
        if let link = next, !client.isOnServer(link) {
          throw .response(url: url, reason: "the next page's link leaves \(base): \(link)")
        }
        page += 1
      }
    }
    return written
  }

  /// The kinds of response expected.
  enum Expected { case metrics, signatures, logs }

  /// Fetches `url`, checks it reads as `expected`, writes it unchanged as `name`.
  private func fetch(
    _ url: String, client: AppStoreConnectClient, expecting expected: Expected, into directory: String, name: String
  ) throws(AppStoreConnectError) -> (Written, OrganizerFile.Document) {
    client.log("GET \(url)")
    let body = try client.get(url)
    let file: OrganizerFile
    do {
      file = try OrganizerReader.decode(body, path: url)
    } catch {
      throw .response(url: url, reason: "not a response that reads: \(error.description)")
    }
    switch (expected, file.document) {
    case (.metrics, .metrics), (.signatures, .signatures), (.logs, .logs): break
    default: throw .response(url: url, reason: "not the response this endpoint gives")
    }
    let path = (directory as NSString).appendingPathComponent(Self.fileName(name))
    do {
      try Data(body).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw .output("cannot write \(path): \(error.localizedDescription)")
    }
    return (Written(path: path, bytes: body.count), file.document)
  }

  /// `?a=b&c=d` of the non-empty values, percent-encoded.
  func query(_ items: [(String, String)]) -> String {
    let kept = items.filter { !$0.1.isEmpty }
    guard !kept.isEmpty else { return "" }
    return "?" + kept.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
  }

  /// Letters, digits and `-._~,` as they are; every other byte as `%XX`.
  static func encode(_ s: String) -> String {
    var out = ""
    for byte in s.utf8 {
      let c = Character(Unicode.Scalar(byte))
      if byte < 0x80, c.isLetter || c.isNumber || "-._~,".contains(c) {
        out.append(c)
      } else {
        out += String(format: "%%%02X", byte)
      }
    }
    return out
  }

  /// An identifier as one path segment (nothing that would change the path).
  static func pathSegment(_ s: String) -> String { encode(s) }

  /// A file name of letters, digits, `-`, `_` and `.` only.
  static func fileName(_ s: String) -> String {
    String(s.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
  }
}
