import Foundation
import Testing

@testable import MetricKitAnalysis

/// The report's scales are total: no value, however small, large or undefined, makes a coordinate or
/// an axis trap or loop.
@Suite("Chart scales")
struct ChartScaleTests {
  @Test func coordinatesOfAnyDoubleAreText() {
    #expect(ChartScale.coordinate(12.34) == "12.3")
    #expect(ChartScale.coordinate(-0.05) == "0")
    #expect(ChartScale.coordinate(.nan) == "0")
    #expect(ChartScale.coordinate(.infinity) == "1000000")
    #expect(ChartScale.coordinate(-.infinity) == "-1000000")
    #expect(ChartScale.coordinate(1e300) == "1000000")
    #expect(ChartScale.coordinate(.leastNonzeroMagnitude) == "0")
  }

  @Test(arguments: [0x1p-1040, 1e-313, 0, -5, .nan, .infinity, 1e300, .greatestFiniteMagnitude])
  func anAxisForAnyMaximumHasFiniteTicks(maximum: Double) {
    let axis = ChartScale.valueAxis(maximum: maximum)
    #expect(axis.top.isFinite && axis.top > 0)
    #expect(axis.step.isFinite && axis.step > 0)
    #expect((2...20).contains(axis.ticks.count))
    let scale = ChartScale(x0: 0, x1: 1, y0: 0, y1: axis.top)
    #expect(!ChartScale.coordinate(scale.y(maximum)).isEmpty)
  }

  @Test func theAxisOfAnOrdinaryMaximumIsUnchanged() {
    // 412 × 1.1 = 453.2 over 4 steps is 113.3: a step of 2 × 100, up to ⌈453.2 / 200⌉ × 200.
    let axis = ChartScale.valueAxis(maximum: 412)
    #expect(axis.top == 600)
    #expect(axis.step == 200)
    #expect(axis.ticks == [0, 200, 400, 600])
  }

  @Test func saturatingConversionsCoverEveryDouble() {
    #expect(Int(saturating: 2.9) == 2)
    #expect(Int(saturating: -2.9) == -2)
    #expect(Int(saturating: .nan) == 0)
    #expect(Int(saturating: 1e300) == .max)
    #expect(Int(saturating: -.infinity) == .min)
  }
}
