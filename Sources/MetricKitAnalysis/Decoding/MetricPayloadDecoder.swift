import Foundation

/// Decodes the `jsonRepresentation()` of an `MXMetricPayload` into a `MetricPayload`, mapping the
/// JSON quirks onto the API's names. Unknown keys are ignored; `null` sections count as absent.
struct MetricPayloadDecoder {
  var context: DecodingContext

  mutating func decode(_ root: JSONValue) throws(PayloadDecodingError) -> MetricPayload {
    var payload = MetricPayload(latestApplicationVersion: "")
    for member in root.children where member.kind != .null {
      let c = context
      if member.keyEquals("appVersion") {
        payload.latestApplicationVersion = try c.within("appVersion") { () throws(PayloadDecodingError) in
          try c.string(member)
        }
      } else if member.keyEquals("multipleAppVersions") || member.keyEquals("includesMultipleApplicationVersions") {
        payload.includesMultipleApplicationVersions = try c.within(member.key) { () throws(PayloadDecodingError) in
          try c.flag(member)
        }
      } else if member.keyEquals("timeStampBegin") {
        payload.timeStampBegin = try context.withinMutating("timeStampBegin") { (c) throws(PayloadDecodingError) in
          try c.timestamp(member)
        }
      } else if member.keyEquals("timeStampEnd") {
        payload.timeStampEnd = try context.withinMutating("timeStampEnd") { (c) throws(PayloadDecodingError) in
          try c.timestamp(member)
        }
      } else if member.keyEquals("metaData") {
        payload.metaData = try c.within("metaData") { () throws(PayloadDecodingError) in try metaData(member) }
      } else if member.keyEquals("applicationLaunchMetrics") {
        payload.applicationLaunchMetrics = try c.within("applicationLaunchMetrics") {
          () throws(PayloadDecodingError) in try launch(member)
        }
      } else if member.keyEquals("applicationResponsivenessMetrics") {
        payload.applicationResponsivenessMetrics = try c.within("applicationResponsivenessMetrics") {
          () throws(PayloadDecodingError) in
          var section = AppResponsivenessMetric()
          for m in try c.object(member).children where m.keyEquals("histogrammedAppHangTime") && m.kind != .null {
            section.histogrammedApplicationHangTime = try c.within("histogrammedAppHangTime") {
              () throws(PayloadDecodingError) in
              try c.histogram(m, kind: .duration, unit: CanonicalUnit.milliseconds)
            }
          }
          return section
        }
      } else if member.keyEquals("applicationTimeMetrics") {
        payload.applicationTimeMetrics = try c.within("applicationTimeMetrics") {
          () throws(PayloadDecodingError) in try runTime(member)
        }
      } else if member.keyEquals("applicationExitMetrics") {
        payload.applicationExitMetrics = try c.within("applicationExitMetrics") {
          () throws(PayloadDecodingError) in try exits(member)
        }
      } else if member.keyEquals("animationMetrics") {
        payload.animationMetrics = try c.within("animationMetrics") { () throws(PayloadDecodingError) in
          var section = AnimationMetric()
          for m in try c.object(member).children where m.kind != .null {
            if m.keyEquals("scrollHitchTimeRatio") {
              section.scrollHitchTimeRatio = try c.within("scrollHitchTimeRatio") { () throws(PayloadDecodingError) in
                try hitchRatio(m)
              }
            } else if m.keyEquals("hitchTimeRatio") {
              section.hitchTimeRatio = try c.within("hitchTimeRatio") { () throws(PayloadDecodingError) in
                try hitchRatio(m)
              }
            }
          }
          return section
        }
      } else if member.keyEquals("cellularConditionMetrics") {
        payload.cellularConditionMetrics = try c.within("cellularConditionMetrics") {
          () throws(PayloadDecodingError) in
          var section = CellularConditionMetric()
          for m in try c.object(member).children where m.keyEquals("cellConditionTime") && m.kind != .null {
            section.histogrammedCellularConditionTime = try c.within("cellConditionTime") {
              () throws(PayloadDecodingError) in
              try c.histogram(m, kind: .signalBars, unit: UnitSignalBars.bars)
            }
          }
          return section
        }
      } else if member.keyEquals("cpuMetrics") {
        payload.cpuMetrics = try c.within("cpuMetrics") { () throws(PayloadDecodingError) in
          var section = CPUMetric()
          for m in try c.object(member).children where m.kind != .null {
            if m.keyEquals("cumulativeCPUTime") {
              section.cumulativeCPUTime = try c.within("cumulativeCPUTime") { () throws(PayloadDecodingError) in
                try c.seconds(m)
              }
            } else if m.keyEquals("cumulativeCPUInstructions") {
              section.cumulativeCPUInstructions = try c.within("cumulativeCPUInstructions") {
                () throws(PayloadDecodingError) in
                Measurement(value: try c.measurement(m, .instructions), unit: UnitInstructionCount.instructions)
              }
            }
          }
          return section
        }
      } else if member.keyEquals("gpuMetrics") {
        payload.gpuMetrics = try c.within("gpuMetrics") { () throws(PayloadDecodingError) in
          var section = GPUMetric()
          for m in try c.object(member).children where m.keyEquals("cumulativeGPUTime") && m.kind != .null {
            section.cumulativeGPUTime = try c.within("cumulativeGPUTime") { () throws(PayloadDecodingError) in
              try c.seconds(m)
            }
          }
          return section
        }
      } else if member.keyEquals("diskIOMetrics") {
        payload.diskIOMetrics = try c.within("diskIOMetrics") { () throws(PayloadDecodingError) in
          var section = DiskIOMetric()
          for m in try c.object(member).children where m.keyEquals("cumulativeLogicalWrites") && m.kind != .null {
            section.cumulativeLogicalWrites = try c.within("cumulativeLogicalWrites") {
              () throws(PayloadDecodingError) in try c.megabytes(m)
            }
          }
          return section
        }
      } else if member.keyEquals("memoryMetrics") {
        payload.memoryMetrics = try c.within("memoryMetrics") { () throws(PayloadDecodingError) in
          var section = MemoryMetric()
          for m in try c.object(member).children where m.kind != .null {
            if m.keyEquals("peakMemoryUsage") {
              section.peakMemoryUsage = try c.within("peakMemoryUsage") { () throws(PayloadDecodingError) in
                try c.megabytes(m)
              }
            } else if m.keyEquals("averageSuspendedMemory") {
              section.averageSuspendedMemory = try c.within("averageSuspendedMemory") {
                () throws(PayloadDecodingError) in
                try average(m, kind: .storage, unit: CanonicalUnit.megabytes, divisor: 1_000_000)
              }
            }
          }
          return section
        }
      } else if member.keyEquals("displayMetrics") {
        payload.displayMetrics = try c.within("displayMetrics") { () throws(PayloadDecodingError) in
          var section = DisplayMetric()
          for m in try c.object(member).children where m.keyEquals("averagePixelLuminance") && m.kind != .null {
            section.averagePixelLuminance = try c.within("averagePixelLuminance") {
              () throws(PayloadDecodingError) in
              try average(m, kind: .pixelLuminance, unit: UnitAveragePixelLuminance.apl, divisor: 1)
            }
          }
          return section
        }
      } else if member.keyEquals("locationActivityMetrics") {
        payload.locationActivityMetrics = try c.within("locationActivityMetrics") {
          () throws(PayloadDecodingError) in try location(member)
        }
      } else if member.keyEquals("networkTransferMetrics") {
        payload.networkTransferMetrics = try c.within("networkTransferMetrics") {
          () throws(PayloadDecodingError) in try network(member)
        }
      } else if member.keyEquals("signpostMetrics") {
        payload.signpostMetrics = try c.within("signpostMetrics") { () throws(PayloadDecodingError) in
          guard member.kind == .array else { throw c.failure("expected an array, found \(member.kindName)") }
          var signposts: [SignpostMetric] = []
          signposts.reserveCapacity(member.count)
          for (i, element) in member.children.enumerated() {
            signposts.append(
              try c.within(String(i)) { () throws(PayloadDecodingError) in try signpost(element) })
          }
          return signposts
        }
      }
    }
    payload.timeZoneAssumed = context.zoneAssumed
    return payload
  }

