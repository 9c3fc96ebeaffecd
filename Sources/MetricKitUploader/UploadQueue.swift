import Foundation

/// Payloads waiting to be sent, one file each in a folder of the app's: written whole (under a
/// temporary name, then renamed) before anything is sent, removed only once the collector said it
/// stored them. A payload survives the app's exit, a crash and a reboot until it is delivered.
public struct UploadQueue: Sendable {
  /// The folder the queue keeps its files in.
  public let folder: URL
  /// Where payloads that can never be delivered are kept, each with a `.reason.txt`, for a bug
  /// report: refused by the collector, too large for it, or not JSON at all; never sent again.
  public var refusedFolder: URL { folder.appendingPathComponent("refused") }

  /// A queue in `folder` (made when missing).
  public init(folder: URL) throws {
    self.folder = folder
    try FileManager.default.createDirectory(at: refusedFolder, withIntermediateDirectories: true)
  }

  /// Keeps `payload` (MetricKit's JSON of one payload or report) until it is delivered.
  @discardableResult
  public func enqueue(_ payload: Data) throws -> URL {
    let name = String(format: "%.6f", Date().timeIntervalSince1970) + "-" + UUID().uuidString + ".json"
    let file = folder.appendingPathComponent(name)
    try payload.write(to: file, options: .atomic)
    return file
  }

  /// Keeps a MetricKit 27 report (`MetricReport`, `DiagnosticReport`: `Codable`) until it is
  /// delivered, as `JSONEncoder` writes it.
  @discardableResult
  public func enqueue(report: some Encodable) throws -> URL {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try enqueue(try encoder.encode(report))
  }

  /// The waiting payloads' files, oldest first.
  public func pending() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasPrefix(".") }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  /// Removes a delivered payload.
  func remove(_ file: URL) { try? FileManager.default.removeItem(at: file) }

  /// Moves a refused payload aside, with the reason beside it (`<name>.reason.txt`).
  func refuse(_ file: URL, reason: String) {
    let target = refusedFolder.appendingPathComponent(file.lastPathComponent)
    try? FileManager.default.removeItem(at: target)
    try? FileManager.default.moveItem(at: file, to: target)
    try? Data((reason + "\n").utf8).write(
      to: refusedFolder.appendingPathComponent(file.lastPathComponent + ".reason.txt"), options: .atomic)
  }
}
