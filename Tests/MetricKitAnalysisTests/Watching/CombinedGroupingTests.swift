import Testing

@testable import MetricKitAnalysis

/// The grouping `watch` reads days with: several keys' values in one, taken apart exactly whatever
/// the payloads' text holds, and named in caches as it was read.
@Suite("Combined grouping")
struct CombinedGroupingTests {
  @Test func valuesComeApartAsTheyWentIn() {
    for values in [["iPhone14,2", "iPhone OS 17"], ["a|b", "c\\\\d"], ["|", "\\\\"], ["", "(unknown)"]] {
      let joined = GroupingKey.combinedValue(values)
      #expect(GroupingKey.components(of: joined, count: 2) == values, "\(values) → \(joined)")
    }
    #expect(GroupingKey.components(of: GroupingKey.other, count: 3) == Array(repeating: GroupingKey.other, count: 3))
  }

  @Test func aCombinedKeyIsStoredAndReadBack() {
    let key = GroupingKey.combined([.regionFormat, .deviceType, .osVersionMajor])
    #expect(key.description == "regionFormat+deviceType+osVersion:major")
    #expect(GroupingKey(stored: key.description) == key)
    // The command line takes one key.
    #expect(GroupingKey(parsing: key.description) == nil)
    #expect(GroupingKey(stored: "deviceType+nonsense") == nil)
  }
}
