import Foundation
import PayloadSynthesis
import TestSupport
import Testing

/// `watch` on generated 150-day stores whose changes are known: each found within 5 days with the
/// right direction and cause, a flat store left alone; its alerts delivered to local receivers that
/// check each service's documented shape and to a real Alertmanager, once each, resolved when the
/// change is gone, retried when a receiver fails, and never with a secret printed.
@Suite("Watch", .serialized)
struct WatchCommandTests {
  /// The stores, written once for the suite: every known change, and nothing moving.
  static let stores: (all: URL, flat: URL, root: URL) = {
    let root = try! TestDirectories.makeTemporary()
    let all = root.appendingPathComponent("all")
    let flat = root.appendingPathComponent("flat")
    try! WatchScenario(.all, payloadsPerDay: 40).write(to: all, seed: 7)
    try! WatchScenario(.flat, payloadsPerDay: 40).write(to: flat, seed: 3)
    return (all, flat, root)
  }()

  static let launch = "applicationLaunchMetrics.histogrammedTimeToFirstDraw"

  static func changes(_ output: String) throws -> [[String: Any]] {
    let root = try #require(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    return try #require(root["changes"] as? [[String: Any]])
  }

  static func day(_ text: String) -> Int { CalendarDayText.days(text) }

  /// The keys of the launch-time changes a run alerts: neither part of a whole-app change nor reverted.
  static func alerted(_ store: URL) throws -> [String] {
    let result = try CLIRunner.run(["watch", store.path, "--metric", "\(launch)@p50", "--format", "json"])
    return try changes(result.stdout).filter {
      $0["partOf"] is NSNull && $0["revertedOn"] is NSNull && $0["reverts"] is NSNull
    }.compactMap { $0["key"] as? String }
  }

