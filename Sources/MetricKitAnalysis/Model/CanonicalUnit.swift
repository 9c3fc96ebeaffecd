import Foundation

/// The canonical units of SPEC §2, made once. (On Linux, Foundation's `UnitDuration.milliseconds`
/// and friends build a new object on every access; at tens of thousands of payloads a second that
/// allocation shows.)
enum CanonicalUnit {
  /// Durations in histograms and ratios.
  static let milliseconds = UnitDuration.milliseconds
  /// Cumulative times.
  static let seconds = UnitDuration.seconds
  /// Memory and writes (10⁶ bytes).
  static let megabytes = UnitInformationStorage.megabytes
  /// The dimension histograms of durations merge in.
  static let durationDimension: Dimension = milliseconds
  /// The dimension histograms of signal bars merge in.
  static let barsDimension: Dimension = UnitSignalBars.bars

  /// The dimension of a histogram metric's output unit (`ms` or `bars`).
  static func histogramDimension(_ unit: String) -> Dimension {
    unit == "bars" ? barsDimension : durationDimension
  }
}
