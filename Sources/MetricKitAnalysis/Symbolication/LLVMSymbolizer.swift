import Foundation

/// One `llvm-symbolizer` process (`--output-style=JSON --inlining`), fed `"FILE:ARCH" 0xADDRESS`
/// lines in batches and read one JSON line per address. It lives as long as the object: a run starts
/// it once, however many frames it asks.
final class LLVMSymbolizer {
  /// One address to look up in an image's file.
  struct Query: Hashable {
    var image: MachOImage
    /// In the binary's own address space (its `__TEXT` vmaddr + offset).
    var address: UInt64
  }

  /// Why symbols could not be had.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The longest answer read (a frame inlined a few levels deep answers a few hundred bytes).
  static let maximumAnswerLength = 16 << 20

  /// Lines written before their answers are read: small enough that a batch's questions always fit
  /// the pipe, so neither side waits on the other.
  static let batchSize = 256

  let executable: String
  private let process: Process
  private let input: FileHandle
  private let output: Int32
  private let parser: JSONParser

  /// `llvm-symbolizer` on `PATH`, else beside the `swift` on `PATH` (the toolchain ships one).
  static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
    for directory in directories {
      let candidate = (directory as NSString).appendingPathComponent("llvm-symbolizer")
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    for directory in directories {
      let swift = (directory as NSString).appendingPathComponent("swift")
      guard FileManager.default.isExecutableFile(atPath: swift) else { continue }
      let real = (swift as NSString).resolvingSymlinksInPath
      let candidate = ((real as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
        "llvm-symbolizer")
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Starts `executable`.
  init(executable: String) throws(Failure) {
    self.executable = executable
    process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--output-style=JSON", "--inlining"]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch {
      throw Failure(description: "\(executable) does not start: \(error.localizedDescription)")
    }
    input = stdin.fileHandleForWriting
    output = stdout.fileHandleForReading.fileDescriptor
    guard let parser = JSONParser(maximumDepth: 16) else { throw Failure(description: "out of memory") }
    self.parser = parser
  }

  deinit {
    try? input.close()
    process.waitUntilExit()
  }

  /// The symbols at each query's address, innermost first; empty where the address resolves to
  /// nothing.
  func symbols(_ queries: [Query]) throws(Failure) -> [[FrameSymbol]] {
    var answers: [[FrameSymbol]] = []
    answers.reserveCapacity(queries.count)
    var start = 0
    while start < queries.count {
      let batch = queries[start..<min(queries.count, start + Self.batchSize)]
      var text = ""
      for q in batch {
        // The file in quotes (paths may hold spaces), with the slice's architecture.
        text += "\"\(q.image.path):\(q.image.architecture)\" 0x\(String(q.address, radix: 16))\n"
      }
      do { try input.write(contentsOf: Data(text.utf8)) } catch {
        throw Failure(description: "\(executable) stopped reading (\(error.localizedDescription))")
      }
      try read(batch.count, into: &answers)
      start += Self.batchSize
    }
    return answers
  }

  /// Reads `count` answers. The symbolizer writes nothing it was not asked, so stopping after the
  /// last of them leaves nothing unread.
  private func read(_ count: Int, into answers: inout [[FrameSymbol]]) throws(Failure) {
    var source = StreamSource(descriptor: output)
    var failure: Failure?
    var read = 0
    do throws(InputFailure) {
      try LineReader.forEachLine(in: &source, window: 1 << 16, maximumLineLength: Self.maximumAnswerLength) {
        line, _ in
        do throws(Failure) { answers.append(try parse(line)) } catch {
          failure = error
          return false
        }
        read += 1
        return read < count
      }
    } catch {
      throw Failure(description: "\(executable): \(error.reason)")
    }
    if let failure { throw failure }
    guard read == count else { throw Failure(description: "\(executable) ended before answering") }
  }

  /// One answer: `{"Address": …, "Symbol": [{"FunctionName", "FileName", "Line", "Column"…}…]}`, or
  /// `{"Error": …}` (the file could not be read: no symbols).
  private func parse(_ line: UnsafeRawBufferPointer) throws(Failure) -> [FrameSymbol] {
    do {
      return try parser.parse(line) { root throws(PayloadDecodingError) in
        guard let list = root.member("Symbol"), list.kind == .array else { return [] }
        var symbols: [FrameSymbol] = []
        for s in list.children {
          guard let name = s.member("FunctionName")?.string, !name.isEmpty, name != "??" else { continue }
          var file: String? = s.member("FileName")?.string
          if file == "" || file == "??" { file = nil }
          let line = FrameSymbol.position(s.member("Line")?.int64)
          let column = FrameSymbol.position(s.member("Column")?.int64)
          symbols.append(FrameSymbol(function: name, file: file, line: line, column: column))
        }
        return symbols
      }
    } catch {
      throw Failure(
        description: "\(executable) answered what is not JSON: \(String(decoding: line.prefix(200), as: UTF8.self))")
    }
  }
}
