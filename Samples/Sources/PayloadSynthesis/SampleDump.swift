import CZlib
import Foundation

/// A deterministic, realistic dump of MetricKit payloads written to a directory, with the ground
/// truth it was drawn from: several versions, mixed locales and containers (single objects, JSON
/// arrays, NDJSON, gzip), a few payloads spanning an update, and a few malformed files.
public struct SampleDump: Sendable {
  /// Every payload written, good ones only (malformed files are listed apart).
  public var payloads: [SyntheticPayload] = []
  /// The malformed files written, by path relative to the dump, with what is wrong with each.
  public var malformedFiles: [(path: String, problem: String)] = []
  /// Files written, relative to the dump.
  public var files: [String] = []

  /// The rollout of the sample dump over 90 days: each version's device-days spread evenly over a
  /// 50-day window, windows staggered so that a new version ramps up while the previous one fades
  /// (`trend --metric payloads` shows the adoption curve).
  public static func rolloutDay(version: Int, of versions: Int, payload n: Int, of count: Int) -> Int {
    let window = 50
    let start = versions > 1 ? version * (90 - window) / (versions - 1) : 0
    return start + n * window / max(1, count)
  }

  /// Generates and writes a dump.
  /// - Parameters:
  ///   - directory: where to write (created if needed).
  ///   - seed: the same seed writes the same bytes.
  ///   - payloadsPerVersion: device-days per version.
  ///   - profiles: the versions.
  ///   - malformed: whether to add malformed files.
  public static func write(
    to directory: URL, seed: UInt64 = 2024, payloadsPerVersion: Int = 60,
    profiles: [VersionProfile] = VersionProfile.standard, malformed: Bool = true
  ) throws -> SampleDump {
    var rng = SplitMix64(seed: seed)
    var dump = SampleDump()
    let fm = FileManager.default
    try fm.createDirectory(at: directory, withIntermediateDirectories: true)

    for (index, profile) in profiles.enumerated() {
      let versionDirectory = "v\(profile.version)"
      try fm.createDirectory(at: directory.appendingPathComponent(versionDirectory), withIntermediateDirectories: true)
      var batch: [SyntheticPayload] = []
      for n in 0..<payloadsPerVersion {
        // A few device-days span the update to this version.
        let multiple = n % 17 == 5
        let payload = SyntheticPayload.make(
          profile: profile,
          day: Self.rolloutDay(version: index, of: profiles.count, payload: n, of: payloadsPerVersion),
          device: n, multipleVersions: multiple, rng: &rng)
        dump.payloads.append(payload)
        batch.append(payload)
      }
      // Containers: singles, one JSON array, one NDJSON, gzip singles.
      var i = 0
      while i < batch.count {
        let kind = i / 6 % 4
        let name: String
        let data: Data
        switch kind {
        case 0:
          name = "\(versionDirectory)/payload-\(i).json"
          data = Data(batch[i].json.utf8)
          i += 1
        case 1:
          let group = batch[i..<min(i + 4, batch.count)]
          name = "\(versionDirectory)/batch-\(i).json"
          data = Data(("[\n" + group.map(\.json).joined(separator: ",\n") + "\n]\n").utf8)
          i += group.count
        case 2:
          let group = batch[i..<min(i + 5, batch.count)]
          name = "\(versionDirectory)/stream-\(i).ndjson"
          data = Data((group.map { Self.compact($0.json) }.joined(separator: "\n") + "\n").utf8)
          i += group.count
        default:
          name = "\(versionDirectory)/payload-\(i).json.gz"
          data = try Self.gzip(Data(batch[i].json.utf8))
          i += 1
        }
        try data.write(to: directory.appendingPathComponent(name))
        dump.files.append(name)
      }
    }

    if malformed {
      let bad: [(String, String, String)] = [
        ("malformed/truncated.json", String((dump.payloads.first?.json ?? "{").prefix(300)), "truncated JSON"),
        ("malformed/empty.json", "", "empty file"),
        (
          "malformed/unknown-unit.json",
          (dump.payloads.first?.json ?? "").replacingOccurrences(
            of: "\"cumulativeForegroundTime\" : \"",
            with: "\"cumulativeForegroundTime\" : \"12 fortnights\", \"x\" : \""),
          "unknown unit"
        ),
        ("malformed/not-a-payload.json", "{\"hello\" : \"world\"}", "no MetricKit keys"),
      ]
      for (name, text, problem) in bad {
        try fm.createDirectory(
          at: directory.appendingPathComponent(name).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        dump.files.append(name)
        dump.malformedFiles.append((name, problem))
      }
    }
    return dump
  }

  /// The payload JSON on one line (NDJSON).
  public static func compact(_ json: String) -> String {
    json.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
  }

  /// Gzip-compresses `data` with zlib.
  public static func gzip(_ data: Data) throws -> Data {
    var stream = z_stream()
    // 15 + 16: a gzip header and trailer.
    guard
      deflateInit2_(
        &stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        == Z_OK
    else {
      throw CocoaError(.fileWriteUnknown)
    }
    defer { deflateEnd(&stream) }
    var input = [UInt8](data)
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
    let status: Int32 = input.withUnsafeMutableBufferPointer { inp in
      output.withUnsafeMutableBufferPointer { out in
        stream.next_in = inp.baseAddress
        stream.avail_in = uInt(inp.count)
        stream.next_out = out.baseAddress
        stream.avail_out = uInt(out.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { throw CocoaError(.fileWriteUnknown) }
    return Data(output[0..<Int(stream.total_out)])
  }
}
