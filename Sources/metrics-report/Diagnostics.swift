import ArgumentParser
import Foundation
import MetricKitAnalysis

extension DiagnosticsRenderer.Format: ExpressibleByArgument {}

/// `metrics-report diagnostics PATH…`: crashes, hangs, CPU and disk-write exceptions, launch
/// diagnostics per version; collapsed stacks for flame graphs.
struct Diagnostics: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Summarize diagnostic payloads per version: counts, crash and hang groups by signature, durations.")

  @OptionGroup var input: InputOptions

  @Option(help: "The app's own binary name: marks its frames and picks the culprit frame of each group.")
  var appBinary: String?

  @Option(help: "Output format: text, json, markdown, or folded (collapsed stacks for flamegraph.pl).")
  var format: DiagnosticsRenderer.Format = .text

  @Option(name: [.customShort("o"), .long], help: "Write the report to this file instead of standard output.")
  var output: String?

  mutating func validate() throws {
    if input.paths.isEmpty && !input.stdin {
      throw ValidationError("Name at least one payload file or directory, or pass --stdin.")
    }
  }

  func run() throws {
    var options = AggregationOptions()
    options.diagnostics = DiagnosticOptions(appBinary: appBinary, foldedStacks: format == .folded)
    let aggregate = DumpAggregate(
      paths: input.paths, reader: try input.reader(), filter: try input.filter(), options: options,
      threads: input.threads, standardInput: input.stdin)
    try ReportOutput.write(DiagnosticsRenderer.render(aggregate, as: format), to: output)
    try ReportOutput.listRejections(aggregate.inputs, strict: input.strict)
    let missing = input.appVersions.filter { aggregate.diagnostics[$0] == nil }
    if !missing.isEmpty || aggregate.diagnostics.isEmpty {
      ReportOutput.printError(
        "metrics-report: no diagnostics\(missing.isEmpty ? "" : " for version " + missing.joined(separator: ", "))")
      throw ExitStatus.cannotEvaluate
    }
  }
}
