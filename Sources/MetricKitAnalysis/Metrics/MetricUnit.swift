import Foundation

/// The canonical unit of a metric: the one unit its numbers are computed and written in. Durations in
/// histograms and ratios are in ms, cumulative times in s, memory and writes in MB (10⁶ bytes, as
/// Foundation), signal in bars, counts are plain numbers.
///
/// The symbol (`ms`, `MB`, `s/h`) is the unit's form in every output; ``dimension`` its form as a
/// Foundation unit, for measurements; `exported` the base unit monitoring systems expect.
public enum MetricUnit: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Milliseconds: histogram durations.
  case milliseconds = "ms"
  /// Seconds: cumulative times.
  case seconds = "s"
  /// Megabytes (10⁶ bytes): memory and writes.
  case megabytes = "MB"
  /// Signal bars.
  case bars
  /// CPU instructions.
  case instructions
  /// Average pixel luminance.
  case averagePixelLuminance = "apl"
  /// Milliseconds per second: hitch ratios.
  case millisecondsPerSecond = "ms/s"
  /// Seconds per hour: the hang rate.
  case secondsPerHour = "s/h"
  /// Frames per second: the Metal frame rate.
  case framesPerSecond = "fps"
  /// A plain number of events (exits).
  case count
  /// Diagnostics per 1,000 payloads.
  case perThousandPayloads = "per 1000 payloads"
  /// Terminations per 1,000 hours of foreground (or background) time.
  case perThousandHours = "per 1000 h"
  /// A share in percent: crash-free device-days.
  case percent = "%"

  /// The symbol written in output: `ms`, `MB`, `s/h`.
  public var symbol: String { rawValue }

  public var description: String { rawValue }

  /// The unit as a Foundation `Dimension`, for measurements; nil for plain numbers (counts and
  /// diagnostic rates).
  public var dimension: Dimension? {
    switch self {
    case .milliseconds: Self.millisecondsUnit
    case .seconds: Self.secondsUnit
    case .megabytes: Self.megabytesUnit
    case .bars: UnitSignalBars.bars
    case .instructions: UnitInstructionCount.instructions
    case .averagePixelLuminance: UnitAveragePixelLuminance.apl
    case .millisecondsPerSecond: UnitTimeRatio.millisecondsPerSecond
    case .secondsPerHour: UnitTimeRatio.secondsPerHour
    case .framesPerSecond: UnitFrequency.hertz
    case .count, .perThousandPayloads, .perThousandHours, .percent: nil
    }
  }

  // Made once: on Linux, Foundation's `UnitDuration.milliseconds` and friends build a new object on
  // every access, an allocation that shows at tens of thousands of payloads a second.
  /// Milliseconds, made once.
  static let millisecondsUnit = UnitDuration.milliseconds
  /// Seconds, made once.
  static let secondsUnit = UnitDuration.seconds
  /// Megabytes, made once.
  static let megabytesUnit = UnitInformationStorage.megabytes

  /// The base unit monitoring systems expect (`seconds`, `bytes`, `ratio`, `bars`; nil for plain
  /// numbers), and the scale into it: canonical values are multiplied by `multiplier`, then divided
  /// by `divisor` (two numbers, so that 10 ms becomes exactly the double nearest 0.01).
  var exported: (unit: String?, multiplier: Double, divisor: Double) {
    switch self {
    case .milliseconds: ("seconds", 1, 1000)
    case .seconds: ("seconds", 1, 1)
    case .megabytes: ("bytes", 1_000_000, 1)
    case .millisecondsPerSecond: ("ratio", 1, 1000)
    // Seconds of hang per hour of foreground time, as a ratio of times.
    case .secondsPerHour: ("ratio", 1, 3600)
    case .bars: ("bars", 1, 1)
    case .framesPerSecond: ("hertz", 1, 1)
    case .percent: ("ratio", 1, 100)
    case .instructions, .averagePixelLuminance, .count, .perThousandPayloads, .perThousandHours: (nil, 1, 1)
    }
  }
}
