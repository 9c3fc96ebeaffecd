import Foundation
import Testing

@testable import MetricKitAnalysis

/// `jsonRepresentation()` writes what the decoder reads, key for key: every field of a document with
/// every key MetricKit writes comes back under the same key path, older spellings come back in the
/// current one, and a key read in two places is written in one.
@Suite("Payload encoding")
struct PayloadEncodingTests {
  /// Every key of a legacy metric payload, written out by hand (not derived from the field tables).
  static let everyMetricKey = """
    {"appVersion": "2.0", "multipleAppVersions": "1",
     "timeStampBegin": "2024-05-01 00:00:00 +0000", "timeStampEnd": "2024-05-01 23:59:00 +0000",
     "metaData": {"appBuildVersion": "7", "osVersion": "iPhone OS 17.5 (21F79)", "regionFormat": "FR",
       "deviceType": "iPhone14,2", "platformArchitecture": "arm64e", "bundleIdentifier": "com.example.app",
       "lowPowerModeEnabled": false, "isTestFlightApp": true, "pid": 412},
     "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": \(Support.histogramJSON([(400, 410, 3)])),
       "histogrammedResumeTime": \(Support.histogramJSON([(100, 110, 2)])),
       "histogrammedOptimizedTimeToFirstDrawKey": \(Support.histogramJSON([(300, 310, 1)])),
       "histogrammedExtendedLaunch": \(Support.histogramJSON([(900, 910, 4)]))},
     "applicationResponsivenessMetrics": {"histogrammedAppHangTime": \(Support.histogramJSON([(250, 260, 5)]))},
     "applicationTimeMetrics": {"cumulativeForegroundTime": "1000 sec", "cumulativeBackgroundTime": "40 sec",
       "cumulativeBackgroundAudioTime": "30 sec", "cumulativeBackgroundLocationTime": "20 sec"},
     "applicationExitMetrics": {"foregroundExitData": {"cumulativeNormalAppExitCount": 3},
       "backgroundExitData": {"cumulativeMemoryPressureExitCount": 1}},
     "animationMetrics": {"scrollHitchTimeRatio": "3 ms per s", "hitchTimeRatio": "4 ms per s"},
     "cellularConditionMetrics": {"cellConditionTime": \(Support.histogramJSON([(1, 1, 6)], unit: "bars"))},
     "cpuMetrics": {"cumulativeCPUTime": "61 sec", "cumulativeCPUInstructions": "101 kiloinstructions"},
     "gpuMetrics": {"cumulativeGPUTime": "11 sec"},
     "diskIOMetrics": {"cumulativeLogicalWrites": "1010 kB"},
     "memoryMetrics": {"peakMemoryUsage": "151000 kB",
       "averageSuspendedMemory": {"averageValue": "90500 kB", "standardDeviation": 1, "sampleCount": 20}},
     "displayMetrics": {"averagePixelLuminance": {"averageValue": "41 apl", "standardDeviation": 1, "sampleCount": 9}},
     "locationActivityMetrics": {"cumulativeBestAccuracyForNavigationTime": "1 sec",
       "cumulativeBestAccuracyTime": "2 sec", "cumulativeNearestTenMetersAccuracyTime": "3 sec",
       "cumulativeHundredMetersAccuracyTime": "4 sec", "cumulativeKilometerAccuracyTime": "5 sec",
       "cumulativeThreeKilometersAccuracyTime": "6 sec"},
     "networkTransferMetrics": {"cumulativeWifiUpload": "101 kB", "cumulativeWifiDownload": "901 kB",
       "cumulativeCellularUpload": "51 kB", "cumulativeCellularDownload": "401 kB"},
     "signpostMetrics": [{"signpostName": "load", "signpostCategory": "Feed", "totalSignpostCount": 4,
       "signpostIntervalData": {"histogrammedSignpostDurations": \(Support.histogramJSON([(20, 30, 4)])),
         "signpostCumulativeCPUTime": "2 sec", "signpostAverageMemory": "5000 kB",
         "signpostCumulativeLogicalWrites": "10 kB", "signpostCumulativeHitchTimeRatio": "1 ms per s"}}]}
    """

