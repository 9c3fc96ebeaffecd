import Foundation
import MetricKitAnalysis

/// Where alerts go, each in the shape its service documents.
public enum AlertReceiver: Sendable, Hashable {
  /// Prometheus Alertmanager's API v2 (`POST /api/v2/alerts`): every firing change is sent at each
  /// run with an `endsAt` ahead (Alertmanager deduplicates by labels and notifies once), a resolved
  /// one with `endsAt` now.
  case alertmanager(url: String)
  /// A JSON body per change (`Docs/watch.md` documents it).
  case webhook(url: String)
  /// A Slack incoming webhook: a message in Block Kit, with `text` for notifications.
  case slack(url: String)
  /// A GitHub commit status per change on `sha` of `repository` (`owner/name`), its context the
  /// change's key: `failure` for a regression, `success` for an improvement or once resolved.
  case github(api: String, repository: String, sha: String, token: String)
  /// PagerDuty Events API v2 (`POST /v2/enqueue`): regressions trigger, with the change's key as
  /// `dedup_key`, and resolve; improvements page no one.
  case pagerDuty(url: String, routingKey: String)

  /// The receiver's name in the state file and in messages.
  public var name: String {
    switch self {
    case .alertmanager: "alertmanager"
    case .webhook: "webhook"
    case .slack: "slack"
    case .github: "github"
    case .pagerDuty: "pagerduty"
    }
  }

  /// The name with the URL's scheme, host and port: never its path, which for a Slack webhook is the
  /// secret.
  public var label: String {
    let url: String
    switch self {
    case .alertmanager(let u), .webhook(let u), .slack(let u), .pagerDuty(let u, _): url = u
    case .github(let api, _, _, _): url = api
    }
    guard let c = URLComponents(string: url), let scheme = c.scheme, let host = c.host else { return name }
    return "\(name) (\(scheme)://\(host)\(c.port.map { ":\($0)" } ?? ""))"
  }

  /// Whether a firing change is sent again at every run (to keep it active), not once.
  var refreshesFiring: Bool { if case .alertmanager = self { true } else { false } }

  /// Whether the receiver takes this change at all.
  func takes(_ record: AlertRecord) -> Bool {
    if case .pagerDuty = self { record.isRegression } else { true }
  }

