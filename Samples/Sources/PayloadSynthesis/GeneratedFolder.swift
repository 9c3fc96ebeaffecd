import Foundation

/// A generated folder written over an earlier one, and nothing else deleted: the new folder is
/// written beside the target, and takes its place only when every file the target holds is one the
/// generator wrote again (an earlier run's output, with the same names). A folder holding anything
/// else is refused and left as it was, so a generator pointed at the wrong folder deletes nothing.
public enum GeneratedFolder {
  /// The target holds what the generator did not write.
  public struct Refused: Error, CustomStringConvertible {
    public var description: String
  }

  /// Calls `write` with a new folder beside `target`, then puts that folder in `target`'s place.
  /// - Throws: ``Refused`` when `target` holds a file the new folder does not (or is not a folder);
  ///   what `write` throws (the new folder is then removed and `target` left as it was).
  public static func replace<T>(_ target: URL, writing write: (URL) throws -> T) throws -> T {
    let fm = FileManager.default
    let parent = target.deletingLastPathComponent()
    try fm.createDirectory(at: parent, withIntermediateDirectories: true)
    let unique = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let staging = parent.appendingPathComponent(".\(target.lastPathComponent).new-\(unique)")
    defer { try? fm.removeItem(at: staging) }
    let result = try write(staging)
    var isDirectory: ObjCBool = false
    let link = (try? fm.destinationOfSymbolicLink(atPath: target.path)) != nil
    guard link || fm.fileExists(atPath: target.path, isDirectory: &isDirectory) else {
      try fm.moveItem(at: staging, to: target)
      return result
    }
    guard !link, isDirectory.boolValue else {
      throw Refused(description: "\(target.path) is not a folder the generator wrote: left as it is")
    }
    let written = Set(files(under: staging))
    if let foreign = files(under: target).first(where: { !written.contains($0) }) {
      throw Refused(
        description: "\(target.path) holds \(foreign), which the generator does not write: left as it is "
          + "(remove the folder yourself, or name a new one)")
    }
    let old = parent.appendingPathComponent(".\(target.lastPathComponent).old-\(unique)")
    try fm.moveItem(at: target, to: old)
    try fm.moveItem(at: staging, to: target)
    try fm.removeItem(at: old)
    return result
  }

  /// The paths of everything under `folder` that is not a folder (links included, not followed),
  /// relative to it, sorted.
  static func files(under folder: URL) -> [String] {
    var out: [String] = []
    var pending = [""]
    while let relative = pending.popLast() {
      let path = relative.isEmpty ? folder.path : folder.path + "/" + relative
      for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
        let child = relative.isEmpty ? name : relative + "/" + name
        let attributes = try? FileManager.default.attributesOfItem(atPath: folder.path + "/" + child)
        if attributes?[.type] as? FileAttributeType == .typeDirectory {
          pending.append(child)
        } else {
          out.append(child)
        }
      }
    }
    return out.sorted()
  }
}
