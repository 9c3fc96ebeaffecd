import ArgumentParser
import Foundation
import MetricKitAnalysis

/// `--organizer` and `--organizer-device`: Apple's saved App Store Connect responses, shared by the
/// commands that put Apple's numbers beside the dump's.
struct OrganizerOptions: ParsableArguments {
  @Option(
    name: .customLong("organizer"),
    help: ArgumentHelp(
      "A saved App Store Connect power and performance response, or a folder of them (repeatable): Apple's Organizer numbers beside ours.",
      valueName: "file"))
  var paths: [String] = []

  @Option(
    name: .customLong("organizer-device"),
    help: "Apple's device class to compare with: all_iphones, all_ipads, or a class Apple's responses name.")
  var device = "all_iphones"

  /// The responses read: each file given, and each `.json` file of each folder given, in name order.
  /// A file that does not read is an error naming the file and the key (exit 2).
  func load() throws -> [OrganizerFile] {
    var files: [OrganizerFile] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      let names: [String]
      if exists && isDirectory.boolValue {
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        names = listed.filter { $0.hasSuffix(".json") }.sorted().map { (path as NSString).appendingPathComponent($0) }
      } else {
        names = [path]
      }
      for name in names {
        do {
          files.append(try OrganizerReader.read(path: name))
        } catch {
          throw CommandFailure.cannotEvaluate("\(error)")
        }
      }
    }
    return files
  }

  /// Apple's numbers (`files`, from ``load()``, before the dump is read: a bad response stops the
  /// command before the work) beside the aggregate's, when responses were given.
  func comparison(
    _ aggregate: DumpAggregate, files: [OrganizerFile], histogram: HistogramOptions,
    selection: MetricSelection = MetricSelection()
  ) -> OrganizerComparison? {
    guard !paths.isEmpty else { return nil }
    return OrganizerComparison(
      aggregate: aggregate, files: files, device: device, selection: selection, estimator: histogram.estimator,
      interpolation: histogram.interpolation)
  }

  /// Refuses a format that has no place for Apple's numbers.
  func validate(format: OutputFormat) throws {
    if !paths.isEmpty && format == .csv {
      throw ValidationError("--organizer adds a section to text, markdown and json output, not to csv.")
    }
  }
}
