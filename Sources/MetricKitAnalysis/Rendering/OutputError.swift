/// Why a report could not be written: the destination, and what the system said.
package enum OutputError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The path names a folder.
  case isADirectory(String)
  /// A call on the destination failed: what was done (naming the path), and the system's reason.
  case system(String, reason: String)

  package var description: String {
    switch self {
    case .isADirectory(let path): "cannot write \(path): is a directory"
    case .system(let what, let reason): "\(what): \(reason)"
    }
  }
}
