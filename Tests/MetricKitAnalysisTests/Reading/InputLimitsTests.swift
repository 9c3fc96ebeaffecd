import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// The reading limits: a gzip bomb or an endless line costs its cap once, whatever the threads.
@Suite("Input limits")
struct InputLimitsTests {
  @Test func gzipBombsCostTheCapOnceWhateverTheThreads() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mr-bombs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let bomb = try SampleDump.gzip(Data(repeating: 0x20, count: 96 << 20))
    for i in 0..<4 { try bomb.write(to: dir.appendingPathComponent("bomb-\(i).json.gz")) }
    let cap = 40 << 20
    var reader = PayloadReader(limits: InputLimits(maximumDecompressedSize: cap))
    let tracker = BufferTracker()
    reader.tracker = tracker
    let read = reader.read(
      paths: [dir.path], threads: 4, makeAccumulator: { DumpAggregate() },
      visit: { $0.add($1, filter: PayloadFilter(), options: AggregationOptions()) })
    var merged = DumpAggregate()
    for part in read.accumulators { merged.merge(part) }
    #expect(merged.inputs.rejectedCount == 4)
    #expect(merged.inputs.rejected.allSatisfy { $0.reason.contains("decompressed-size limit") })
    // One thread at a time holds a buffer over 16 MiB: the peak is one cap, not four.
    print("peak bytes in large buffers: \(tracker.peakLargeByteCount) (cap \(cap))")
    #expect(tracker.peakLargeByteCount <= cap + 1)
    #expect(tracker.liveCount == 0)
  }

  /// Hands out a few bytes at a time, as a pipe does under load.
  struct TrickleSource: ChunkSource {
    let bytes: [UInt8]
    var offset = 0
    let chunk: Int
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
      let n = min(chunk, buffer.count, bytes.count - offset)
      guard n > 0 else { return 0 }
      bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
      offset += n
      return n
    }
  }

  @Test func aLongLineArrivingInSmallReadsIsSearchedOnce() throws {
    // 16 MB in 4 KiB reads: searching the whole line again on every read scanned 32 GB.
    let line = [UInt8](repeating: UInt8(ascii: "x"), count: 16 << 20) + [0x0A] + Array("{}\n".utf8)
    var source = TrickleSource(bytes: line, chunk: 4096)
    var lengths: [Int] = []
    let clock = ContinuousClock()
    let elapsed = try clock.measure {
      try LineReader.forEachLine(in: &source, window: 1 << 16, maximumLineLength: 32 << 20) { bytes, _ in
        lengths.append(bytes.count)
        return true
      }
    }
    print("16 MB line in 4 KiB reads: \(elapsed)")
    #expect(lengths == [16 << 20, 2])
    var limited = TrickleSource(bytes: line, chunk: 4096)
    #expect(throws: InputError.self) {
      try LineReader.forEachLine(in: &limited, window: 1 << 16, maximumLineLength: 1 << 20) { _, _ in true }
    }
  }
}