  @Test func everyKnownChangeIsFoundWithinFiveDaysWithItsCause() throws {
    let result = try CLIRunner.run(["watch", Self.stores.all.path, "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let changes = try Self.changes(result.stdout)
    let known = WatchScenario(.all, payloadsPerDay: 40).knownChanges
    func near(_ k: WatchScenario.KnownChange) -> [[String: Any]] {
      changes.filter {
        ($0["metric"] as? String)?.hasSuffix(k.metric) == true
          && abs(Self.day($0["date"] as? String ?? "") - Self.day(k.date)) <= 5
      }
    }
    for k in known { #expect(!near(k).isEmpty, "\(k) not found in \(result.stdout)") }
    let unexplained = changes.filter { c in
      !known.contains { k in
        (c["metric"] as? String)?.hasSuffix(k.metric) == true
          && abs(Self.day(c["date"] as? String ?? "") - Self.day(k.date)) <= 5
      }
    }
    #expect(unexplained.count <= 1, "false alarms: \(unexplained)")
    // What each whole-app change says: direction, cause, and its numbers.
    func app(_ k: WatchScenario.KnownChange) throws -> [String: Any] {
      try #require(near(k).first { $0["scope"] as? String == "app" }, "\(k) in the whole app")
    }
    let slowdown = try app(known.first { $0.kind == "whole-app" }!)
    #expect(slowdown["direction"] as? String == "regression")
    #expect((slowdown["cause"] as? [String: Any])?["kind"] as? String == "population")
    let change = try #require(slowdown["change"] as? Double)
    let interval = try #require(slowdown["changeInterval"] as? [Double])
    // The generator slows launches 15%: the p50 and p90 move by that.
    #expect(abs(change - 0.15) < 0.04 && interval[0] < change && change < interval[1])
    let before = try #require((slowdown["before"] as? [String: Any])?["value"] as? Double)
    let after = try #require((slowdown["after"] as? [String: Any])?["value"] as? Double)
    #expect(abs(after / before - 1 - change) < 1e-9)
    #expect(try #require(slowdown["q"] as? Double) <= 0.01)
    // Version 8.2.0's slowdown is the same event: part of the whole app's, not an alert of its own.
    let versions = changes.filter {
      $0["scope"] as? String == "version" && ($0["metric"] as? String)?.hasSuffix("TimeToFirstDraw") == true
    }
    #expect(!versions.isEmpty && versions.allSatisfy { $0["partOf"] as? String == slowdown["date"] as? String })
    let adoption = try app(known.first { $0.kind == "adoption" }!)
    let adopted = try #require(adoption["cause"] as? [String: Any])
    #expect(adopted["kind"] as? String == "adoption" && adopted["version"] as? String == "8.3.0")
    let leak = try app(known.first { $0.metric == "peakMemoryUsage" }!)
    let device = try #require(leak["cause"] as? [String: Any])
    #expect(device["kind"] as? String == "device" && device["deviceType"] as? String == WatchScenario.leakingDevice)
    let fix = try app(known.first { $0.metric == "histogrammedApplicationHangTime" }!)
    #expect(fix["direction"] as? String == "improvement")
    // The next version brings resume time back: that change is the first one's revert.
    let revert = try app(known.last { $0.kind == "adoption" }!)
    #expect(revert["reverts"] as? String == adoption["date"] as? String)
    #expect(adoption["revertedOn"] as? String == revert["date"] as? String)
  }

  @Test func aFlatStoreWithAWeeklyCycleRaisesNothing() throws {
    let result = try CLIRunner.run(["watch", Self.stores.flat.path, "--format", "json", "--by", "deviceType"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Self.changes(result.stdout).count <= 1, "\(result.stdout)")
    let text = try CLIRunner.run(["watch", Self.stores.flat.path])
    #expect(text.stdout.hasPrefix("Watch: "))
  }

  @Test func theTextAndMarkdownSayTheChangeAndTheSeriesAreWritten() throws {
    try withTemporaryDirectory { dir in
      let csv = dir.appendingPathComponent("series.csv")
      let text = try CLIRunner.run([
        "watch", Self.stores.all.path, "--metric", "\(Self.launch)@p50", "--series", csv.path,
      ])
      #expect(text.status == 0, "\(text.stderr)")
      #expect(text.stdout.contains("Launch time (first draw)"))
      #expect(text.stdout.contains("every version at once"))
      let rows = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n")
      #expect(rows.first == "scope,version,by,group,metric,statistic,date,value")
      // The whole app's series has a value for every day (40 payloads a day and more).
      #expect(rows.filter { $0.hasPrefix("app,") }.count == 150)
      let markdown = try CLIRunner.run([
        "watch", Self.stores.all.path, "--metric", "\(Self.launch)@p50", "--format", "markdown",
      ])
      #expect(markdown.stdout.hasPrefix("### Watch: "))
      #expect(markdown.stdout.contains("| date | metric | statistic |"))
      // CSV: a row per change, the JSON's numbers.
      let json = try Self.changes(
        try CLIRunner.run([
          "watch", Self.stores.all.path, "--metric", "\(Self.launch)@p50", "--format", "json",
        ]).stdout)
      let table = try CLIRunner.run([
        "watch", Self.stores.all.path, "--metric", "\(Self.launch)@p50", "--format", "csv",
      ]).stdout.split(separator: "\n")
      #expect(table.count == json.count + 1)
      #expect(table.first?.hasPrefix("date,metric,statistic,scope,version,by,group,direction,ramp_days,") == true)
      let first = try #require(table.dropFirst().first).split(separator: ",", omittingEmptySubsequences: false)
      #expect(first[0] == (json.first?["date"] as? String ?? "-")[...])
      let change = try #require(json.first?["change"] as? Double)
      #expect(abs(try #require(Double(first[15])) - change) <= 1e-12 * abs(change))
    }
  }

  /// `report --watch`: the changes `watch` finds as a section, each whole-app or version change (not a
  /// part of one) marked on the chart of its metric and statistic on its day, that chart added when the
  /// page had none.
  @Test func theReportPageTablesTheChangesAndMarksEachOnItsChart() throws {
    try withTemporaryDirectory { dir in
      let page = dir.appendingPathComponent("page.html")
      let report = try CLIRunner.run([
        "report", Self.stores.all.path, "--watch", "--metric", "\(Self.launch)@p50", "-o", page.path,
      ])
      #expect(report.status == 0, "\(report.stderr)")
      let html = try String(contentsOf: page, encoding: .utf8)
      let changes = try Self.changes(
        try CLIRunner.run(["watch", Self.stores.all.path, "--format", "json"]).stdout)
      #expect(!changes.isEmpty)
      let section = try #require(html.range(of: "<section id=\"changes\">").map { html[$0.lowerBound...] })
      let rows = section[..<section.range(of: "</section>")!.lowerBound].components(separatedBy: "<tr class=").count - 1
      #expect(rows == changes.count)
      // Each mark stands in the chart whose metric and statistic are the change's, on its day.
      let marked = changes.filter { $0["partOf"] is NSNull }
      let charts = html.components(separatedBy: "<figure class=\"chart\"").dropFirst()
      for change in marked {
        let metric = try #require(change["metric"] as? String)
        let statistic = try #require(change["statistic"] as? String)
        let figure = try #require(
          charts.first {
            $0.contains("data-chart=\"\(metric)\"")
              && ($0.contains("data-statistic=\"\(statistic)\"") || statistic == "rate")
          }, "no chart of \(metric) \(statistic)")
        let day = Self.day(try #require(change["date"] as? String))
        #expect(
          figure.contains("regression\" data-day=\"\(day)\"") || figure.contains("improvement\" data-day=\"\(day)\""),
          "\(metric) \(statistic) not marked on \(day)")
      }
      let marks = charts.reduce(0) { $0 + $1.components(separatedBy: "<g class=\"change ").count - 1 }
      #expect(marks == marked.count)
    }
  }

  @Test func mistakesAreUsageErrors() throws {
    let path = Self.stores.flat.path
    for (arguments, message) in [
      (["watch", path, "--alertmanager", "http://127.0.0.1:9"], "--state"),
      (["watch", path, "--format", "xml"], "--format"),
      (["watch", path, "--metric", "launchTme"], "launchTme"),
      (["watch", path, "--by", "colour"], "colour"),
      (["watch", path, "--slack", "--state", "/tmp/x"], "SLACK_WEBHOOK_URL"),
      (["watch", path, "--github-repository", "o/r", "--state", "/tmp/x"], "--github-sha"),
    ] {
      let result = try CLIRunner.run(arguments)
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
  }

  /// The local alert receivers (`Tests/Fixtures/Alerts/alert-receivers.py`) and their secrets.
  enum Receivers {
    static let token = "ghs_test_token_0123456789"
    static let routingKey = "R0123456789ABCDEF0123456789ABCDE"

    static func start() throws -> StandInServer {
      try StandInServer(
        python: "/usr/bin/python3", script: "Tests/Fixtures/Alerts/alert-receivers.py", name: "the alert receivers"
      ) { state in ["--state", state.path, "--token", token, "--routing-key", routingKey] }
    }
  }

  @Test func alertsReachEachReceiverOnceInItsShapeAndResolve() throws {
    let receivers = try Receivers.start()
    defer { receivers.stop() }
    try withTemporaryDirectory { dir in
      let state = dir.appendingPathComponent("watch-state.json").path
      let slackURL = "\(receivers.plainBase)/slack/T000/B000/SLACKSECRET"
      let environment = [
        "SLACK_WEBHOOK_URL": slackURL, "GITHUB_TOKEN": Receivers.token, "PAGERDUTY_ROUTING_KEY": Receivers.routingKey,
      ]
      func watch(_ store: URL, webhook: String = "/webhook") throws -> CLIRunner.Result {
        try CLIRunner.run(
          [
            "watch", store.path, "--metric", "\(Self.launch)@p50", "--state", state, "--alert-days", "200",
            "--webhook", receivers.plainBase + webhook, "--slack", "--github-repository", "o/r", "--github-sha",
            "0123abcd", "--github-api", "\(receivers.plainBase)/github", "--pagerduty", "--pagerduty-url",
            "\(receivers.plainBase)/pagerduty", "--app", "com.example.shop",
          ], environment: environment)
      }
      // The first night: the whole app's and version 8.2.0's slowdowns, to each receiver, each once;
      // the webhook fails once and is retried.
      let first = try watch(Self.stores.all, webhook: "/flaky/webhook")
      #expect(first.status == 0, "\(first.stderr)")
      let sent = try receivers.requests()
      #expect(sent.allSatisfy { ($0["problems"] as? [String])?.isEmpty == true }, "\(sent)")
      let delivered = sent.filter { $0["answered"] as? Int != 503 }
      let keys = try Self.alerted(Self.stores.all)
      #expect(!keys.isEmpty)
      for prefix in ["/flaky/webhook", "/slack/", "/github/", "/pagerduty/"] {
        #expect(
          delivered.filter { ($0["path"] as? String)?.hasPrefix(prefix) == true }.count == keys.count, "\(prefix)")
      }
      #expect(sent.filter { $0["answered"] as? Int == 503 }.count == 1)
      let pagerduty = try #require(delivered.first { ($0["path"] as? String)?.hasPrefix("/pagerduty") == true })
      let event = try #require(pagerduty["body"] as? [String: Any])
      #expect(event["event_action"] as? String == "trigger")
      #expect(keys.map { "metrics-report/\($0)" }.contains(event["dedup_key"] as? String ?? ""))
      let status = try #require(
        delivered.first { ($0["path"] as? String)?.hasPrefix("/github") == true }?["body"] as? [String: Any])
      #expect(status["state"] as? String == "failure")
      // No secret in anything printed.
      for secret in ["SLACKSECRET", Receivers.token, Receivers.routingKey] {
        #expect(!first.stdout.contains(secret) && !first.stderr.contains(secret))
      }
      // The second night, nothing new: nothing sent.
      let second = try watch(Self.stores.all)
      #expect(second.status == 0, "\(second.stderr)")
      #expect(try receivers.requests().count == sent.count)
      // The change gone: each receiver resolves it once.
      let third = try watch(Self.stores.flat)
      #expect(third.status == 0, "\(third.stderr)")
      let resolved = try receivers.requests().dropFirst(sent.count)
      #expect(resolved.count == 4 * keys.count, "\(resolved)")
      #expect(resolved.allSatisfy { ($0["problems"] as? [String])?.isEmpty == true })
      #expect(
        resolved.compactMap { ($0["body"] as? [String: Any])?["event_action"] as? String }
          == Array(
            repeating: "resolve", count: keys.count))
      #expect(
        resolved.compactMap { ($0["body"] as? [String: Any])?["status"] as? String }.allSatisfy {
          $0 == "resolved" || $0 == "success"
        })
    }
  }

