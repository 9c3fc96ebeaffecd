import Foundation
import Testing

@testable import MetricKitAnalysis

/// Members no reader knows: counted by name where they were found, in legacy payloads, diagnostics
/// and call stack trees, bounded per document, and added up by the input accounting.
@Suite("Unknown keys")
struct UnknownKeyTests {
  @Test func aLegacyPayloadsUnknownMembersAreNamedByTheirSection() throws {
    let payload = try Support.metricPayload(
      """
      {"appVersion": "1.0", "futureSection": {"a": 1}, "cpuMetrics": {"cumulativeCPUTime": "1 sec", "newCounter": 3},
       "signpostMetrics": [{"signpostName": "a", "signpostCategory": "b", "newField": 1,
         "signpostIntervalData": {"newData": 2}}, {"signpostName": "c", "newField": 2}]}
      """)
    #expect(
      payload.unknownKeys == [
        "futureSection": 1, "cpuMetrics.newCounter": 1, "signpostMetrics[].newField": 2,
        "signpostMetrics[].signpostIntervalData.newData": 1,
      ])
    #expect(payload.cpuMetrics?.cumulativeCPUTime?.value == 1)
  }

  @Test func aDocumentBothMetricAndDiagnosticListsOnlyWhatNeitherKnows() throws {
    let results = Support.decode(
      """
      {"appVersion": "1.0", "cpuMetrics": {"cumulativeCPUTime": "1 sec"}, "strange": 1,
       "crashDiagnostics": [{"diagnosticMetaData": {"appVersion": "1.0", "odd": 2},
         "callStackTree": {"callStackPerThread": true, "treeExtra": 1,
           "callStacks": [{"threadAttributed": true, "stackExtra": 1,
             "callStackRootFrames": [{"binaryName": "A", "offsetIntoBinaryTextSegment": 1, "sampleCount": 1, "frameExtra": 1,
               "subFrames": [{"binaryName": "B", "offsetIntoBinaryTextSegment": 2, "sampleCount": 1, "frameExtra": 2}]}]}]}}]}
      """)
    guard case .success(.metricPayload(let payload, let diagnostics?)) = try #require(results.first).1 else {
      Issue.record("not a metric payload with diagnostics: \(results)")
      return
    }
    #expect(
      payload.unknownKeys == [
        "strange": 1, "diagnosticMetaData.odd": 1, "callStackTree.treeExtra": 1,
        "callStackTree.callStacks[].stackExtra": 1,
        "callStackTree.frame.frameExtra": 2,
      ])
    #expect(diagnostics.unknownKeys.isEmpty)
    var accounting = InputAccounting()
    accounting.record(.payload(payload, PayloadLocation(path: "a")))
    accounting.record(.diagnostics(diagnostics, .metricPayload, PayloadLocation(path: "a")))
    accounting.record(.payload(payload, PayloadLocation(path: "b")))
    #expect(accounting.unknownKeys["callStackTree.frame.frameExtra"] == 4)
    #expect(accounting.unknownKeysByCount.first?.name == "callStackTree.frame.frameExtra")
  }

  @Test func aDocumentKeepsAtMostSixtyFourNamesAndCountsTheRest() throws {
    let members = (0..<100).map { "\"k\($0)\": 1" }.joined(separator: ", ")
    let payload = try Support.metricPayload("{\"appVersion\": \"1.0\", \(members)}")
    #expect(payload.unknownKeys.count == DecodingContext.unknownKeyNamesKept + 1)
    #expect(payload.unknownKeys[DecodingContext.moreUnknownKeys] == 100 - DecodingContext.unknownKeyNamesKept)
    #expect(payload.unknownKeys.values.reduce(0, +) == 100)
  }

  @Test func accountingKeepsAtMostAThousandNames() {
    var accounting = InputAccounting()
    accounting.addUnknownKeys(Dictionary(uniqueKeysWithValues: (0..<1500).map { ("k\($0)", 1) }))
    #expect(accounting.unknownKeys.count == InputAccounting.unknownKeyNamesKept + 1)
    #expect(accounting.unknownKeys.values.reduce(0, +) == 1500)
  }
}
