import Foundation
import Testing

@testable import MetricKitAnalysis

/// Rule-file numbers are decimal and amounts are not negative: `0x10` is not 16, `inf` is not a
/// budget, and a negative budget is an error naming itself.
@Suite("Rule quantities")
struct RuleQuantityTests {
  @Test func onlyDecimalNumbersAreNumbers() {
    for text in ["12", "-0.5", "+3", "1e3", "2.5E-2", ".5", "5."] {
      #expect(Double(decimal: text) != nil, "\(text)")
    }
    for text in ["0x10", "0X1p4", "inf", "nan", "infinity", "1e", "e5", "", "-", ".", "1.2.3", "1e400", "1_000", " 1"] {
      #expect(Double(decimal: text) == nil, "\(text)")
    }
  }

  @Test func amountsAreNotNegativeNorHexadecimal() {
    guard case .failure(let negative) = RuleQuantity.amount("-5 ms", unit: .milliseconds) else {
      Issue.record("a negative amount was read")
      return
    }
    #expect(negative.message.contains("negative"))
    if case .success = RuleQuantity.amount("-5", unit: .milliseconds) { Issue.record("-5 was read") }
    if case .success = RuleQuantity.amount("0x10", unit: .milliseconds) { Issue.record("0x10 was read") }
    if case .success = RuleQuantity.relative("0x10%") { Issue.record("0x10% was read") }
    if case .success(let v) = RuleQuantity.amount("400 ms", unit: .milliseconds) {
      #expect(v == 400)
    } else {
      Issue.record("400 ms was not read")
    }
  }
}
