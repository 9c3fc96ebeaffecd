import ArgumentParser
import MetricKitAnalysis

/// `--symbols` and `--app-binary`: how the frames of diagnostics are named, shared by every command
/// that shows or compares diagnostic signatures.
struct SymbolOptions: ParsableArguments {
  @Option(
    name: .customLong("symbols"),
    help: ArgumentHelp(
      "A .dSYM bundle, a DWARF file, a Mach-O binary, or a folder of them (repeatable): frames get their function, file and line.",
      valueName: "path"))
  var paths: [String] = []

  @Option(
    help: ArgumentHelp(
      "The app's own binary name (repeatable: the app and its frameworks): their frames are the app's (culprit frames; signatures without offsets).",
      valueName: "name"))
  var appBinary: [String] = []

  @Option(
    help: ArgumentHelp(
      "Seconds llvm-symbolizer may take over one batch of addresses before it is stopped (frames then stay unsymbolicated).",
      valueName: "seconds"))
  var symbolizerTimeout: Double = Symbolicator.defaultTimeout

  mutating func validate() throws {
    guard symbolizerTimeout > 0, symbolizerTimeout <= 86_400 else {
      throw ValidationError("--symbolizer-timeout takes a number of seconds from 0 to 86400.")
    }
  }

  /// The diagnostic options these arguments describe, with a symbolicator when symbols are given.
  func diagnosticOptions(foldedStacks: Bool = false, maximumFoldedDepth: Int = FoldedStacks.defaultMaximumDepth)
    -> DiagnosticOptions
  {
    DiagnosticOptions(
      appBinaries: Set(appBinary), foldedStacks: foldedStacks, maximumFoldedDepth: maximumFoldedDepth,
      symbolicator: paths.isEmpty ? nil : Symbolicator(index: SymbolIndex(paths: paths), timeout: symbolizerTimeout))
  }

  /// Prints what symbolication did and could not do (standard error), after the output.
  static func printNotes(_ options: DiagnosticOptions) {
    guard let report = options.symbolicator?.report else { return }
    for line in report.notes { ReportOutput.printError("metrics-report: \(line)") }
  }
}
