import Foundation

/// How much a synthetic payload carries.
public enum PayloadDetail: Sendable, Equatable {
  /// The sample dump's payloads (4–10 KB pretty-printed).
  case standard
  /// Every section, six signposts and dense launch histograms (about 21 KB pretty-printed, like a
  /// busy app's real payloads): the benchmark corpus.
  case full
  /// The standard sections and `n` more signposts (`App/Screen1`…), each in about 7 payloads of 10: a
  /// version with many signposts, each sample under the per-sample exact limit.
  case signposts(Int)
}

/// One synthetic device-day: the raw observations it was made from (the ground truth) and the
/// MetricKit JSON that reports them as histograms.
public struct SyntheticPayload: Sendable {
  /// The version the payload reports (`appVersion`).
  public var version: String
  /// True when the payload spans an update (`"multipleAppVersions": "1"`).
  public var multipleVersions: Bool
  /// Raw launch times (ms), before bucketing.
  public var launchSamples: [Double]
  /// Raw resume times (ms).
  public var resumeSamples: [Double]
  /// Raw hang durations (ms).
  public var hangSamples: [Double]
  /// The bucket edges used for launches (the containing bucket's width bounds the error).
  public var launchLayout: BucketLayout
  /// The bucket edges used for hangs.
  public var hangLayout: BucketLayout
  /// Peak memory, MB (written as an integer number of kB).
  public var peakMemoryMB: Double
  /// Foreground time, s.
  public var foregroundSeconds: Int
  /// Scroll hitch ratio, ms per s.
  public var scrollHitchRatio: Int
  /// Abnormal foreground exits.
  public var abnormalExits: Int
  /// The JSON text, pretty-printed as Apple writes it.
  public var json: String

  /// Launch layouts by OS generation: 10 ms, 25 ms and uneven buckets.
  static let launchLayouts: [BucketLayout] = [
    .uniform(from: 0, to: 3000, width: 10),
    .uniform(from: 0, to: 3000, width: 25),
    BucketLayout(edges: [0, 100, 200, 300, 350, 400, 450, 500, 550, 600, 700, 800, 1000, 1500, 2000, 3000]),
  ]
  /// Hang layouts: the last bucket collects everything above it.
  static let hangLayouts: [BucketLayout] = [
    BucketLayout(edges: [0, 250, 500, 750, 1000, 2000, 5000, 10000]),
    .uniform(from: 0, to: 10000, width: 100),
  ]