  private func metaData(_ value: JSONValue) throws(PayloadDecodingError) -> MetaData {
    var m = MetaData()
    for member in try context.object(value).children where member.kind != .null {
      _ = try context.metaDataField(member, into: &m)
    }
    return m
  }

  private func launch(_ value: JSONValue) throws(PayloadDecodingError) -> AppLaunchMetric {
    let c = context
    var section = AppLaunchMetric()
    for m in try c.object(value).children where m.kind != .null {
      func histogram() throws(PayloadDecodingError) -> Histogram<UnitDuration> {
        try c.within(m.key) { () throws(PayloadDecodingError) in
          try c.histogram(m, kind: .duration, unit: CanonicalUnit.milliseconds)
        }
      }
      if m.keyEquals("histogrammedTimeToFirstDrawKey") || m.keyEquals("histogrammedTimeToFirstDraw") {
        section.histogrammedTimeToFirstDraw = try histogram()
      } else if m.keyEquals("histogrammedResumeTime") || m.keyEquals("histogrammedApplicationResumeTime") {
        section.histogrammedApplicationResumeTime = try histogram()
      } else if m.keyEquals("histogrammedOptimizedTimeToFirstDrawKey")
        || m.keyEquals("histogrammedOptimizedTimeToFirstDraw")
      {
        section.histogrammedOptimizedTimeToFirstDraw = try histogram()
      } else if m.keyEquals("histogrammedExtendedLaunch") {
        section.histogrammedExtendedLaunch = try histogram()
      }
    }
    return section
  }

