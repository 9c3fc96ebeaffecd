// Analysis code written against the iOS 27 SDK's MetricKit, with only `import MetricKit` replaced: it
// decodes each report of a dump with JSONDecoder, as an app decodes what it stored, and prints per app
// version the launches and the median launch's bucket, and the out-of-memory terminations.
//
//   swift run --package-path Examples/AnalysisScript ios27-report DIRECTORY
import Foundation
import MetricKitReports  // was: import MetricKit

let directory = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? ".")
let files = (FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
  .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }

var launches: [String: [(upper: Double, count: Int)]] = [:]
var reports: [String: Int] = [:]
var outOfMemory: [String: Int] = [:]
let decoder = JSONDecoder()
for file in files {
  let data = try Data(contentsOf: file)
  if let report = try? decoder.decode(MetricReport.self, from: data) {
    guard let environment = report.environment, !environment.includesMultipleApplicationVersions else { continue }
    let version = environment.latestApplicationVersion
    reports[version, default: 0] += 1
    for result in report.intervalEntries.fullDayEntry.values {
      switch result {
      case .timeToFirstDraw(let metric):
        for bucket in metric.histogram.buckets {
          launches[version, default: []].append((bucket.upperBound.converted(to: .milliseconds).value, bucket.count))
        }
      default:
        break
      }
    }
  } else if let diagnostic = try? decoder.decode(DiagnosticReport.self, from: data) {
    if case .memoryException = diagnostic.result {
      outOfMemory[diagnostic.environment?.applicationVersion ?? "", default: 0] += 1
    }
  }
}

for version in reports.keys.sorted() {
  let buckets = (launches[version] ?? []).sorted { $0.upper < $1.upper }
  let total = buckets.reduce(0) { $0 + $1.count }
  var seen = 0
  let median = buckets.first { bucket in
    seen += bucket.count
    return 2 * seen >= total
  }
  print(
    "\(version): \(reports[version]!) reports, \(total) launches, median launch ≤ \(Int(median?.upper ?? 0)) ms, "
      + "\(outOfMemory[version] ?? 0) out-of-memory terminations")
}
