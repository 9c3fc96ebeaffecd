import CMetricsProcess
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One `llvm-symbolizer` process (`--output-style=JSON --inlining`), fed `"FILE:ARCH" 0xADDRESS`
/// lines in batches and read one JSON line per address. It lives as long as the object: a run starts
/// it once, however many frames it asks.
///
/// Nothing it says is trusted to be in order: each answer is paired with its question by the file and
/// address it echoes, and one that echoes another ends its use with a failure saying so (a frame is
/// never given another frame's symbols). Every wait on it is bounded by ``timeout``; when the object
/// goes, the process is reaped (killed when it does not end within a moment of its input closing),
/// and on Linux the kernel kills it if this process dies first.
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
  static let maximumAnswerLength = 1 << 20
  /// The most bytes of answers read in one run, whatever their number.
  static let maximumAnswerBytes = 256 << 20
  /// The most questions written before their answers are read.
  static let batchSize = 256
  /// The most bytes of questions written at once: less than any pipe holds, so that writing a batch
  /// never waits on the symbolizer reading it while it waits on its answers being read.
  static let batchBytes = 16 << 10
  /// Seconds a batch's questions and answers may take by default.
  static let defaultTimeout: Double = 120

  let executable: String
  /// Seconds one batch (writing its questions, reading its answers) may take before the symbolizer is
  /// taken for stalled.
  let timeout: Double
  private let pid: pid_t
  private let input: Int32
  private let output: Int32
  private let parser: JSONParser
  /// Bytes of answers read so far.
  private var answerBytes = 0
  /// Whether a wait ran out of time: the process is taken for stalled and killed at once when the
  /// object goes (no grace to end on its own), so that the run ends within ``timeout`` of its last
  /// progress.
  private var stalled = false
  /// A private folder of links to files whose paths cannot be written on the symbolizer's input (a
  /// line break or a quote in them), made when the first is met.
  private var links: String?
  private var linked: [String: String] = [:]

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
  init(executable: String, timeout: Double = LLVMSymbolizer.defaultTimeout) throws(Failure) {
    self.executable = executable
    self.timeout = timeout
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw Failure(description: "\(executable) does not start: not an executable file")
    }
    guard let parser = JSONParser(maximumDepth: 16) else { throw Failure(description: "out of memory") }
    self.parser = parser
    let arguments: [UnsafeMutablePointer<CChar>?] =
      [executable, "--output-style=JSON", "--inlining"].map { $0.withCString { strdup($0) } } + [nil]
    defer { for argument in arguments { free(argument) } }
    var toChild: Int32 = -1
    var fromChild: Int32 = -1
    let pid = arguments.withUnsafeBufferPointer { mr_spawn_piped(executable, $0.baseAddress!, &toChild, &fromChild) }
    guard pid > 0 else { throw Failure(description: "\(executable) does not start: \(Self.systemError())") }
    self.pid = pid
    input = toChild
    output = fromChild
    // Neither side blocks: every wait is a poll with a time bound.
    for fd in [input, output] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
  }

  deinit {
    close(input)
    // It ends when its input does; one that does not, soon, is killed (a stalled one at once).
    if stalled || Self.reap(pid, within: 2) == nil {
      kill(pid, SIGKILL)
      _ = Self.reap(pid, within: nil)
    }
    close(output)
    if let links { try? FileManager.default.removeItem(atPath: links) }
  }

  /// The symbols at each query's address, innermost first; empty where the address resolves to
  /// nothing.
  func symbols(_ queries: [Query]) throws(Failure) -> [[FrameSymbol]] {
    var answers: [[FrameSymbol]] = []
    answers.reserveCapacity(queries.count)
    var start = 0
    while start < queries.count {
      var text = ""
      var asked: [(module: String, address: UInt64)] = []
      while start < queries.count, asked.count < Self.batchSize, asked.isEmpty || text.utf8.count < Self.batchBytes {
        let q = queries[start]
        // The file in quotes (paths may hold spaces), with the slice's architecture.
        let module = "\(try fileName(q.image.path)):\(q.image.architecture)"
        text += "\"\(module)\" 0x\(String(q.address, radix: 16))\n"
        asked.append((module, q.address))
        start += 1
      }
      let deadline = Self.now() + timeout
      try write(Array(text.utf8), before: deadline)
      try read(asked, into: &answers, before: deadline)
    }
    return answers
  }

  /// `path` as the symbolizer's input can carry it: itself, or, when it holds a line break, a quote or
  /// another control character, a link to it with a plain name.
  private func fileName(_ path: String) throws(Failure) -> String {
    func plain(_ s: String) -> Bool { !s.unicodeScalars.contains { $0.value < 0x20 || $0 == "\"" || $0 == "\u{7F}" } }
    if plain(path) { return path }
    if let link = linked[path] { return link }
    if links == nil {
      var template = Array(
        ((NSTemporaryDirectory() as NSString).appendingPathComponent("metrics-report-symbols.XXXXXX")).utf8CString)
      guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw Failure(description: "cannot make a folder for links to symbol files: \(Self.systemError())")
      }
      links = String(cString: made)
    }
    let link = "\(links!)/\(linked.count)"
    guard plain(link), symlink(path, link) == 0 else {
      throw Failure(description: "cannot link \(TextEscaping.terminal(path)) for \(executable): \(Self.systemError())")
    }
    linked[path] = link
    return link
  }

  /// Writes all of `bytes` to the symbolizer's input.
  private func write(_ bytes: [UInt8], before deadline: Double) throws(Failure) {
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { systemWrite(input, $0.baseAddress! + written, bytes.count - written) }
      if n > 0 {
        written += n
        continue
      }
      if n < 0 && errno == EINTR { continue }
      guard n < 0, errno == EAGAIN || errno == EWOULDBLOCK else {
        throw Failure(description: "\(executable) stopped reading its input (\(Self.systemError()))\(ended())")
      }
      do throws(Failure) {
        try wait(for: Int16(POLLOUT), on: input, before: deadline, doing: "reading its input")
      } catch {
        throw Failure(description: "\(executable): \(error.description)")
      }
    }
  }

  /// Reads the answers to `asked`, in order, each checked to be the answer to its question.
  private func read(
    _ asked: [(module: String, address: UInt64)], into answers: inout [[FrameSymbol]], before deadline: Double
  )
    throws(Failure)
  {
    var source = TimedSource(symbolizer: self, deadline: deadline)
    var failure: Failure?
    var read = 0
    do throws(InputError) {
      try LineReader.forEachLine(in: &source, window: 1 << 16, maximumLineLength: Self.maximumAnswerLength) {
        line, _ in
        answerBytes += line.count + 1
        do throws(Failure) {
          guard answerBytes <= Self.maximumAnswerBytes else {
            throw Failure(
              description: "\(executable) answered more than \(Self.maximumAnswerBytes >> 20) MiB: not read further")
          }
          answers.append(try parse(line, asked: asked[read]))
        } catch {
          failure = error
          return false
        }
        read += 1
        return read < asked.count
      }
    } catch {
      throw failure ?? Failure(description: "\(executable): \(error.reason)")
    }
    if let failure { throw failure }
    guard read == asked.count else { throw Failure(description: "\(executable) ended before answering\(ended())") }
  }

  /// Waits until `fd` is ready for `events`, or fails at `deadline`.
  fileprivate func wait(for events: Int16, on fd: Int32, before deadline: Double, doing what: String) throws(Failure) {
    while true {
      let left = deadline - Self.now()
      guard left > 0 else {
        stalled = true
        throw Failure(description: "stalled: no progress \(what) for \(String(format: "%g", timeout)) s; stopped")
      }
      var descriptor = pollfd(fd: fd, events: events, revents: 0)
      let ready = poll(&descriptor, 1, Int32(min(left * 1000, Double(Int32.max)).rounded(.up)))
      if ready > 0 { return }
      if ready < 0 && errno != EINTR { throw Failure(description: Self.systemError()) }
    }
  }

  /// `, which exited with status N` (or `was killed by signal N`) once the process has ended within a
  /// moment; empty while it runs.
  private func ended() -> String {
    guard let status = Self.reap(pid, within: 1) else { return "" }
    return status.signal.map { ", which was killed by signal \($0)" } ?? ", which exited with status \(status.code)"
  }

  /// How a process ended.
  private struct Ending {
    var code: Int32
    var signal: Int32?
  }

  /// Reaps `pid` when it ends within `seconds` (nil: however long it takes); nil when it runs on.
  /// Once reaped, it is not reaped again.
  private static func reap(_ pid: pid_t, within seconds: Double?) -> Ending? {
    let deadline = seconds.map { now() + $0 }
    var status: Int32 = 0
    while true {
      let r = waitpid(pid, &status, seconds == nil ? 0 : WNOHANG)
      if r == pid {
        let signal = status & 0x7F
        return signal == 0 ? Ending(code: (status >> 8) & 0xFF, signal: nil) : Ending(code: 0, signal: signal)
      }
      if r < 0 && errno == EINTR { continue }
      if r < 0 { return Ending(code: 0, signal: nil) }  // reaped already
      guard let deadline, now() < deadline else { return nil }
      usleep(10_000)
    }
  }

  /// One answer, which must be the answer to `asked`.
  private func parse(_ line: UnsafeRawBufferPointer, asked: (module: String, address: UInt64)) throws(Failure)
    -> [FrameSymbol]
  {
    let answer: SymbolizerAnswer
    do {
      answer = try SymbolizerAnswer(line, parser: parser)
    } catch {
      throw Failure(description: "\(executable) answered what is \(error.description)")
    }
    guard answer.file == asked.module, answer.address == asked.address else {
      let said = "\(answer.address.map { "0x" + String($0, radix: 16) } ?? "no address") in \(answer.file ?? "no file")"
      throw Failure(
        description:
          "\(executable) answered for \(TextEscaping.terminal(said)) where 0x\(String(asked.address, radix: 16)) "
          + "in \(TextEscaping.terminal(asked.module)) was asked: its answers are not used")
    }
    return answer.symbols
  }

  fileprivate static func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
  }

  private static func systemError() -> String { String(cString: strerror(errno)) }

  /// The symbolizer's output, read as it comes, each wait bounded by the batch's deadline.
  private struct TimedSource: ChunkSource {
    let symbolizer: LLVMSymbolizer
    let deadline: Double

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
      guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
      while true {
        let n = systemRead(symbolizer.output, base, buffer.count)
        if n >= 0 { return n }
        if errno == EINTR { continue }
        guard errno == EAGAIN || errno == EWOULDBLOCK else {
          throw InputError(reason: "read failed: \(String(cString: strerror(errno)))")
        }
        do throws(Failure) {
          try symbolizer.wait(for: Int16(POLLIN), on: symbolizer.output, before: deadline, doing: "answering")
        } catch {
          throw InputError(reason: error.description)
        }
      }
    }
  }
}