  /// Every key of a diagnostic payload with one hang, written out by hand.
  static let everyDiagnosticKey = """
    {"timeStampBegin": "2024-05-01 00:00:00 +0000", "timeStampEnd": "2024-05-01 23:59:00 +0000",
     "hangDiagnostics": [{"version": "1.0.0", "hangType": "Main Runloop Hang",
       "diagnosticMetaData": {"appBuildVersion": "7", "osVersion": "iPhone OS 17.5 (21F79)", "regionFormat": "FR",
         "deviceType": "iPhone14,2", "platformArchitecture": "arm64e", "bundleIdentifier": "com.example.app",
         "lowPowerModeEnabled": false, "isTestFlightApp": true, "pid": 412, "appVersion": "2.0",
         "exceptionType": 1, "exceptionCode": 2, "signal": 11, "terminationReason": "Namespace SIGNAL",
         "virtualMemoryRegionInfo": "0 is not in any region",
         "objectiveCexceptionReason": {"composedMessage": "m", "formatString": "f %@", "arguments": ["a"],
           "exceptionType": "NSException", "className": "C", "exceptionName": "N"},
         "hangDuration": "2.5 sec", "totalCPUTime": "1 sec", "totalSampledTime": "3 sec", "writesCaused": "100 kB",
         "launchDuration": "4 sec",
         "signpostData": [{"name": "n", "category": "c", "subsystem": "s", "isInterval": true,
           "beginTimeStamp": "b", "endTimeStamp": "e"}]},
       "callStackTree": {"callStackPerThread": true, "callStacks": [{"threadAttributed": true,
         "callStackRootFrames": [{"binaryUUID": "U", "binaryName": "App", "offsetIntoBinaryTextSegment": 16,
           "address": 4096, "sampleCount": 1}]}]}}]}
    """

  /// The key paths of a JSON document (array elements and histogram buckets by position).
  static func keyPaths(_ json: Data) throws -> Set<String> {
    var paths: Set<String> = []
    func walk(_ value: Any, _ prefix: String) {
      if let object = value as? [String: Any] {
        for (key, child) in object {
          let path = prefix.isEmpty ? key : "\(prefix).\(key)"
          paths.insert(path)
          walk(child, path)
        }
      } else if let array = value as? [Any] {
        for (i, child) in array.enumerated() { walk(child, "\(prefix)[\(i)]") }
      }
    }
    walk(try JSONSerialization.jsonObject(with: json), "")
    return paths
  }

  @Test func everyMetricPayloadKeyIsWrittenBackUnderItsOwnKeyPath() throws {
    let input = Data(Self.everyMetricKey.utf8)
    let payload = try MetricPayload(jsonData: input)
    let written = payload.jsonRepresentation()
    let expected = try Self.keyPaths(input)
    let actual = try Self.keyPaths(written)
    #expect(actual.subtracting(expected).sorted() == [])
    #expect(expected.subtracting(actual).sorted() == [])
    #expect(try MetricPayload(jsonData: written) == payload)
  }

  @Test func everyDiagnosticKeyIsWrittenBackUnderItsOwnKeyPath() throws {
    let input = Data(Self.everyDiagnosticKey.utf8)
    let payload = try DiagnosticPayload(jsonData: input)
    let written = payload.jsonRepresentation()
    #expect(try Self.keyPaths(written) == Self.keyPaths(input))
    #expect(try DiagnosticPayload(jsonData: written) == payload)
  }

  @Test func olderSpellingsAreWrittenInTheCurrentOne() throws {
    let input = """
      {"appVersion": "2.0", "includesMultipleApplicationVersions": true,
       "applicationLaunchMetrics": {"histogrammedTimeToFirstDraw": \(Support.histogramJSON([(400, 410, 3)]))},
       "signpostMetrics": [{"signpostName": "load", "totalCount": 2}]}
      """
    let written = try Self.keyPaths(MetricPayload(jsonData: Data(input.utf8)).jsonRepresentation())
    #expect(written.contains("multipleAppVersions"))
    #expect(written.contains("applicationLaunchMetrics.histogrammedTimeToFirstDrawKey"))
    #expect(written.contains("signpostMetrics[0].totalSignpostCount"))
    #expect(!written.contains("includesMultipleApplicationVersions"))
    #expect(!written.contains("applicationLaunchMetrics.histogrammedTimeToFirstDraw"))
  }

  @Test func aHangTypeReadFromTheMetadataIsWrittenOnceAtTheDiagnosticsLevel() throws {
    let input = """
      {"hangDiagnostics": [{"diagnosticMetaData": {"hangDuration": "1 sec", "hangType": "Main Runloop Hang"}}]}
      """
    let payload = try DiagnosticPayload(jsonData: Data(input.utf8))
    #expect(payload.diagnostics.first?.hangType == "Main Runloop Hang")
    let written = try Self.keyPaths(payload.jsonRepresentation())
    #expect(written.contains("hangDiagnostics[0].hangType"))
    #expect(!written.contains("hangDiagnostics[0].diagnosticMetaData.hangType"))
  }
}
