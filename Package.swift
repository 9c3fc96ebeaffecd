// swift-tools-version:6.1
// metrics-report — MetricKit payload analysis for Linux and macOS.
// Licensed GPL-3.0-or-later (GNU GSL, linked below, is GPL-3.0).

import PackageDescription

let package = Package(
  name: "metrics-report",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "MetricKitAnalysis", targets: ["MetricKitAnalysis"]),
    // MetricKit 27's report types over the library, for code written against the iOS 27 SDK.
    .library(name: "MetricKitReports", targets: ["MetricKitReports"]),
    // App Store Connect's power and performance endpoints: signed requests that fetch Organizer's data.
    .library(name: "AppStoreConnect", targets: ["AppStoreConnect"]),
    .library(name: "Alerting", targets: ["Alerting"]),
    // A payload's canonical bytes and id, which the collector and the uploader compute alike.
    .library(name: "PayloadIdentity", targets: ["PayloadIdentity"]),
    // The collector service apps post payloads to, and the store it writes a dump with.
    .library(name: "MetricKitCollector", targets: ["MetricKitCollector"]),
    // The app's side: MetricKit's payloads queued on disk and uploaded to the collector.
    .library(name: "MetricKitUploader", targets: ["MetricKitUploader"]),
    .executable(name: "metrics-report", targets: ["metrics-report"]),
    // The collector, a program of its own: `metrics-report` builds without SwiftNIO and Hummingbird,
    // and runs this one, installed beside it, as `metrics-report collect`.
    .executable(name: "metrics-report-collect", targets: ["metrics-report-collect"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
  ],
  targets: [
    // Debian's C libraries, through system-library targets.
    .systemLibrary(
      name: "CGSL", pkgConfig: "gsl",
      providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]),
    .systemLibrary(
      name: "CZlib", pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    .systemLibrary(
      name: "CDeflate", pkgConfig: "libdeflate",
      providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
    .systemLibrary(
      name: "CIsal", pkgConfig: "libisal",
      providers: [.apt(["libisal-dev"]), .brew(["isa-l"])]),
    // Nettle's SHA-256 and ECDSA, with GMP: on every Debian system apt runs on, and compiled in no time,
    // where swift-crypto builds BoringSSL.
    .systemLibrary(
      name: "CNettle", pkgConfig: "hogweed",
      providers: [.apt(["nettle-dev"]), .brew(["nettle"])]),

    // Small prefixed (`mr_`) shims with no Swift API of their own.
    .target(name: "CMetricsShims", dependencies: ["CGSL"]),
    // libcurl's header only (libcurl4-openssl-dev; the SDK's on macOS): the shim loads the library at
    // its first request.
    .target(name: "CMetricsHTTP", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    .target(name: "CMetricsProcess"),
    .target(name: "CMetricsSigning", dependencies: ["CNettle"]),
    // simdjson is C++ (Debian's libsimdjson-dev): its header is included by the shim's C++ source
    // only, so it is linked here rather than through a system-library module Swift would import.
    .target(
      name: "CMetricsJSON",
      // Debian's simdjson.pc sets this define; keep the ABI identical to the library's build.
      cxxSettings: [.define("SIMDJSON_THREADS_ENABLED", to: "1")],
      linkerSettings: [.linkedLibrary("simdjson")]),

    // The library: read → decode → filter → aggregate → statistics → evaluate rules → render.
    .target(
      name: "MetricKitAnalysis",
      dependencies: [
        "CMetricsShims", "CMetricsJSON", "CMetricsProcess", "CZlib", "CDeflate", "CIsal", "CNettle",
        .product(name: "Yams", package: "Yams"),
      ],
      // The report page's style and script (one file a module, joined into one inline script),
      // compiled into the library so the CLI stays one file.
      resources: [.embedInCode("Rendering/HTML/report.css")]
        + ["prelude", "scales", "paths", "charts", "view", "pointer", "export", "sections", "page"].map {
          .embedInCode("Rendering/HTML/Script/report-\($0).js")
        }),

    // MetricKit 27's `MetricReport`, `MetricResult`, `Histogram<D>`… over the library's reader: a module
    // of its own, since its `Histogram` is MetricKit's, not the library's.
    .target(name: "MetricKitReports", dependencies: ["MetricKitAnalysis"]),

    // App Store Connect: the ES256 token (Nettle, through CMetricsSigning), HTTPS through libcurl, and
    // the fetch of Organizer's responses, which the library reads.
    .target(name: "AppStoreConnect", dependencies: ["MetricKitAnalysis", "RetryingHTTP", "CMetricsSigning"]),

    // A payload's identity: its canonical JSON bytes and their SHA-256, computed the same way on
    // the device (the uploader) and in the collector.
    .target(name: "RetryingHTTP", dependencies: ["CMetricsHTTP"]),

    .target(name: "Alerting", dependencies: ["MetricKitAnalysis", "RetryingHTTP"]),

    .target(name: "PayloadIdentity", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),

    // The collector: HTTP on Hummingbird (SwiftNIO), payloads judged by the library's decoder,
    // stored as gzip NDJSON segments with group commit (libdeflate).
    .target(
      name: "MetricKitCollector",
      dependencies: [
        "MetricKitAnalysis", "PayloadIdentity", "CDeflate",
        .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ]),

    // The uploader, for the app: Foundation, zlib and the payload's identity (MetricKit where there is one).
    .target(name: "MetricKitUploader", dependencies: ["CZlib", "PayloadIdentity"]),

    // The thin command-line shells: the analysis commands, and the collector.
    .executableTarget(
      name: "metrics-report",
      dependencies: [
        "MetricKitAnalysis", "AppStoreConnect", "Alerting",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .executableTarget(
      name: "metrics-report-collect",
      dependencies: [
        "MetricKitAnalysis", "MetricKitCollector", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]),

    // Samples: a deterministic dump generator and the library example.
    .target(
      name: "PayloadSynthesis", dependencies: ["CZlib"], path: "Samples/Sources/PayloadSynthesis"),
    .executableTarget(
      name: "generate-samples", dependencies: ["PayloadSynthesis"],
      path: "Samples/Sources/generate-samples"),
    .executableTarget(
      name: "generate-corpus", dependencies: ["PayloadSynthesis"],
      path: "Benchmarks/Sources/generate-corpus"),
    .executableTarget(
      name: "launch-time-example", dependencies: ["MetricKitAnalysis"],
      path: "Samples/Sources/launch-time-example"),

    // What every test target shares: the package's folders, scratch folders made and removed.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(
      name: "MetricKitAnalysisTests",
      dependencies: [
        "MetricKitAnalysis", "AppStoreConnect", "Alerting", "PayloadSynthesis", "TestSupport",
        // A second implementation of SHA-256 and ES256, to check the package's own against.
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
    .testTarget(name: "MetricKitReportsTests", dependencies: ["MetricKitReports", "PayloadSynthesis", "TestSupport"]),
    .testTarget(
      name: "MetricKitCollectorTests",
      dependencies: [
        "MetricKitCollector", "MetricKitUploader", "PayloadSynthesis", "TestSupport",
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ]),
    .testTarget(
      name: "MetricsReportCLITests",
      dependencies: [
        "metrics-report", "metrics-report-collect", "MetricKitCollector", "MetricKitUploader", "PayloadSynthesis",
        "TestSupport",
      ],
      exclude: ["Golden", "Schemas"]),
  ],
  cxxLanguageStandard: .cxx17
)
