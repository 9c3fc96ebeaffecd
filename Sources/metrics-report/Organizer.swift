import AppStoreConnect
import ArgumentParser
import Foundation
import MetricKitAnalysis

/// `metrics-report organizer …`: Apple's Organizer data from App Store Connect.
struct Organizer: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "organizer",
    abstract: "Fetch and read Apple's Organizer data (App Store Connect power and performance metrics).",
    subcommands: [OrganizerFetchCommand.self, OrganizerShow.self])
}

/// `metrics-report organizer fetch`: downloads the responses, unchanged, into a folder.
struct OrganizerFetchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fetch",
    abstract: "Download an app's (and builds') power and performance metrics and diagnostic signatures.",
    discussion: """
      Signs an ES256 token with the App Store Connect API key, pages through the endpoints, retries on \
      429 and 5xx, and writes each response unchanged into the output folder: \
      app-<id>-perfPowerMetrics.json, build-<id>-perfPowerMetrics.json, \
      build-<id>-diagnosticSignatures-<page>.json, signature-<id>-logs.json. The key is never printed.
      """)

  @Option(help: "The app's App Store Connect identifier (numeric).")
  var appID: String

  @Option(help: "The API key's identifier (the JWT's kid).")
  var keyID: String

  @Option(help: "The API key's issuer identifier.")
  var issuerID: String

  @Option(help: "The key's .p8 file (AuthKey_<key id>.p8).")
  var privateKey: String

  @Option(help: "Apple's device class filter, e.g. all_iphones (repeatable; none: every class).")
  var deviceType: [String] = []

  @Option(help: "A metric category: LAUNCH, HANG, MEMORY, DISK, BATTERY, TERMINATION, ANIMATION (repeatable).")
  var metricType: [String] = []

  @Option(
    help: "Also fetch this build's metrics and diagnostic signatures (an App Store Connect build id; repeatable).")
  var build: [String] = []

  @Option(help: "Signatures of this diagnostic type only: DISK_WRITES, HANGS, LAUNCHES (repeatable).")
  var diagnosticType: [String] = []

  @Option(help: "Fetch up to this many logs per diagnostic signature (0: none).")
  var logs = 0

  @Option(name: [.customShort("o"), .long], help: "The folder to write the responses into.")
  var output: String

  @Option(help: "The API's root (a proxy's or a test server's).")
  var baseURL = "https://api.appstoreconnect.apple.com"

  @Option(help: "A PEM file of certificate authorities to trust instead of the system's.")
  var caFile: String?

  @Option(help: "Attempts per request, for 429 and 5xx answers and network failures.")
  var attempts = 4

  @Option(help: "The most pages of diagnostic signatures fetched per build (more is an error, not a silent cut).")
  var maxPages = 100

  @Option(help: "Seconds before the second attempt, doubled before each next, unless the server says (Retry-After).")
  var retryPause = 2.0

  mutating func validate() throws {
    guard appID.allSatisfy(\.isNumber), !appID.isEmpty else {
      throw ValidationError("--app-id is a number, e.g. 1613097210.")
    }
    guard baseURL.hasPrefix("https://") else {
      throw ValidationError("--base-url must be https (the token is a secret).")
    }
    guard attempts >= 1 else { throw ValidationError("--attempts must be at least 1.") }
    guard retryPause >= 0 else { throw ValidationError("--retry-pause must not be negative.") }
    guard logs >= 0 else { throw ValidationError("--logs must not be negative.") }
    guard maxPages >= 1 else { throw ValidationError("--max-pages must be at least 1.") }
  }

  func run() throws {
    do {
      let key = try AppStoreConnectKey(keyID: keyID, issuerID: issuerID, path: privateKey)
      var client = AppStoreConnectClient(key: key, baseURL: baseURL)
      client.certificateAuthorities = caFile
      client.attempts = attempts
      client.pause = retryPause
      client.log = { ReportOutput.printError("metrics-report: \($0)") }
      var fetch = OrganizerFetch(appID: appID)
      fetch.builds = build
      fetch.deviceTypes = deviceType
      fetch.metricTypes = metricType
      fetch.diagnosticTypes = diagnosticType
      fetch.logsPerSignature = logs
      fetch.maximumPages = maxPages
      let written = try fetch.run(client: client, into: output)
      for file in written { print("\(file.path)\t\(file.bytes) bytes") }
    } catch {
      throw CommandFailure.cannotEvaluate("\(error)")
    }
  }
}

/// `metrics-report organizer show FILE…`: what saved responses hold, as the library reads them.
struct OrganizerShow: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Show what saved App Store Connect responses hold: metrics, goals, insights, signatures, logs.")

  @Argument(help: "Saved responses, or folders of them.")
  var paths: [String]

  func run() throws {
    var options = OrganizerOptions()
    options.paths = paths
    for file in try options.load() { print(OrganizerRenderer.text(file), terminator: "") }
  }
}
