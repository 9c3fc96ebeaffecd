import ArgumentParser
import Foundation
import MetricKitAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How text shown on a terminal is drawn. Text written to a pipe or a file is left as it is.
struct TerminalOptions: ParsableArguments {
  /// When text output is coloured.
  enum ColourChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
  }

  @Option(
    name: .customLong("color"),
    help: ArgumentHelp(
      "Colour the text output: auto (on a terminal, unless NO_COLOR is set or TERM is dumb), always, never.",
      valueName: "when"))
  var colour: ColourChoice = .auto

  /// The width text written to `output` (standard output without one) is laid out for: the
  /// terminal's, when standard output is one; nil for the layout a pipe gets.
  static func fittingColumns(output: String?) -> Int? {
    guard output == nil, standardOutputIsTerminal else { return nil }
    return columns(of: STDOUT_FILENO)
  }

  /// The width of the terminal `descriptor` is, in columns (80 when it does not say).
  static func columns(of descriptor: Int32) -> Int {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }

  /// Whether a text report written to `output` (standard output without one) is coloured.
  func colours(output: String?) -> Bool {
    switch colour {
    case .never: return false
    case .always: return true
    case .auto:
      let environment = ProcessInfo.processInfo.environment
      guard output == nil, Self.standardOutputIsTerminal else { return false }
      return (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
  }

  /// Whether standard output is a terminal.
  static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
  /// Whether standard error is a terminal.
  static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

  /// `text`, a text rendering, as it is shown where it goes: painted when ``colours(output:)``.
  func shown(_ text: String, output: String?) -> String {
    colours(output: output) ? TerminalColouring.painted(text) : text
  }
}
