import Foundation
import Testing

@testable import MetricKitAnalysis

/// `(unknown)` and `(other)` are the tool's own groups: a payload's text that reads like one of them is
/// escaped, so no real group lands in them.
@Suite("Group labels")
struct GroupLabelTests {
  @Test func reservedLabelsAreEscapedInRealValues() {
    #expect(GroupingKey.label(nil) == "(unknown)")
    #expect(GroupingKey.label("") == "(unknown)")
    #expect(GroupingKey.label("(unknown)") == "\\(unknown)")
    #expect(GroupingKey.label("(other)") == "\\(other)")
    #expect(GroupingKey.label("\\(other)") == "\\\\(other)")
    #expect(GroupingKey.label("iPhone15,3") == "iPhone15,3")
    let values = ["(other)", "\\(other)", "\\\\(other)", "(unknown)", "x"]
    #expect(Set(values.map(GroupingKey.label)).count == values.count)
    #expect(!values.map(GroupingKey.label).contains(GroupingKey.other))
  }
}
