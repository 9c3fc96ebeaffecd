import Testing

@testable import MetricKitAnalysis

@Suite struct SuggestionTests {
  /// Distances counted by hand: each edit named.
  @Test func editDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps() {
    func distance(_ a: String, _ b: String, atMost bound: Int = 10) -> Int? {
      Suggestion.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars), atMost: bound)
    }
    #expect(distance("candidate", "candidate") == 0)
    #expect(distance("candidat", "candidate") == 1)  // e inserted
    #expect(distance("formt", "format") == 1)  // a inserted
    #expect(distance("fromat", "format") == 1)  // r and o swapped
    #expect(distance("kitten", "sitting") == 3)  // k→s, e→i, g inserted
    #expect(distance("", "abc") == 3)
    #expect(distance("kitten", "sitting", atMost: 2) == nil)
    #expect(distance("a", "abcdef", atMost: 2) == nil)
  }

  @Test func theNearestNamesWinAndNothingFarIsSuggested() {
    let options = ["baseline", "candidate", "candidate-file", "format", "output"]
    #expect(Suggestion.closest(to: "candidat", among: options) == ["candidate"])
    #expect(Suggestion.closest(to: "Candidate", among: options) == ["candidate"])
    #expect(Suggestion.closest(to: "zzz", among: options) == [])
    #expect(Suggestion.closest(to: "", among: options) == [])
  }

  @Test func metricsAreFoundByTypoOrByTheirLastPart() throws {
    #expect(MetricCatalog.closest(to: "memoryMetrics.peakMemoryUsge") == ["memoryMetrics.peakMemoryUsage"])
    #expect(MetricCatalog.closest(to: "hangrate") == ["hangRate"])
    // Too far for a typo: the identifiers that contain its last part.
    #expect(
      MetricCatalog.closest(to: "timeToFirstDraw") == [
        "applicationLaunchMetrics.histogrammedTimeToFirstDraw",
        "applicationLaunchMetrics.histogrammedOptimizedTimeToFirstDraw",
      ])
    #expect(MetricCatalog.closest(toPrefix: "applicationLaunchMetrcs.*") == ["applicationLaunchMetrics.*"])
    let error = MetricSelection(["memoryMetrics.peakMemoryUsge", "hangRate", "cpuMetrcs.*"]).unknownPatterns
    #expect(error.map(\.text) == ["memoryMetrics.peakMemoryUsge", "cpuMetrcs.*"])
    #expect(error.map(\.closest) == [["memoryMetrics.peakMemoryUsage"], ["cpuMetrics.*"]])
  }
}
