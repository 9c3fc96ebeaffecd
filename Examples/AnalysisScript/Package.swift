// swift-tools-version:6.0
// A separate package that depends on metrics-report by path, as an analysis script would: CI builds
// and runs it against Samples/dump and a dump of MetricKit 27 reports (the library's contract).
import PackageDescription

let package = Package(
  name: "AnalysisScript",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "metrics-report", path: "../..")],
  targets: [
    // The analysis-script article of the DocC catalog, compiled.
    .executableTarget(
      name: "analysis-script", dependencies: [.product(name: "MetricKitAnalysis", package: "metrics-report")]),
    // The on-device recipe with only `import MetricKit` replaced, compiled and compared.
    .executableTarget(
      name: "device-recipe", dependencies: [.product(name: "MetricKitAnalysis", package: "metrics-report")]),
    // Code written against the iOS 27 SDK's report types, with only `import MetricKit` replaced.
    .executableTarget(
      name: "ios27-report", dependencies: [.product(name: "MetricKitReports", package: "metrics-report")]),
  ]
)
