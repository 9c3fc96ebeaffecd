import CMetricsShims
import Testing

@testable import MetricKitAnalysis

/// The C shim over GSL: golden values and every pitfall of GSL 2.7 it guards against.
@Suite("GSL shim")
struct GSLShimTests {
  @Test func standardNormalTailMatchesSpecGoldenValue() throws {
    #expect(abs(try GSL.standardNormalUpperTail(1.96) - 0.0249978951482204) < 1e-13)
    #expect(abs(try GSL.standardNormalUpperTail(2.6029070114) - 0.00462185107949) < 1e-12)
  }

  @Test func errorHandlerRecordsInsteadOfAborting() {
    // GSL's default handler would abort() the process here.
    let status = mr_provoke_gsl_error()
    #expect(status == 4)  // GSL_EINVAL
    #expect(mr_last_gsl_error() == 4)
  }

  @Test func weightedMeanAndFrequencyVariance() throws {
    #expect(try GSL.weightedMean(values: [5, 30], weights: [50, 50]) == 17.5)
    // gsl_stats_wvariance alone gives 312.5 (reliability weights); counts are frequency weights.
    let variance = try GSL.frequencyWeightedVariance(values: [5, 30], weights: [50, 50])
    #expect(abs(variance - 15_625.0 / 99.0) < 1e-9)
    #expect(abs(variance - 157.83) < 0.01)
  }

  @Test func emptyOrZeroWeightsAreErrorsNotNaN() {
    #expect(throws: StatisticsError.empty) { try GSL.weightedMean(values: [1, 2], weights: [0, 0]) }
    #expect(throws: StatisticsError.empty) { try GSL.weightedMean(values: [], weights: []) }
    #expect(throws: StatisticsError.empty) {
      try GSL.histogramQuantiles(edges: [0, 10, 20], masses: [0, 0], probabilities: [0.5])
    }
    #expect(throws: StatisticsError.empty) { try GSL.sortedQuantile([], probability: 0.5) }
  }

  @Test func unsortedEdgesAndBadProbabilitiesAreRejected() {
    // gsl_histogram_set_ranges would accept these silently.
    #expect(throws: StatisticsError.self) {
      try GSL.histogramQuantiles(edges: [0, 20, 10], masses: [1, 1], probabilities: [0.5])
    }
    #expect(throws: StatisticsError.self) {
      try GSL.histogramQuantiles(edges: [0, 10], masses: [1], probabilities: [0])
    }
    #expect(throws: StatisticsError.self) {
      try GSL.histogramQuantiles(edges: [0, 10], masses: [1], probabilities: [1.5])
    }
    #expect(throws: StatisticsError.self) { try GSL.sortedQuantile([3, 1, 2], probability: 0.5) }
  }

  @Test func quantileAtOneIsTheTopEdgeNotTheLowest() throws {
    // gsl_histogram_pdf_sample(…, 1.0) returns the lowest edge; the shim answers the top.
    let q = try GSL.histogramQuantiles(edges: [0, 10, 20], masses: [50, 50], probabilities: [0.25, 0.5, 0.75, 1])
    #expect(q == [5, 10, 15, 20])
  }

  @Test func quantileOnABoundaryIsTheLowerQuantileEvenAcrossAGap() throws {
    // Two observations, one in [0,10), one in [50,60): the median is in the first bucket.
    let q = try GSL.histogramQuantiles(edges: [0, 10, 50, 60], masses: [1, 0, 1], probabilities: [0.5, 0.75])
    #expect(q == [10, 55])
  }

  @Test func zeroWidthBinsArePointMasses() throws {
    let q = try GSL.histogramQuantiles(
      edges: [1, 1, 2, 2, 3, 3], masses: [20, 0, 30, 0, 50], probabilities: [0.1, 0.2, 0.5, 0.51, 0.9, 1])
    #expect(q == [1, 1, 2, 3, 3, 3])
    let cdf = try GSL.histogramCDF(
      edges: [1, 1, 2, 2, 3, 3], masses: [20, 0, 30, 0, 50], points: [0.5, 1, 1.5, 2, 3])
    #expect(cdf == [0, 0.2, 0.2, 0.5, 1])
  }

  @Test func type7QuantilesMatchNumpy() throws {
    // numpy.percentile([1, 2, 3, 4], [50, 90]) == [2.5, 3.7]
    #expect(try GSL.sortedQuantile([1, 2, 3, 4], probability: 0.5) == 2.5)
    #expect(abs(try GSL.sortedQuantile([1, 2, 3, 4], probability: 0.9) - 3.7) < 1e-12)
    #expect(try GSL.sortedQuantile([7], probability: 0.99) == 7)
  }
}
