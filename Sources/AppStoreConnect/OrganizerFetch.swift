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
    // Every file name this fetch writes, as a file system that ignores case sees it: two responses
    // never share one.
    var names: [String: String] = [:]
    let base = client.baseURL
    let metricQuery = query([
      ("filter[deviceType]", deviceTypes.joined(separator: ",")),
      ("filter[metricType]", metricTypes.joined(separator: ",")),
      ("filter[platform]", platform ?? ""),
    ])
    let app = try Self.pathSegment(appID, what: "the app identifier")
    let appURL = "\(base)/v1/apps/\(app)/perfPowerMetrics\(metricQuery)"
    written.append(
      try fetch(
        appURL, client: client, expecting: .metrics, into: directory,
        name: try Self.unique(Self.fileName("app-", appID, "-perfPowerMetrics.json"), of: appID, in: &names)
      ).0)
    for build in builds {
      let segment = try Self.pathSegment(build, what: "a build identifier")
      let buildURL = "\(base)/v1/builds/\(segment)/perfPowerMetrics\(metricQuery)"
      written.append(
        try fetch(
          buildURL, client: client, expecting: .metrics, into: directory,
          name: try Self.unique(Self.fileName("build-", build, "-perfPowerMetrics.json"), of: build, in: &names)
        ).0)
      var next: String? =
        "\(base)/v1/builds/\(segment)/diagnosticSignatures"
        + query([("filter[diagnosticType]", diagnosticTypes.joined(separator: ",")), ("limit", "200")])
      var page = 1
      while let url = next {
        guard page <= maximumPages else {
          throw .response(
            url: url, reason: "build \(build) has more than \(maximumPages) pages of signatures: raise the page limit")
        }
        let (file, document) = try fetch(
          url, client: client, expecting: .signatures, into: directory,
          name: try Self.unique(
            Self.fileName("build-", build, "-diagnosticSignatures-\(page).json"), of: build, in: &names))
        written.append(file)
        guard case .signatures(let signatures) = document else { break }
        if logsPerSignature > 0 {
          for signature in signatures.signatures where logsFetched.insert(signature.id).inserted {
            let id: String
            do {
              id = try Self.pathSegment(signature.id, what: "a signature identifier")
            } catch {
              throw .response(url: url, reason: error.description)
            }
            let logsURL = "\(base)/v1/diagnosticSignatures/\(id)/logs" + query([("limit", String(logsPerSignature))])
            written.append(
              try fetch(
                logsURL, client: client, expecting: .logs, into: directory,
                name: try Self.unique(
                  Self.fileName("signature-", signature.id, "-logs.json"), of: signature.id, in: &names)
              ).0)
          }
        }
        next = signatures.nextPage
        if let link = next, !client.isOnServer(link) {
          throw .response(url: url, reason: "the next page's link leaves \(base): \(link)")
        }
        page += 1
      }
      try removeStalePages(of: build, after: page - 1, in: directory, client: client)
    }
    return written
  }

  /// Removes the build's signature pages past `last` that an earlier fetch left in `directory`: they
  /// are not the server's pages now, and would be read with them.
  private func removeStalePages(of build: String, after last: Int, in directory: String, client: AppStoreConnectClient)
    throws(AppStoreConnectError)
  {
    var page = last + 1
    while true {
      let name = Self.fileName("build-", build, "-diagnosticSignatures-\(page).json")
      let path = (directory as NSString).appendingPathComponent(name)
      guard FileManager.default.fileExists(atPath: path) else { return }
      do {
        try FileManager.default.removeItem(atPath: path)
      } catch {
        throw .output("cannot remove \(path), a page an earlier fetch left: \(error.localizedDescription)")
      }
      client.log("removed \(path): an earlier fetch's page \(page); build \(build) has \(last) now")
      page += 1
    }
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
    let path = (directory as NSString).appendingPathComponent(name)
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

  /// An identifier as one path segment, percent-encoded; an empty one, `.` or `..` (which would
  /// change the request's path, a token with it) is refused.
  static func pathSegment(_ s: String, what: String) throws(AppStoreConnectError) -> String {
    guard !s.isEmpty, s != ".", s != ".." else {
      throw .request("\(what) '\(s)' cannot name a resource: it would change the request's path")
    }
    return encode(s)
  }

  /// `prefix` + `id` + `suffix` as a file name: ASCII letters, digits, `-` and `.` as they are, every
  /// other byte of the identifier as `_XX`, so that two identifiers never share a name.
  static func fileName(_ prefix: String, _ id: String, _ suffix: String) -> String {
    var encoded = ""
    for byte in id.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        encoded += String(format: "_%02X", byte)
      }
    }
    return prefix + encoded + suffix
  }

  /// `name`, the file of `id`, once `names` (the names this fetch gave, as a file system ignoring case
  /// sees them, with their identifiers) shows no other identifier under it.
  static func unique(_ name: String, of id: String, in names: inout [String: String]) throws(AppStoreConnectError)
    -> String
  {
    if let earlier = names.updateValue(id, forKey: name.lowercased()), earlier != id {
      throw .output("'\(earlier)' and '\(id)' would both be written as \(name): they differ only in case")
    }
    return name
  }
}