  private func runTime(_ value: JSONValue) throws(PayloadDecodingError) -> AppRunTimeMetric {
    let c = context
    var section = AppRunTimeMetric()
    for m in try c.object(value).children where m.kind != .null {
      try c.within(m.key) { () throws(PayloadDecodingError) in
        if m.keyEquals("cumulativeForegroundTime") {
          section.cumulativeForegroundTime = try c.seconds(m)
        } else if m.keyEquals("cumulativeBackgroundTime") {
          section.cumulativeBackgroundTime = try c.seconds(m)
        } else if m.keyEquals("cumulativeBackgroundAudioTime") {
          section.cumulativeBackgroundAudioTime = try c.seconds(m)
        } else if m.keyEquals("cumulativeBackgroundLocationTime") {
          section.cumulativeBackgroundLocationTime = try c.seconds(m)
        }
      }
    }
    return section
  }

  private func exits(_ value: JSONValue) throws(PayloadDecodingError) -> AppExitMetric {
    let c = context
    var section = AppExitMetric()
    for m in try c.object(value).children where m.kind != .null {
      let foreground = m.keyEquals("foregroundExitData")
      guard foreground || m.keyEquals("backgroundExitData") else { continue }
      let counts = try c.within(m.key) { () throws(PayloadDecodingError) in
        var counts = ExitCounts()
        for counter in try c.object(m).children where counter.kind != .null {
          let value = try c.within(counter.key) { () throws(PayloadDecodingError) in try c.count(counter) }
          if let i = ExitCounts.knownStaticKeys.firstIndex(where: { counter.keyEquals($0) }) {
            counts.set(value, at: i)
          } else {
            counts.set(value, forUnknownKey: counter.key)
          }
        }
        return counts
      }
      if foreground { section.foregroundExitData = counts } else { section.backgroundExitData = counts }
    }
    return section
  }

  private func location(_ value: JSONValue) throws(PayloadDecodingError) -> LocationActivityMetric {
    let c = context
    var section = LocationActivityMetric()
    for m in try c.object(value).children where m.kind != .null {
      try c.within(m.key) { () throws(PayloadDecodingError) in
        if m.keyEquals("cumulativeBestAccuracyForNavigationTime") {
          section.cumulativeBestAccuracyForNavigationTime = try c.seconds(m)
        } else if m.keyEquals("cumulativeBestAccuracyTime") {
          section.cumulativeBestAccuracyTime = try c.seconds(m)
        } else if m.keyEquals("cumulativeNearestTenMetersAccuracyTime") {
          section.cumulativeNearestTenMetersAccuracyTime = try c.seconds(m)
        } else if m.keyEquals("cumulativeHundredMetersAccuracyTime") {
          section.cumulativeHundredMetersAccuracyTime = try c.seconds(m)
        } else if m.keyEquals("cumulativeKilometerAccuracyTime") {
          section.cumulativeKilometerAccuracyTime = try c.seconds(m)
        } else if m.keyEquals("cumulativeThreeKilometersAccuracyTime") {
          section.cumulativeThreeKilometersAccuracyTime = try c.seconds(m)
        }
      }
    }
    return section
  }

