import Alerting
import ArgumentParser
import Foundation
import MetricKitAnalysis

/// `metrics-report watch PATH…`: the days a shipped app's numbers moved, and alerts for them.
struct Watch: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "watch",
    abstract: "Find the days an app's daily numbers moved (whole app, each version, each --by group), and alert.",
    discussion: """
      Examples:
        metrics-report watch /srv/metrickit --cache /var/cache/metrics-report
        metrics-report watch /srv/metrickit --by deviceType \\
          --alertmanager http://127.0.0.1:9093

      Each day is a merged histogram of the device-days that reported. The whole app's series is \
      standardized to one device × OS mix; a change is a level shift found by binary segmentation \
      (Student's t, corrected for the days searched), confirmed by a rank test of the device-days on \
      either side, with Benjamini–Hochberg over every series. Docs/watch.md has the details.
      """)

  @OptionGroup var input: InputOptions

  @Option(
    name: .customLong("metric"),
    help: ArgumentHelp(
      "A metric to watch (repeatable): an identifier or a prefix ending in *, optionally @statistic (@p90, @mean). Default: the built-in gate rules' metrics.",
      valueName: "id[@stat]"))
  var metricArguments: [String] = []

  @Option(
    help: ArgumentHelp(
      "Also watch each group of this metadata field: \(GroupingKey.names.joined(separator: ", ")).", valueName: "key"))
  var by: String?

  @Option(help: ArgumentHelp("The smallest relative change reported, a fraction.", valueName: "fraction"))
  var minChange = DecimalArgument(value: ChangePointDetector().minimumChange)

  @Option(help: ArgumentHelp("The fewest days on each side of a change.", valueName: "days"))
  var minSegment = ChangePointDetector().minimumSegment

  @Option(help: ArgumentHelp("Benjamini–Hochberg's false-discovery level over every series.", valueName: "q"))
  var falseDiscoveryRate = DecimalArgument(value: WatchOptions().falseDiscoveryRate)

  @Option(help: ArgumentHelp("Days with fewer payloads in a series are left out of it.", valueName: "n"))
  var minDailyPayloads = WatchOptions().minimumDailyPayloads

  @Flag(help: "Do not remove the weekday pattern before the search.")
  var noWeeklyCycle = false

  @Option(help: "Output format: text, json, markdown or csv (a row per change).")
  var format: OutputFormat = .text

  @Option(name: [.customShort("o"), .long], help: "Write the changes to this file instead of standard output.")
  var output: String?

  @Option(help: ArgumentHelp("Also write every series searched to this CSV file, a row per day.", valueName: "file"))
  var series: String?

  @OptionGroup(title: "Alerts") var alerts: AlertOptions

  @OptionGroup var terminal: TerminalOptions

  @Flag(help: "On a terminal, keep the wide table a pipe gets instead of fitting the window.")
  var wide = false

  func options() throws -> WatchOptions {
    var options = WatchOptions()
    options.grouping = try BreakdownOptions.key(by)
    if !metricArguments.isEmpty { options.subjects = try Self.subjects(metricArguments) }
    options.detector.minimumChange = minChange.value
    options.detector.minimumSegment = minSegment
    options.detector.weeklyCycle = !noWeeklyCycle
    options.falseDiscoveryRate = falseDiscoveryRate.value
    options.minimumDailyPayloads = minDailyPayloads
    return options
  }

  /// The subjects `--metric` names: each metric with its statistic, or its kind's defaults (a
  /// histogram's p50 and p90, a scalar's mean, a rate).
  static func subjects(_ arguments: [String]) throws -> [WatchSubject] {
    var out: [WatchSubject] = []
    for argument in arguments {
      let (pattern, statistic) = Trend.split(argument)
      let matches: [MetricID]
      if pattern.hasSuffix("*") {
        matches = MetricCatalog.fixed.map(\.id).filter { $0.rawValue.hasPrefix(pattern.dropLast()) }
      } else {
        do { matches = [try MetricID(pattern)] } catch { throw UsageMistake.unknownMetrics([error]) }
      }
      guard !matches.isEmpty else {
        throw UsageMistake.unknownMetrics([
          UnknownMetricError(text: pattern, closest: MetricCatalog.closest(toPrefix: pattern))
        ])
      }
      for metric in matches {
        let statistics: [Statistic]
        switch metric.kind {
        case .histogram:
          statistics = statistic.map { [$0] } ?? [.percentile(Percentile(50)!), .percentile(Percentile(90)!)]
        case .scalar, .counter: statistics = [statistic ?? .mean]
        case .rate: statistics = [.rate]
        case .diagnostic: throw ValidationError("'\(metric.rawValue)' counts diagnostics; watch reads daily metrics.")
        }
        for s in statistics where !out.contains(WatchSubject(metric: metric, statistic: s)) {
          out.append(WatchSubject(metric: metric, statistic: s))
        }
      }
    }
    return out
  }

  mutating func validate() throws {
    try input.validate(output: output)
    if let series { try input.validate(output: series) }
    if input.paths.isEmpty && !input.stdin {
      throw ValidationError("Name at least one payload file or directory, or pass --stdin.")
    }
    if minSegment < 2 { throw ValidationError("--min-segment must be at least 2 days.") }
    if !(0..<1).contains(minChange.value) { throw ValidationError("--min-change takes a fraction from 0 to 1.") }
    if !(falseDiscoveryRate.value > 0 && falseDiscoveryRate.value < 1) {
      throw ValidationError("--false-discovery-rate takes a number between 0 and 1.")
    }
    if minDailyPayloads < 1 { throw ValidationError("--min-daily-payloads must be at least 1.") }
    _ = try options()
    _ = try alerts.receivers()
    if alerts.isAlerting && alerts.state == nil && input.cache == nil {
      throw ValidationError("Alerts need --state FILE or --cache DIR (the state is kept beside the cache).")
    }
  }

  func run() throws {
    let options = try options()
    var aggregation = options.aggregationOptions
    aggregation.dayUTCOffset = try input.timestampParser().assumedUTCOffset
    let aggregate = try input.aggregate(aggregation)
    let report = WatchReport(aggregate: aggregate, options: options)
    let columns = format == .text && !wide ? TerminalOptions.fittingColumns(output: output) : nil
    let text = columns.map { WatchRenderer.text(report, columns: $0) } ?? WatchRenderer.render(report, as: format)
    try ReportOutput.write(
      format == .text ? terminal.shown(text, output: output) : text, to: output, inputs: aggregate.discovery)
    if let series { try ReportOutput.write(WatchRenderer.seriesCSV(report), to: series, inputs: aggregate.discovery) }
    if alerts.isAlerting {
      let statePath = alerts.state ?? URL(fileURLWithPath: input.cache!).appendingPathComponent("watch-state.json").path
      try alerts.send(
        report.changes, latestDay: report.days?.upperBound,
        app: alerts.app ?? aggregate.mainBundleIdentifier ?? "app", statePath: statePath)
    }
    try ReportOutput.finish(
      inputs: aggregate.inputs, strict: input.strict, requestedVersions: input.appVersions,
      countedVersions: Array(aggregate.seriesVersions))
  }
}

