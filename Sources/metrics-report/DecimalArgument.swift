import ArgumentParser
import MetricKitAnalysis

/// A number option written in decimal, as rule files write numbers: `0x0.1` or `inf` are usage errors,
/// not the values `Double` would read them as.
struct DecimalArgument: ExpressibleByArgument, Sendable {
  var value: Double

  init(value: Double) { self.value = value }

  init?(argument: String) {
    guard let value = Double(decimal: argument) else { return nil }
    self.value = value
  }

  /// The default `--help` shows: the number as written.
  var defaultValueDescription: String { "\(value)" }
}
