import Foundation

/// A count of CPU instructions (`cpuMetrics.cumulativeCPUInstructions`).
public final class UnitInstructionCount: Dimension, @unchecked Sendable {
  /// One instruction.
  public static let instructions = UnitInstructionCount(
    symbol: "instructions", converter: UnitConverterLinear(coefficient: 1))
  /// A thousand instructions, the unit MetricKit writes.
  public static let kiloinstructions = UnitInstructionCount(
    symbol: "kiloinstructions", converter: UnitConverterLinear(coefficient: 1000))

  public override class func baseUnit() -> Self { unsafeDowncast(instructions, to: self) }
}