  @Test func aReceiverThatRefusesIsAnErrorAndIsToldOnTheNextRun() throws {
    let receivers = try Receivers.start()
    defer { receivers.stop() }
    try withTemporaryDirectory { dir in
      let state = dir.appendingPathComponent("watch-state.json").path
      func watch(_ webhook: String) throws -> CLIRunner.Result {
        try CLIRunner.run(
          [
            "watch", Self.stores.all.path, "--metric", "\(Self.launch)@p50", "--state", state, "--alert-days", "200",
            "--webhook", receivers.plainBase + webhook, "--slack",
          ], environment: ["SLACK_WEBHOOK_URL": "\(receivers.plainBase)/slack/SECRET"])
      }
      let refused = try watch("/refuse/webhook")
      #expect(refused.status == 2)
      #expect(
        refused.stderr.contains("webhook (\(receivers.plainBase)) refused the alert: HTTP 400"), "\(refused.stderr)")
      #expect(!refused.stderr.contains("SECRET"))
      // Slack was told all the same.
      let slack = try receivers.requests().filter { ($0["path"] as? String)?.hasPrefix("/slack/") == true }
      #expect(!slack.isEmpty)
      // The webhook back: it gets what it missed, Slack nothing again.
      let fixed = try watch("/webhook")
      #expect(fixed.status == 0, "\(fixed.stderr)")
      let after = try receivers.requests()
      #expect(after.filter { ($0["path"] as? String) == "/webhook" }.count == slack.count)
      #expect(after.filter { ($0["path"] as? String)?.hasPrefix("/slack/") == true }.count == slack.count)
    }
  }

  @Test func alertsArriveInARealAlertmanagerOnceEachAndResolve() async throws {
    guard let executable = ExportCommandTests.tool("prometheus-alertmanager", flag: "--alerts") else { return }
    let server = try await LocalServer(executable: executable, readyPath: "-/ready") { port, scratch in
      let config = scratch.appendingPathComponent("alertmanager.yml")
      try? Data("route:\n  receiver: \"null\"\nreceivers:\n  - name: \"null\"\n".utf8).write(to: config)
      return [
        "--config.file=\(config.path)", "--storage.path=\(scratch.appendingPathComponent("data").path)",
        "--web.listen-address=127.0.0.1:\(port)", "--cluster.listen-address=",
      ]
    }
    defer { server.stop() }
    let dir = try TestDirectories.makeTemporary()
    defer { try? FileManager.default.removeItem(at: dir) }
    let state = dir.appendingPathComponent("watch-state.json").path
    func watch(_ store: URL) throws -> CLIRunner.Result {
      try CLIRunner.run([
        "watch", store.path, "--metric", "\(Self.launch)@p50", "--state", state, "--alert-days", "200",
        "--alertmanager", server.base.absoluteString, "--app", "com.example.shop",
      ])
    }
    let keys = try Self.changes(
      try CLIRunner.run(["watch", Self.stores.all.path, "--metric", "\(Self.launch)@p50", "--format", "json"]).stdout
    ).filter { $0["partOf"] is NSNull && $0["revertedOn"] is NSNull && $0["reverts"] is NSNull }
    #expect(try watch(Self.stores.all).status == 0)
    #expect(try watch(Self.stores.all).status == 0)  // sent again to keep it active: still once
    let alerts = try #require(
      JSONSerialization.jsonObject(with: Data(try await server.get("api/v2/alerts").utf8)) as? [[String: Any]])
    #expect(alerts.count == keys.count, "\(alerts)")
    let labels = try #require(
      alerts.first { ($0["labels"] as? [String: String])?["scope"] == "app" }?["labels"] as? [String: String])
    #expect(labels["metric"] == Self.launch && labels["statistic"] == "p50" && labels["direction"] == "regression")
    #expect(labels["app"] == "com.example.shop" && labels["alertname"] == "MetricKitChange")
    let appChange = try #require(keys.first { $0["scope"] as? String == "app" })
    let startsAt = try #require(
      alerts.first { ($0["labels"] as? [String: String])?["scope"] == "app" }?["startsAt"] as? String)
    #expect(startsAt.hasPrefix(appChange["date"] as? String ?? "-"))
    // The change gone: resolved, no alert active.
    #expect(try watch(Self.stores.flat).status == 0)
    let after = try #require(
      JSONSerialization.jsonObject(with: Data(try await server.get("api/v2/alerts").utf8)) as? [[String: Any]])
    #expect(after.isEmpty, "\(after)")
  }
}

extension CalendarDayText {
  /// Days since 1970 of a `yyyy-MM-dd` text, for comparing dates in tests.
  static func days(_ text: String) -> Int {
    let parts = text.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3 else { return .min / 2 }
    var c = DateComponents()
    (c.year, c.month, c.day) = (parts[0], parts[1], parts[2])
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return Int((calendar.date(from: c)?.timeIntervalSince1970 ?? 0) / 86_400)
  }
}

extension StandInServer {
  /// The root of a stand-in served in clear.
  var plainBase: String { "http://127.0.0.1:\(port)" }
}
