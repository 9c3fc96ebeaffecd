import ArgumentParser
import Foundation
import MetricKitAnalysis

/// Usage errors that name what was probably meant: an option spelled wrong, a metric that is not
/// one.
enum UsageMistake {
  /// The usage error of `--metric` patterns that name no metric, each with the closest that do.
  static func unknownMetrics(_ unknown: [UnknownMetricError]) -> ValidationError {
    let each = unknown.map { quoted($0.text, closest: $0.closest) }
    return ValidationError(
      "Unknown metric \(each.joined(separator: ", ")). A metric is an identifier such as "
        + "applicationLaunchMetrics.histogrammedTimeToFirstDraw or signpost:<category>/<name>; "
        + "a trailing * matches a prefix; 'metrics-report summary PATHS' lists a dump's.")
  }

  /// `'text'`, followed by the names meant when there are some: `'hangRat' (did you mean 'hangRate'?)`.
  static func quoted(_ text: String, closest: [String]) -> String {
    closest.isEmpty ? "'\(text)'" : "'\(text)' (did you mean \(closest.map { "'\($0)'" }.joined(separator: " or "))?)"
  }

  /// The usage error of the first argument of `arguments` (the command line after the tool's name)
  /// that looks like a long option the command it names does not take, as the lines to print (with
  /// the closest option it does take and that command's usage); nil when every option is known.
  ///
  /// ArgumentParser checks for unknown options only after each command's `validate()`, so that a
  /// mistyped `--candidat` otherwise surfaces as "Give --candidate": this runs when parsing failed,
  /// before that error is shown.
  static func unknownOption(in arguments: [String], root: any ParsableCommand.Type) -> [String]? {
    // The command the arguments name: each leading word that is a subcommand's name.
    var command = root
    var path = [root.configuration.commandName ?? ""]
    var index = 0
    while index < arguments.count,
      let next = command.configuration.subcommands.first(where: {
        $0.configuration.commandName == arguments[index]
      })
    {
      command = next
      path.append(arguments[index])
      index += 1
    }
    // Its long options, and whether each takes a value, from the parser's own description of it.
    guard let data = command._dumpHelp().data(using: .utf8),
      let tool = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let description = tool["command"] as? [String: Any]
    else { return nil }
    var known: [String: Bool] = ["help": false, "version": false, "experimental-dump-help": false]
    for argument in description["arguments"] as? [[String: Any]] ?? [] {
      let takesValue = argument["kind"] as? String == "option"
      for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
        if let text = name["name"] as? String { known[text] = takesValue }
      }
    }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" { break }
      guard argument.hasPrefix("--"), argument.count > 2 else { continue }
      let name = String(argument.dropFirst(2).prefix { $0 != "=" })
      guard let takesValue = known[name] else {
        let closest = Suggestion.closest(to: name, among: known.keys.sorted(), limit: 1)
        let hint = closest.first.map { " Did you mean '--\($0)'?" } ?? ""
        let named = path.joined(separator: " ")
        let usage = root.helpMessage(for: command, columns: 10_000).split(separator: "\n")
          .first { $0.hasPrefix("USAGE: ") }?.dropFirst(7)
        return [
          "Error: Unknown option '--\(name)'.\(hint)", "Usage: \(usage ?? Substring(named))",
          "  See '\(named) --help' for more information.",
        ]
      }
      if takesValue && !argument.contains("=") { index += 1 }
    }
    return nil
  }
}