  /// Checks the URL: http or https with a host; a token or routing key goes in clear only to this
  /// machine.
  public func validate() throws(AlertError) {
    let url: String
    let secret: Bool
    switch self {
    case .alertmanager(let u), .webhook(let u): (url, secret) = (u, false)
    case .slack(let u): (url, secret) = (u, true)
    case .github(let api, let repository, let sha, let token):
      (url, secret) = (api, true)
      let parts = repository.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) }) else {
        throw .configuration("--github-repository takes owner/name, not '\(repository)'")
      }
      guard !sha.isEmpty, sha.allSatisfy(\.isHexDigit) else {
        throw .configuration("--github-sha takes a commit's hexadecimal SHA, not '\(sha)'")
      }
      guard !token.isEmpty else { throw .configuration("github: GITHUB_TOKEN is empty") }
    case .pagerDuty(let u, let key):
      (url, secret) = (u, true)
      guard !key.isEmpty else { throw .configuration("pagerduty: PAGERDUTY_ROUTING_KEY is empty") }
    }
    guard let c = URLComponents(string: url), let scheme = c.scheme?.lowercased(), ["http", "https"].contains(scheme),
      let host = c.host, !host.isEmpty
    else { throw .configuration("\(name): '\(url)' is not an http or https URL") }
    if secret && scheme == "http" && !["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) {
      throw .configuration("\(name): a secret would travel in clear to \(host); use https")
    }
  }

  /// One request: its URL, headers and body.
  struct Request {
    var url: String
    var headers: [String]
    var body: [UInt8]
  }

  /// The requests that deliver `events` (Alertmanager takes them all at once, the others one each).
  func requests(_ events: [AlertEvent]) -> [Request] {
    let json = "Content-Type: application/json"
    switch self {
    case .alertmanager(let url):
      let body = JSONWriter.Value.array(events.map(Self.alertmanagerAlert))
      return [
        Request(url: Self.joined(url, "/api/v2/alerts"), headers: [json], body: Array(JSONWriter.compact(body).utf8))
      ]
    case .webhook(let url):
      return events.map {
        Request(url: url, headers: [json], body: Array(JSONWriter.compact(Self.webhookBody($0)).utf8))
      }
    case .slack(let url):
      return events.map { Request(url: url, headers: [json], body: Array(JSONWriter.compact(Self.slackBody($0)).utf8)) }
    case .github(let api, let repository, let sha, let token):
      return events.map { event in
        Request(
          url: Self.joined(api, "/repos/\(repository)/statuses/\(sha)"),
          headers: [
            json, "Accept: application/vnd.github+json", "Authorization: Bearer \(token)",
            "X-GitHub-Api-Version: 2022-11-28", "User-Agent: metrics-report",
          ], body: Array(JSONWriter.compact(Self.githubBody(event)).utf8))
      }
    case .pagerDuty(let url, let key):
      return events.map {
        Request(
          url: Self.joined(url, "/v2/enqueue"), headers: [json],
          body: Array(JSONWriter.compact(Self.pagerDutyBody($0, routingKey: key)).utf8))
      }
    }
  }

  private static func joined(_ base: String, _ path: String) -> String {
    (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
  }

  /// RFC 3339 in UTC, to the second.
  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }

  /// Midnight UTC of a `YYYY-MM-DD` day.
  static func dayStart(_ day: String) -> String { "\(day)T00:00:00Z" }

  static func labels(_ r: AlertRecord) -> [(String, JSONWriter.Value)] {
    var labels: [(String, JSONWriter.Value)] = [
      ("alertname", .string("MetricKitChange")), ("metric", .string(r.metric)), ("statistic", .string(r.statistic)),
      ("scope", .string(r.scope)), ("direction", .string(r.direction)), ("app", .string(r.app)),
    ]
    if let v = r.version { labels.append(("version", .string(v))) }
    if let k = r.byKey, let v = r.byValue { labels += [("by", .string(k)), ("group", .string(v))] }
    return labels
  }

  static func alertmanagerAlert(_ e: AlertEvent) -> JSONWriter.Value {
    let r = e.record
    var members: [(String, JSONWriter.Value)] = [
      ("labels", .object(labels(r))),
      (
        "annotations",
        .object([
          ("summary", .string(r.summary)), ("before", .string(r.before)), ("after", .string(r.after)),
          ("change", .string(WatchRenderer.signedPercent(r.change))), ("q", .string(String(r.q))),
          ("cause", .string(r.cause)),
        ])
      ),
      ("startsAt", .string(dayStart(r.date))),
      ("endsAt", .string(timestamp(e.resolved ? e.now : e.now.addingTimeInterval(e.activeFor)))),
    ]
    if let link = e.link { members.append(("generatorURL", .string(link))) }
    return .object(members)
  }

  static func webhookBody(_ e: AlertEvent) -> JSONWriter.Value {
    let r = e.record
    return .object([
      ("version", .integer(1)), ("status", .string(e.resolved ? "resolved" : "firing")), ("key", .string(r.key)),
      ("app", .string(r.app)), ("summary", .string(r.summary)), ("metric", .string(r.metric)),
      ("statistic", .string(r.statistic)), ("scope", .string(r.scope)),
      ("by", r.byKey.map { k in .object([(k, .string(r.byValue ?? ""))]) } ?? .null),
      ("appVersion", r.version.map { .string($0) } ?? .null), ("direction", .string(r.direction)),
      ("date", .string(r.date)), ("before", .string(r.before)), ("after", .string(r.after)),
      ("change", .number(r.change)),
      ("changeInterval", .array(r.changeInterval.map { .number($0) })), ("q", .number(r.q)),
      ("cause", .string(r.cause)),
      ("link", e.link.map { .string($0) } ?? .null), ("at", .string(timestamp(e.now))),
    ])
  }

  static func slackBody(_ e: AlertEvent) -> JSONWriter.Value {
    let r = e.record
    let title = e.resolved ? "Resolved: \(r.metric) \(r.statistic) (\(r.scopeText))" : r.summary
    let heading =
      "\(e.resolved ? "✅ Resolved" : r.isRegression ? "🔴 Regression" : "🟢 Improvement"): \(r.metric) \(r.statistic)"
    var details = "*Scope:* \(r.scopeText)\n*Since:* \(r.date)\n*Before → after:* \(r.before) → \(r.after)\n"
    details +=
      "*Change:* \(WatchRenderer.signedPercent(r.change)) [\(r.changeInterval.map(WatchRenderer.signedPercent).joined(separator: ", "))]\n*Likely:* \(r.cause)"
    if let link = e.link { details += "\n<\(link)|Report>" }
    return .object([
      ("text", .string(String(title.prefix(3000)))),
      (
        "blocks",
        .array([
          .object([
            ("type", .string("header")),
            ("text", .object([("type", .string("plain_text")), ("text", .string(String(heading.prefix(150))))])),
          ]),
          .object([
            ("type", .string("section")),
            ("text", .object([("type", .string("mrkdwn")), ("text", .string(String(details.prefix(3000))))])),
          ]),
          .object([
            ("type", .string("context")),
            (
              "elements",
              .array([.object([("type", .string("mrkdwn")), ("text", .string("q \(r.q) · \(r.app) · \(r.key)"))])])
            ),
          ]),
        ])
      ),
    ])
  }

  static func githubBody(_ e: AlertEvent) -> JSONWriter.Value {
    let r = e.record
    let state = e.resolved || !r.isRegression ? "success" : "failure"
    let words =
      e.resolved
      ? "Resolved: \(r.metric) \(r.statistic) back since \(r.date)"
      : "\(WatchRenderer.signedPercent(r.change)) \(r.metric) \(r.statistic) since \(r.date) (\(r.scopeText))"
    var members: [(String, JSONWriter.Value)] = [
      ("state", .string(state)), ("context", .string(String("metrics-report/\(r.key)".prefix(255)))),
      ("description", .string(String(words.prefix(140)))),
    ]
    if let link = e.link { members.append(("target_url", .string(link))) }
    return .object(members)
  }

  static func pagerDutyBody(_ e: AlertEvent, routingKey: String) -> JSONWriter.Value {
    let r = e.record
    var members: [(String, JSONWriter.Value)] = [
      ("routing_key", .string(routingKey)), ("event_action", .string(e.resolved ? "resolve" : "trigger")),
      ("dedup_key", .string(String("metrics-report/\(r.key)".prefix(255)))),
    ]
    if !e.resolved {
      members.append(
        (
          "payload",
          .object([
            ("summary", .string(String(r.summary.prefix(1024)))), ("source", .string(r.app)),
            ("severity", .string("error")), ("timestamp", .string(timestamp(e.now))),
            ("component", .string(r.metric)), ("group", .string(r.scopeText)), ("class", .string(r.direction)),
            (
              "custom_details",
              .object([
                ("statistic", .string(r.statistic)), ("since", .string(r.date)), ("before", .string(r.before)),
                ("after", .string(r.after)), ("change", .number(r.change)),
                ("changeInterval", .array(r.changeInterval.map { .number($0) })), ("q", .number(r.q)),
                ("cause", .string(r.cause)),
              ])
            ),
          ])
        ))
      if let link = e.link {
        members.append(("links", .array([.object([("href", .string(link)), ("text", .string("Report"))])])))
      }
    }
    return .object(members)
  }
}

/// One alert to deliver: a change firing or resolved.
public struct AlertEvent: Sendable {
  /// What the alert says.
  public var record: AlertRecord
  /// Whether the change is over (reverted, or no longer found).
  public var resolved: Bool
  /// The time of the run.
  public var now: Date
  /// How long a firing alert stays active in Alertmanager without being sent again.
  public var activeFor: TimeInterval
  /// A link to the report page, when one is published.
  public var link: String?
}
