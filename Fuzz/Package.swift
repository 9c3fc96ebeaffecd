// swift-tools-version:6.0
// libFuzzer harnesses for metrics-report. Not part of the main package: build and run them with
// Scripts/fuzz.sh TARGET SECONDS (which passes -sanitize=fuzzer,address and -parse-as-library).

import PackageDescription

let package = Package(
  name: "metrics-report-fuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "metrics-report", path: "..")],
  targets: [.target(name: "FuzzSupport")]
    + [
      "FuzzPayloadDecoder", "FuzzMeasurementParser", "FuzzRuleFile", "FuzzSnapshot", "FuzzReport", "FuzzMachO",
      "FuzzOrganizer", "FuzzCacheEntry", "FuzzSymbolizerAnswer",
    ].map {
      name in
      .executableTarget(
        name: name, dependencies: ["FuzzSupport", .product(name: "MetricKitAnalysis", package: "metrics-report")])
    }
    + [
      .executableTarget(
        name: "FuzzAlertState",
        dependencies: ["FuzzSupport", .product(name: "Alerting", package: "metrics-report")]),
      .executableTarget(
        name: "FuzzAppStoreConnectKey",
        dependencies: ["FuzzSupport", .product(name: "AppStoreConnect", package: "metrics-report")]),
      .executableTarget(
        name: "FuzzCollector",
        dependencies: ["FuzzSupport", .product(name: "MetricKitCollector", package: "metrics-report")]),
    ]
)
