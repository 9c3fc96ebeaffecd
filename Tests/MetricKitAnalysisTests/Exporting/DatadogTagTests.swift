import Foundation
import Testing

@testable import MetricKitAnalysis

/// Datadog's tag rules applied before sending: what intake would change is changed here, and values
/// intake would fold into one tag stay apart.
@Suite("Datadog tags")
struct DatadogTagTests {
  typealias Label = DatadogWriter.Label

  @Test func tagsFollowDatadogsRules() {
    #expect(DatadogWriter.normalized("device_type", "iPhone15,3") == "device_type:iphone15_3")
    #expect(DatadogWriter.normalized("app_version", "3.9.0") == "app_version:3.9.0")
    #expect(DatadogWriter.normalized("device_type", "a\nb c,d#é/x:y") == "device_type:a_b_c_d_é/x:y")
    #expect(DatadogWriter.normalized("device_type", String(repeating: "z", count: 300)).count == 200)
  }

  @Test func valuesThatWouldBecomeOneTagStayTwo() {
    let labels: Set<Label> = [
      Label(name: "device_type", value: "iPhone15,3"), Label(name: "device_type", value: "iphone15 3"),
      Label(name: "device_type", value: "iPad8,1"), Label(name: "app_version", value: "1.0"),
      Label(name: "device_type", value: String(repeating: "q", count: 300)),
      Label(name: "device_type", value: String(repeating: "q", count: 301)),
    ]
    let tags = DatadogWriter.tags(labels)
    #expect(Set(tags.values).count == labels.count)
    #expect(tags[Label(name: "device_type", value: "iPad8,1")] == "device_type:ipad8_1")
    #expect(tags[Label(name: "app_version", value: "1.0")] == "app_version:1.0")
    let folded = tags[Label(name: "device_type", value: "iPhone15,3")] ?? ""
    #expect(folded.hasPrefix("device_type:iphone15_3_") && folded.count == "device_type:iphone15_3_".count + 8)
    #expect(tags.values.allSatisfy { $0.count <= DatadogWriter.longestTag })
  }
}