  private func network(_ value: JSONValue) throws(PayloadDecodingError) -> NetworkTransferMetric {
    let c = context
    var section = NetworkTransferMetric()
    for m in try c.object(value).children where m.kind != .null {
      try c.within(m.key) { () throws(PayloadDecodingError) in
        if m.keyEquals("cumulativeWifiUpload") {
          section.cumulativeWifiUpload = try c.megabytes(m)
        } else if m.keyEquals("cumulativeWifiDownload") {
          section.cumulativeWifiDownload = try c.megabytes(m)
        } else if m.keyEquals("cumulativeCellularUpload") {
          section.cumulativeCellularUpload = try c.megabytes(m)
        } else if m.keyEquals("cumulativeCellularDownload") {
          section.cumulativeCellularDownload = try c.megabytes(m)
        }
      }
    }
    return section
  }

  private func hitchRatio(_ value: JSONValue) throws(PayloadDecodingError) -> Measurement<UnitHitchTimeRatio> {
    Measurement(value: try context.measurement(value, .hitchRatio), unit: UnitHitchTimeRatio.millisecondsPerSecond)
  }

  private func average<U: Dimension>(
    _ value: JSONValue, kind: MeasurementUnit.Kind, unit: U, divisor: Double
  ) throws(PayloadDecodingError) -> AverageMeasurement<U> {
    let c = context
    var mean: Double? = nil
    var deviation: Double? = nil
    var samples = 0
    for m in try c.object(value).children where m.kind != .null {
      try c.within(m.key) { () throws(PayloadDecodingError) in
        if m.keyEquals("averageValue") {
          mean = try c.measurement(m, kind, divisor: divisor)
        } else if m.keyEquals("standardDeviation") {
          guard let d = m.double, d.isFinite else { throw c.failure("expected a number, found \(m.kindName)") }
          deviation = d < 0 ? nil : d / divisor
        } else if m.keyEquals("sampleCount") {
          samples = try c.count(m)
        }
      }
    }
    guard let mean else { throw c.failure("average has no averageValue") }
    return AverageMeasurement(
      averageMeasurement: Measurement(value: mean, unit: unit), standardDeviation: deviation, sampleCount: samples)
  }

  private func signpost(_ value: JSONValue) throws(PayloadDecodingError) -> SignpostMetric {
    let c = context
    var name: String? = nil
    var category: String? = nil
    var total: Int? = nil
    var interval: SignpostIntervalData? = nil
    for m in try c.object(value).children where m.kind != .null {
      try c.within(m.key) { () throws(PayloadDecodingError) in
        if m.keyEquals("signpostName") {
          name = try c.string(m)
        } else if m.keyEquals("signpostCategory") {
          category = try c.string(m)
        } else if m.keyEquals("totalSignpostCount") || m.keyEquals("totalCount") {
          total = try c.count(m)
        } else if m.keyEquals("signpostIntervalData") {
          interval = try intervalData(m)
        }
      }
    }
    guard let name else { throw c.failure("signpost has no signpostName") }
    var signpost = SignpostMetric(signpostName: name, signpostCategory: category ?? "")
    signpost.totalCount = total
    signpost.signpostIntervalData = interval
    return signpost
  }

  private func intervalData(_ value: JSONValue) throws(PayloadDecodingError) -> SignpostIntervalData {
    let c = context
    var data = SignpostIntervalData()
    for m in try c.object(value).children where m.kind != .null {
      try c.within(m.key) { () throws(PayloadDecodingError) in
        if m.keyEquals("histogrammedSignpostDurations") || m.keyEquals("histogrammedSignpostDuration") {
          data.histogrammedSignpostDuration = try c.histogram(m, kind: .duration, unit: CanonicalUnit.milliseconds)
        } else if m.keyEquals("signpostCumulativeCPUTime") {
          data.cumulativeCPUTime = try c.seconds(m)
        } else if m.keyEquals("signpostAverageMemory") {
          data.averageMemory = try c.megabytes(m)
        } else if m.keyEquals("signpostCumulativeLogicalWrites") {
          data.cumulativeLogicalWrites = try c.megabytes(m)
        } else if m.keyEquals("signpostCumulativeHitchTimeRatio") {
          data.cumulativeHitchTimeRatio = try hitchRatio(m)
        }
      }
    }
    return data
  }
}
