import Dispatch
import Foundation
import MetricKitAnalysis
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A line on standard error saying how far a long run has got, when standard error is a terminal:
/// drawn once the run has taken a second, redrawn four times a second, erased before anything else
/// is written to the terminal and when the run ends. Where standard error is not a terminal (a CI
/// log, a file) nothing is drawn.
final class ProgressLine: Sendable {
  /// The run's line.
  static let shared = ProgressLine()

  /// What the readings count into.
  let progress = ReadingProgress()

  private struct State {
    var started = false
    var stopped = false
    /// Whether a line is on the terminal now.
    var shown = false
  }

  private let state = Mutex(State())
  private let start = ContinuousClock.now

  /// The reader a command reads with: counting into ``progress`` when standard error is a
  /// terminal (and then the line drawn).
  func counting(_ reader: PayloadReader) -> PayloadReader {
    guard TerminalOptions.standardErrorIsTerminal else { return reader }
    var reader = reader
    reader.progress = progress
    begin()
    return reader
  }

  /// Erases the line, runs `body` (a write to standard error), and lets the line be drawn again.
  func clearing(_ body: () -> Void) {
    state.withLock { state in
      if state.shown {
        Self.write("\r\u{1B}[K")
        state.shown = false
      }
      body()
    }
  }

  /// Erases the line and draws it no more: the run is writing its output.
  func stop() {
    state.withLock { state in
      if state.shown { Self.write("\r\u{1B}[K") }
      state.shown = false
      state.stopped = true
    }
  }

  private func begin() {
    let first = state.withLock { state in
      defer { state.started = true }
      return !state.started
    }
    guard first else { return }
    atexit { ProgressLine.shared.stop() }
    DispatchQueue.global(qos: .utility).async { [self] in
      while true {
        usleep(250_000)
        guard ContinuousClock.now - start >= .seconds(1) else { continue }
        let text = Self.text(progress.count, columns: TerminalOptions.columns(of: STDERR_FILENO))
        let running = state.withLock { state in
          guard !state.stopped else { return false }
          Self.write("\r\u{1B}[K" + text)
          state.shown = true
          return true
        }
        if !running { return }
      }
    }
  }

  /// The line for `count`, at most `columns - 1` characters (a line as wide as the terminal wraps).
  static func text(_ count: ReadingProgress.Count, columns: Int) -> String {
    let payloads = "\(grouped(count.payloads)) payloads"
    let line =
      count.filesRead < count.filesToRead
      ? "reading: \(grouped(count.filesRead)) of \(grouped(count.filesToRead)) files, \(payloads)"
      : count.filesToRead == 0 ? "reading…" : "computing: \(grouped(count.filesToRead)) files read, \(payloads)"
    return String(line.prefix(max(columns - 1, 10)))
  }

  /// `n` with its thousands apart: 121,590.
  static func grouped(_ n: Int) -> String {
    var digits = Array(String(n))
    var i = digits.count - 3
    while i > 0 {
      digits.insert(",", at: i)
      i -= 3
    }
    return String(digits)
  }

  private static func write(_ text: String) { ReportOutput.writeStandardError(Array(text.utf8)) }
}
