import Foundation

/// The benchmark corpus: the same payloads (full detail, about 21 KB each pretty-printed) written three
/// ways: one pretty-printed file each (`files/`), one NDJSON file (`all.ndjson`), and gzip files
/// (`gz/`). Deterministic for a seed.
public enum BenchmarkCorpus {
  /// Writes `count` payloads spread over the standard versions into `directory` (made when missing).
  public static func write(to directory: URL, count: Int, seed: UInt64 = 7) throws -> (bytes: Int, ndjsonBytes: Int) {
    let fm = FileManager.default
    var rng = SplitMix64(seed: seed)
    let profiles = VersionProfile.standard
    for p in profiles {
      try fm.createDirectory(
        at: directory.appendingPathComponent("files/v\(p.version)"), withIntermediateDirectories: true)
      try fm.createDirectory(
        at: directory.appendingPathComponent("gz/v\(p.version)"), withIntermediateDirectories: true)
    }
    _ = fm.createFile(atPath: directory.appendingPathComponent("all.ndjson").path, contents: nil)
    let ndjson = try FileHandle(forWritingTo: directory.appendingPathComponent("all.ndjson"))
    defer { try? ndjson.close() }
    var bytes = 0
    var ndjsonBytes = 0
    for n in 0..<count {
      let profile = profiles[n % profiles.count]
      let payload = SyntheticPayload.make(
        // Every version on every device: versions alternate, so device by n alone would give each its own.
        profile: profile, day: n % 28, device: n / profiles.count, multipleVersions: n % 50 == 7, rng: &rng,
        detail: .full)
      let data = Data(payload.json.utf8)
      let name = String(format: "%06d.json", n)
      try data.write(to: directory.appendingPathComponent("files/v\(profile.version)/\(name)"))
      try SampleDump.gzip(data).write(to: directory.appendingPathComponent("gz/v\(profile.version)/\(name).gz"))
      let line = Data((SampleDump.compact(payload.json) + "\n").utf8)
      ndjson.write(line)
      bytes += data.count
      ndjsonBytes += line.count
    }
    return (bytes, ndjsonBytes)
  }
}