  /// Draws one device-day of `profile` with `rng`; `deviceType` and `osVersion` replace the device
  /// model and OS the payload would otherwise name (by `device` and its bucket layout).
  public static func make(
    profile: VersionProfile, day: Int, device: Int, multipleVersions: Bool, rng: inout SplitMix64,
    detail: PayloadDetail = .standard, deviceType: String? = nil, osVersion: String? = nil
  ) -> SyntheticPayload {
    let style = MeasurementStyle.allCases[Int(rng.next() % 4)]
    let layoutChoice = detail == .full ? 0 : Int(rng.next() % UInt64(launchLayouts.count))
    let launchLayout = launchLayouts[layoutChoice]
    let hangLayout = hangLayouts[Int(rng.next() % UInt64(hangLayouts.count))]
    let signposts: [String]
    switch detail {
    case .standard: signposts = []
    case .full: signposts = ["Checkout", "Search", "Render", "Sync", "Login"]
    case .signposts(let n): signposts = (0..<max(0, n)).filter { _ in rng.next() % 10 < 7 }.map { "Screen\($0 + 1)" }
    }
    func draw(_ n: Int, median: Double, sigma: Double, layout: BucketLayout) -> [Double] {
      let top = layout.edges[layout.edges.count - 1] - 1
      return (0..<n).map { _ in min(max(rng.logNormal(median: median, sigma: sigma), 1), top) }
    }
    let launchCount = detail == .full ? 40 + Int(rng.next() % 60) : 3 + Int(rng.next() % 30)
    let launches = draw(launchCount, median: profile.launchMedian, sigma: 0.35, layout: launchLayout)
    let resumes = draw(5 + Int(rng.next() % 60), median: profile.resumeMedian, sigma: 0.3, layout: launchLayout)
    let hangs =
      rng.unit() < 0.25 ? [] : draw(1 + Int(rng.next() % 8), median: profile.hangMedian, sigma: 0.6, layout: hangLayout)
    let peakKB = Int(rng.logNormal(median: profile.peakMemoryMedian, sigma: 0.2) * 1000)
    let foreground = 300 + Int(rng.next() % 7200)
    let hitch = Int(rng.logNormal(median: profile.hitchMedian, sigma: 0.5).rounded())
    let abnormal = rng.unit() < 0.1 ? 1 + Int(rng.next() % 2) : 0
    let memoryLimit = rng.unit() < 0.05 ? 1 : 0
    let zoned = rng.unit() < 0.5
    let cellular = [(1, Int(rng.next() % 50)), (2, Int(rng.next() % 50)), (3, 1 + Int(rng.next() % 100))]

    let w = PayloadWriter(style: style)
    let dayStart = 1_700_000_000 + day * 86_400
    w.object {
      w.field("appVersion", string: profile.version)
      if multipleVersions { w.field("multipleAppVersions", string: "1") }
      w.field("timeStampBegin", string: Self.stamp(dayStart, zoned: zoned))
      w.field("timeStampEnd", string: Self.stamp(dayStart + 86_340, zoned: zoned))
      w.member("metaData") {
        w.object {
          w.field("appBuildVersion", string: profile.build)
          w.field(
            "osVersion",
            string: osVersion
              ?? ["iPhone OS 16.7.2 (20H115)", "iPhone OS 17.5.1 (21F90)", "iPhone OS 18.1 (22B83)"][layoutChoice])
          w.field(
            "regionFormat", string: ["US", "US", "CN", "RU"][MeasurementStyle.allCases.firstIndex(of: style) ?? 0])
          w.field("deviceType", string: deviceType ?? ["iPhone14,2", "iPhone15,3", "iPhone12,1"][device % 3])
          w.field("platformArchitecture", string: "arm64e")
          w.field("bundleIdentifier", string: "com.example.shop")
        }
      }
      w.member("applicationLaunchMetrics") {
        w.object {
          w.member("histogrammedTimeToFirstDrawKey") { w.histogram(launches, layout: launchLayout, rng: &rng) }
          w.member("histogrammedResumeTime") { w.histogram(resumes, layout: launchLayout, rng: &rng) }
        }
      }
      if !hangs.isEmpty {
        w.member("applicationResponsivenessMetrics") {
          w.object { w.member("histogrammedAppHangTime") { w.histogram(hangs, layout: hangLayout, rng: &rng) } }
        }
      }
      w.member("applicationTimeMetrics") {
        w.object {
          w.field("cumulativeForegroundTime", raw: style.seconds(foreground))
          w.field("cumulativeBackgroundTime", raw: style.seconds(foreground / 3))
        }
      }
      w.member("memoryMetrics") {
        w.object {
          w.field("peakMemoryUsage", raw: style.kilobytes(peakKB))
          w.member("averageSuspendedMemory") {
            w.object {
              w.field("averageValue", raw: style.kilobytes(peakKB / 2))
              w.field("standardDeviation", number: "0")
              w.field("sampleCount", number: "12")
            }
          }
        }
      }
      w.member("diskIOMetrics") {
        w.object { w.field("cumulativeLogicalWrites", raw: style.kilobytes(1000 + peakKB / 10)) }
      }
      w.member("cpuMetrics") { w.object { w.field("cumulativeCPUTime", raw: style.seconds(foreground / 10)) } }
      w.member("animationMetrics") { w.object { w.field("scrollHitchTimeRatio", string: "\(hitch) ms per s") } }
      w.member("cellularConditionMetrics") {
        w.object {
          w.member("cellConditionTime") {
            w.pointMassHistogram(cellular.filter { $0.1 > 0 }.map { (String($0.0) + " bars", $0.1) })
          }
        }
      }
      w.member("applicationExitMetrics") {
        w.object {
          w.member("foregroundExitData") {
            w.object {
              if abnormal > 0 { w.field("cumulativeAbnormalExitCount", number: String(abnormal)) }
              if memoryLimit > 0 { w.field("cumulativeMemoryResourceLimitExitCount", number: String(memoryLimit)) }
              w.field("cumulativeNormalAppExitCount", number: String(1 + Int(rng.next() % 5)))
            }
          }
          w.member("backgroundExitData") { w.object {} }
        }
      }
      if detail == .full {
        w.member("locationActivityMetrics") {
          w.object {
            for key in [
              "cumulativeBestAccuracyForNavigationTime", "cumulativeBestAccuracyTime",
              "cumulativeHundredMetersAccuracyTime",
            ] {
              w.field(key, raw: style.seconds(Int(rng.next() % 600)))
            }
          }
        }
        w.member("networkTransferMetrics") {
          w.object {
            for key in [
              "cumulativeWifiDownload", "cumulativeWifiUpload", "cumulativeCellularDownload",
              "cumulativeCellularUpload",
            ] {
              w.field(key, raw: style.kilobytes(Int(rng.next() % 500_000)))
            }
          }
        }
        w.member("gpuMetrics") { w.object { w.field("cumulativeGPUTime", raw: style.seconds(Int(rng.next() % 300))) } }
        w.member("displayMetrics") {
          w.object {
            w.member("averagePixelLuminance") {
              w.object {
                w.field("averageValue", string: "\(Int(rng.next() % 100)) apl")
                w.field("standardDeviation", number: "0")
                w.field("sampleCount", number: "20")
              }
            }
          }
        }
      }
      w.member("signpostMetrics") {
        w.array {
          for name in signposts {
            w.element {
              w.object {
                w.field("signpostName", string: name)
                w.field("signpostCategory", string: "App")
                w.field("totalSignpostCount", number: String(resumes.count))
                w.member("signpostIntervalData") {
                  w.object {
                    w.member("histogrammedSignpostDurations") { w.histogram(resumes, layout: launchLayout, rng: &rng) }
                    w.field("signpostCumulativeCPUTime", raw: style.milliseconds(resumes.count * 20))
                  }
                }
              }
            }
          }
          w.element {
            w.object {
              w.field("signpostName", string: "LoadFeed")
              w.field("signpostCategory", string: "Feed")
              w.field("totalSignpostCount", number: String(resumes.count))
              w.member("signpostIntervalData") {
                w.object {
                  w.member("histogrammedSignpostDurations") { w.histogram(resumes, layout: launchLayout, rng: &rng) }
                  w.field("signpostCumulativeCPUTime", raw: style.milliseconds(resumes.count * 20))
                }
              }
            }
          }
        }
      }
    }
    return SyntheticPayload(
      version: profile.version, multipleVersions: multipleVersions, launchSamples: launches, resumeSamples: resumes,
      hangSamples: hangs, launchLayout: launchLayout, hangLayout: hangLayout, peakMemoryMB: Double(peakKB) / 1000,
      foregroundSeconds: foreground, scrollHitchRatio: hitch, abnormalExits: abnormal, json: w.text)
  }

  /// `yyyy-MM-dd HH:mm:ss` with or without ` +0000`.
  static func stamp(_ epoch: Int, zoned: Bool) -> String {
    let date = Date(timeIntervalSince1970: TimeInterval(epoch))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func two(_ n: Int?) -> String {
      let v = n ?? 0
      return v < 10 ? "0\(v)" : "\(v)"
    }
    let text = "\(c.year ?? 1970)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    return zoned ? text + " +0000" : text
  }
}
