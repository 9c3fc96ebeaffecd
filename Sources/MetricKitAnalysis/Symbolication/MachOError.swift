/// Why a file could not be read as Mach-O: the file, the byte where it went wrong, and what was there.
public struct MachOError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file.
  public var path: String
  /// The byte offset in the file, when the fault is at one place.
  public var offset: UInt64?
  /// What is wrong.
  public var reason: String

  /// Creates an error.
  public init(path: String, offset: UInt64?, reason: String) {
    self.path = path
    self.offset = offset
    self.reason = reason
  }

  /// `PATH: at byte N: reason`.
  public var description: String { "\(path): " + (offset.map { "at byte \($0): " } ?? "") + reason }
}