/// Where `watch` sends its alerts, and the state that makes each one arrive once.
struct AlertOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Prometheus Alertmanager's URL (its /api/v2/alerts takes the alerts).", valueName: "url"))
  var alertmanager: String?

  @Option(help: ArgumentHelp("POST each change as JSON to this URL (Docs/watch.md has the body).", valueName: "url"))
  var webhook: String?

  @Flag(help: "Post each change to the Slack incoming webhook in $SLACK_WEBHOOK_URL (a secret: never an argument).")
  var slack = false

  @Option(
    help: ArgumentHelp(
      "Set a commit status per change on this repository (with --github-sha; the token in $GITHUB_TOKEN).",
      valueName: "owner/name"))
  var githubRepository: String?

  @Option(help: ArgumentHelp("The commit the statuses are set on.", valueName: "sha"))
  var githubSha: String?

  @Option(help: ArgumentHelp("GitHub's API root (GitHub Enterprise: https://HOST/api/v3).", valueName: "url"))
  var githubAPI = "https://api.github.com"

  @Flag(help: "Trigger and resolve PagerDuty incidents for regressions (the routing key in $PAGERDUTY_ROUTING_KEY).")
  var pagerduty = false

  @Option(help: ArgumentHelp("PagerDuty's Events API root.", valueName: "url"))
  var pagerdutyURL = "https://events.pagerduty.com"

  @Option(
    help: ArgumentHelp(
      "The file that remembers what was sent (default: watch-state.json in --cache).", valueName: "file"))
  var state: String?

  @Option(
    help: ArgumentHelp(
      "A new change is alerted when it began within this many days of the latest data.", valueName: "days"))
  var alertDays = AlertDispatcher(receivers: []).recentDays

  @Option(
    help: ArgumentHelp(
      "The app label of the alerts (default: the payloads' main bundle identifier).", valueName: "name"))
  var app: String?

  @Option(help: ArgumentHelp("A link the alerts carry (the published report page).", valueName: "url"))
  var alertLink: String?

  var isAlerting: Bool { alertmanager != nil || webhook != nil || slack || githubRepository != nil || pagerduty }

  mutating func validate() throws {
    if (githubRepository == nil) != (githubSha == nil) {
      throw ValidationError("--github-repository and --github-sha go together.")
    }
    if alertDays < 1 { throw ValidationError("--alert-days must be at least 1.") }
  }

  /// The receivers asked, with their secrets from the environment, checked.
  func receivers() throws -> [AlertReceiver] {
    let environment = ProcessInfo.processInfo.environment
    var out: [AlertReceiver] = []
    if let alertmanager { out.append(.alertmanager(url: alertmanager)) }
    if let webhook { out.append(.webhook(url: webhook)) }
    if slack {
      guard let url = environment["SLACK_WEBHOOK_URL"], !url.isEmpty else {
        throw ValidationError("--slack reads the webhook's URL from $SLACK_WEBHOOK_URL, which is not set.")
      }
      out.append(.slack(url: url))
    }
    if let githubRepository, let githubSha {
      guard let token = environment["GITHUB_TOKEN"], !token.isEmpty else {
        throw ValidationError("--github-repository needs a token in $GITHUB_TOKEN.")
      }
      out.append(.github(api: githubAPI, repository: githubRepository, sha: githubSha, token: token))
    }
    if pagerduty {
      guard let key = environment["PAGERDUTY_ROUTING_KEY"], !key.isEmpty else {
        throw ValidationError("--pagerduty needs the integration's routing key in $PAGERDUTY_ROUTING_KEY.")
      }
      out.append(.pagerDuty(url: pagerdutyURL, routingKey: key))
    }
    for receiver in out {
      do { try receiver.validate() } catch { throw ValidationError(error.description) }
    }
    return out
  }

  /// Sends the alerts `changes` mean and keeps the state; a receiver that refused is an error (exit 2)
  /// after the others were told.
  func send(_ changes: [DetectedChange], latestDay: CalendarDay?, app: String, statePath: String) throws {
    var dispatcher = AlertDispatcher(receivers: try receivers())
    dispatcher.recentDays = alertDays
    dispatcher.link = alertLink
    dispatcher.transport.log = { ReportOutput.printError("metrics-report: \($0)") }
    var state: AlertState
    do { state = try AlertState.load(statePath) } catch { throw CommandFailure.cannotEvaluate(error.description) }
    let outcome = dispatcher.dispatch(changes, latestDay: latestDay, app: app, state: &state)
    do { try state.save(statePath) } catch { throw CommandFailure.cannotEvaluate(error.description) }
    for receiver in dispatcher.receivers {
      let (fired, resolved) = (outcome.fired[receiver.name] ?? [], outcome.resolved[receiver.name] ?? [])
      guard !fired.isEmpty || !resolved.isEmpty else { continue }
      ReportOutput.printError("metrics-report: \(receiver.label): \(fired.count) new, \(resolved.count) resolved")
    }
    if !outcome.failures.isEmpty {
      throw CommandFailure.cannotEvaluate(
        outcome.failures.map(\.description).joined(separator: "; ")
          + " (what was not delivered is sent on the next run)")
    }
  }
}
