// swift-tools-version:6.0
// libFuzzer harnesses for metrics-report. Not part of the main package: build and run them with
// Scripts/fuzz.sh TARGET SECONDS (which passes -sanitize=fuzzer,address and -parse-as-library).

import PackageDescription

let package = Package(
  name: "metrics-report-fuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "metrics-report", path: "..")],
  targets: [
    .target(name: "FuzzSupport"),
    .executableTarget(
      name: "FuzzPayloadDecoder",
      dependencies: ["FuzzSupport", .product(name: "MetricKitAnalysis", package: "metrics-report")]),
    .executableTarget(
      name: "FuzzMeasurementParser",
      dependencies: ["FuzzSupport", .product(name: "MetricKitAnalysis", package: "metrics-report")]),
    .executableTarget(
      name: "FuzzRuleFile",
      dependencies: ["FuzzSupport", .product(name: "MetricKitAnalysis", package: "metrics-report")]),
  ]
)
