import ArgumentParser
import Foundation
import MetricKitAnalysis

/// `metrics-report rules`: print the built-in rules as a starting file, or check a rule file.
struct Rules: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rules", abstract: "Print the built-in rules, or check a rule file.")

  @Flag(help: "Write the built-in rules as a YAML rule file.")
  var printDefaults = false

  @Option(help: "Check this rule file and list its rules.")
  var check: String?

  @Option(name: [.customShort("o"), .long], help: "Write to this file instead of standard output.")
  var output: String?

  mutating func validate() throws {
    if printDefaults == (check != nil) { throw ValidationError("Give one of --print-defaults and --check FILE.") }
    if let check, let output, InputDiscovery().discover([check]).includes(fileAt: InputPath(output)) {
      throw ValidationError("-o \(output) is the rule file checked; choose another output file.")
    }
  }

  func run() throws {
    if printDefaults {
      try ReportOutput.write(RuleFileParser.yaml(.builtIn), to: output)
      return
    }
    guard let check else { return }
    do {
      let set = try RuleFileParser.load(path: check)
      let lines = set.rules.map { rule in
        "\(rule.severity.rawValue)  \(rule.metric) \(rule.statistic)" + (rule.group.map { " where \($0)" } ?? "")
      }
      try ReportOutput.write(
        "\(check): \(set.rules.count) rules, alpha \(set.alpha)\n" + lines.joined(separator: "\n") + "\n", to: output)
    } catch let error as RuleFileError {
      throw CommandFailure.cannotEvaluate("\(error)")
    }
  }
}
