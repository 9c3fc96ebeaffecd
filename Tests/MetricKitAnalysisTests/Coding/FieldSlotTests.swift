import Foundation
import Testing

@testable import MetricKitAnalysis

/// Stores through a field slot must equal stores through its key path: by the field's offset for a
/// stored property (nested ones too), through the key path for a computed one, releasing what they
/// replace.
@Suite("Field slots")
struct FieldSlotTests {
  final class Tracked {
    let name: String
    init(_ name: String) { self.name = name }
  }

  struct Root {
    var flag = false
    var text: String?
    var tracked: Tracked?
    var duration: Measurement<UnitDuration>?
    var inner = Inner()
    var doubled: Int {
      get { inner.count * 2 }
      set { inner.count = newValue / 2 }
    }
  }

  struct Inner { var count = 0 }

  @Test func storedPropertiesAreSetInPlace() {
    var root = Root()
    FieldSlot(\Root.text).set("ms", in: &root)
    FieldSlot(\Root.flag).set(true, in: &root)
    FieldSlot(\Root.duration).set(Measurement(value: 2.5, unit: .seconds), in: &root)
    #expect(root.text == "ms")
    #expect(root.flag)
    #expect(root.duration == Measurement(value: 2500, unit: .milliseconds))
    FieldSlot(\Root.text).set(nil, in: &root)
    #expect(root.text == nil)
    #expect(root.flag && root.duration != nil)
  }

  @Test func computedPathsGoThroughTheKeyPathAndNestedOnesInPlace() {
    #expect(MemoryLayout<Root>.offset(of: \Root.doubled) == nil)
    #expect(MemoryLayout<Root>.offset(of: \Root.inner.count) != nil)
    var root = Root()
    FieldSlot(\Root.doubled).set(14, in: &root)
    #expect(root.inner.count == 7)
    FieldSlot(\Root.inner.count).set(3, in: &root)
    #expect(root.inner.count == 3 && root.doubled == 6)
  }

  @Test func aReplacedValueIsReleasedAndTheNewOneKept() {
    var root = Root()
    weak var first: Tracked?
    do {
      let tracked = Tracked("first")
      first = tracked
      FieldSlot(\Root.tracked).set(tracked, in: &root)
    }
    #expect(first?.name == "first")
    FieldSlot(\Root.tracked).set(Tracked("second"), in: &root)
    #expect(first == nil)
    #expect(root.tracked?.name == "second")
  }
}
