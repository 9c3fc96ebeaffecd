import ArgumentParser
import Foundation
import MetricKitAnalysis

extension DiagnosticsRenderer.Format: ExpressibleByArgument {}

/// `metrics-report diagnostics PATH…`: crashes, hangs, CPU and disk-write exceptions, launch
/// diagnostics per version; collapsed stacks for flame graphs.
struct Diagnostics: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diagnostics",
    abstract: "Summarize diagnostic payloads per version: counts, crash and hang groups by signature, durations.",
    discussion: """
      Examples:
        metrics-report diagnostics dumps/ --format json -o diagnostics.json
        metrics-report diagnostics dumps/ --symbols MyApp.dSYM --app-binary MyApp
      """)

  @OptionGroup var input: InputOptions

  @OptionGroup var symbols: SymbolOptions

  @Option(help: "Output format: text, json, markdown, or folded (collapsed stacks for flamegraph.pl).")
  var format: DiagnosticsRenderer.Format = .text

  @Option(name: [.customShort("o"), .long], help: "Write the report to this file instead of standard output.")
  var output: String?

  @Option(
    help: "With --format folded, write at most this many call frames per stack; deeper ones fold into one marker frame."
  )
  var maxFoldedDepth: Int = FoldedStacks.defaultMaximumDepth

  mutating func validate() throws {
    try input.validate(output: output)
    if maxFoldedDepth < 1 { throw ValidationError("--max-folded-depth must be at least 1.") }
    if input.paths.isEmpty && !input.stdin {
      throw ValidationError("Name at least one payload file or directory, or pass --stdin.")
    }
  }

  func run() throws {
    var options = AggregationOptions()
    options.diagnostics = symbols.diagnosticOptions(foldedStacks: format == .folded, maximumFoldedDepth: maxFoldedDepth)
    let aggregate = try input.aggregate(options)
    if format == .folded {
      // Streamed: a deep tree's lines are written as they are made, never held together.
      try ReportOutput.write(to: output, inputs: aggregate.discovery) {
        (destination) throws(OutputError) in
        var failure: OutputError?
        DiagnosticsRenderer.writeFolded(aggregate) { line in
          guard failure == nil else { return }
          do throws(OutputError) { try destination.write(line) } catch { failure = error }
        }
        if let failure { throw failure }
      }
    } else {
      try ReportOutput.write(
        DiagnosticsRenderer.render(aggregate, as: format, symbolication: options.diagnostics.symbolicator?.report),
        to: output, inputs: aggregate.discovery)
    }
    SymbolOptions.printNotes(options.diagnostics)
    try ReportOutput.listRejections(aggregate.inputs, strict: input.strict)
    let missing = input.appVersions.filter { aggregate.diagnostics[$0] == nil }
    if !missing.isEmpty || aggregate.diagnostics.isEmpty {
      throw CommandFailure.cannotEvaluate(
        "no diagnostics\(missing.isEmpty ? "" : " for version " + missing.joined(separator: ", "))")
    }
  }
}
