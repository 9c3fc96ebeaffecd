/// Why a cache cannot be used, or one of its files read: the folder, the file, what was found.
public enum CacheError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The folder does not exist and cannot be made.
  case cannotCreate(folder: String, reason: String)
  /// The path is a file, not a folder.
  case notAFolder(String)
  /// A cache of another format (`found`, as its FORMAT file says) than the one this build reads.
  case otherFormat(folder: String, found: String)
  /// A folder that holds other files and no FORMAT file: not a cache, and not taken for one.
  case notACache(String)
  /// The FORMAT file cannot be written.
  case cannotWrite(folder: String, file: String, reason: String)
  /// Where the cache keeps its files (`part`: entries, results), something else: a link, a file.
  case notItsOwn(folder: String, part: String)
  /// A file of the cache that does not read: torn, damaged, of another kind.
  case unreadable(String)

  public var description: String {
    switch self {
    case .cannotCreate(let folder, let reason): "\(folder): cannot create the folder: \(reason)"
    case .notAFolder(let folder): "\(folder): not a folder"
    case .otherFormat(let folder, let found):
      "\(folder): a metrics-report cache of \(found); this build reads format \(AggregateCache.formatVersion) "
        + "only: remove the folder or name another one."
    case .notACache(let folder):
      "\(folder): not a metrics-report cache (no FORMAT file) and not empty; name a new or empty folder"
    case .cannotWrite(let folder, let file, let reason): "\(folder): cannot write \(file): \(reason)"
    case .notItsOwn(let folder, let part):
      "\(folder): \(part) is not a folder (a link?): the cache keeps only its own files there; remove it or "
        + "name another cache"
    case .unreadable(let reason): reason
    }
  }
}
