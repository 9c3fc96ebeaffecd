import Foundation

/// What each receiver was told, kept between nightly runs (beside the cache) so that a change is
/// sent once and resolved once: per receiver, the records of the changes it holds as firing.
public struct AlertState: Sendable, Hashable, Codable {
  /// The file's format.
  public var format = 1
  /// Per receiver name, the firing changes it was sent, by key.
  public var firing: [String: [String: AlertRecord]] = [:]

  /// An empty state.
  public init() {}

  /// The state in `path`; empty when the file does not exist.
  /// - Throws: ``AlertError/state(path:reason:)`` naming the key that is wrong.
  public static func load(_ path: String) throws(AlertError) -> AlertState {
    guard FileManager.default.fileExists(atPath: path) else { return AlertState() }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .state(path: path, reason: "cannot be read")
    }
    return try decode(data, path: path)
  }

  /// The state in `data`, read from `path`.
  /// - Throws: ``AlertError/state(path:reason:)`` naming the key that is wrong.
  public static func decode(_ data: Data, path: String) throws(AlertError) -> AlertState {
    do {
      let state = try JSONDecoder().decode(AlertState.self, from: data)
      guard state.format == 1 else { throw AlertError.state(path: path, reason: "format \(state.format) is not 1") }
      return state
    } catch let error as AlertError {
      throw error
    } catch let DecodingError.keyNotFound(key, context) {
      throw .state(path: path, reason: "\(Self.path(context.codingPath + [key])): missing")
    } catch let DecodingError.typeMismatch(_, context) {
      throw .state(path: path, reason: "\(Self.path(context.codingPath)): \(context.debugDescription)")
    } catch let DecodingError.valueNotFound(_, context) {
      throw .state(path: path, reason: "\(Self.path(context.codingPath)): null")
    } catch let DecodingError.dataCorrupted(context) {
      throw .state(path: path, reason: "\(Self.path(context.codingPath)): \(context.debugDescription)")
    } catch {
      throw .state(path: path, reason: "\(error)")
    }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.isEmpty ? "the document" : keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
  }

  /// The state as the file holds it: JSON, keys sorted.
  public func encoded() throws(AlertError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    do { return try encoder.encode(self) } catch { throw .state(path: "-", reason: "cannot be encoded: \(error)") }
  }

  /// Writes the state to `path` atomically (a temporary file renamed over it).
  public func save(_ path: String) throws(AlertError) {
    let data = try encoded()
    do {
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw .state(path: path, reason: "cannot be written: \(error.localizedDescription)")
    }
  }
}
