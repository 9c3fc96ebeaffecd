import Foundation
import PayloadSynthesis
import TestSupport
import Testing

/// The first screen of four kinds of report page in Chromium, at 1280×800 and at 420 px: the samples
/// with Apple's Organizer; two years of 30 versions split by device type; a MetricKit 27 dump split by
/// its reporting domain's state; the symbolicated demo app. Each page's first screen holds the gate's
/// verdict and its failing rules, and neither width scrolls sideways. The screenshots
/// (`report-first-*.png` in the artifacts) are those in Docs/report-page.md.
@Suite("report page first screens in Chromium", .serialized)
struct ReportFirstScreenBrowserTests {
  /// A page's name and the `report` arguments that make it (nil: its inputs cannot be made here).
  static func pages(in dir: URL) throws -> [(name: String, arguments: [String]?)] {
    let history = dir.appendingPathComponent("history")
    _ = try ReleaseHistory.write(to: history, versions: 30, days: 730, payloadsPerVersion: 60)
    let states = dir.appendingPathComponent("states")
    try DeviceDayTwin.write(
      DeviceDayTwin.rollout(daysPerVersion: 120, seed: 27), mix: .metricKit27(.byStateReportingDomain), to: states)
    let symbols = try SymbolFixtures.built.map { fixtures in
      [
        try fixtures.dump().path, "--symbols", fixtures.symbols.path, "--app-binary", "FeedApp", "--app-binary",
        "FeedKit", "--baseline", "3.8.0", "--candidate", "3.9.0",
      ]
    }
    return [
      (
        "samples",
        ["Samples/dump", "--baseline", "3.8.0", "--candidate", "3.9.0", "--organizer", "Samples/organizer"]
      ),
      ("history", [history.path, "--by", "deviceType", "--top", "3", "--baseline", "4.8.0", "--candidate", "4.9.0"]),
      (
        "states",
        [states.path, "--by", "state:com.example.shop.screen", "--baseline", "4.0.0", "--candidate", "4.1.0"]
      ),
      ("symbols", symbols),
    ]
  }

  @Test func eachFirstScreenHoldsTheVerdictAndNoWidthScrollsSideways() throws {
    guard let executable = ReportBrowserTests.browser() else { return }
    try withTemporaryDirectory { dir in
      for (name, arguments) in try Self.pages(in: dir) {
        guard let arguments else {
          print("skipped: the \(name) page (its inputs need the symbolication fixtures' tools)")
          continue
        }
        let page = dir.appendingPathComponent("\(name).html")
        let made = try CLIRunner.run(["report"] + arguments + ["-o", page.path])
        #expect(made.status == 0, "\(name): \(made.stderr)")
        let session = try ChromiumSession(executable: executable, width: 1280, height: 800)
        defer { session.close() }
        for width in [1280, 420] {
          _ = try session.send(
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": 800, "deviceScaleFactor": 1, "mobile": false])
          try session.open(page)
          #expect(try session.evaluate("document.documentElement.dataset.reportErrors") as? String == "", "\(name)")
          #expect(
            try session.evaluate("document.documentElement.scrollWidth") as? Int ?? 9999 <= width,
            "\(name) at \(width) px scrolls sideways")
          guard width == 1280 else { continue }
          // The verdict's badge and every failing rule lie within the first 800 px.
          let bottom =
            try session.evaluate(
              """
              (() => { const v = document.querySelector('#verdict'); if (!v) return -1;
                return Math.max(v.querySelector('.badge').getBoundingClientRect().bottom,
                  ...[...v.querySelectorAll('ul.findings li.fail')].map(li => li.getBoundingClientRect().bottom)); })()
              """) as? Double ?? -1
          #expect(bottom > 0 && bottom <= 800, "\(name): the verdict ends at \(bottom) px")
          try session.screenshot(width: 1280, height: 800).write(
            to: ReportBrowserTests.artifacts.appendingPathComponent("report-first-\(name).png"))
        }
      }
    }
  }
}
