import Foundation

/// The images of `.dSYM` bundles, bare DWARF files and Mach-O binaries, found by UUID: the symbols a
/// run can look frames up in.
///
/// Folders are walked (a `.dSYM` bundle's `Contents/Resources/DWARF` files are read; other files
/// count when they start as Mach-O). A file named outright that is not Mach-O, and any file inside a
/// dSYM that is not, is a ``problems`` entry; so is a corrupt header. None of them stops the others.
/// When two files hold one UUID, a dSYM's DWARF is preferred to a binary (it has lines), then the
/// first path in byte order.
public struct SymbolIndex: Sendable {
  /// The images by UUID.
  public private(set) var images: [String: MachOImage] = [:]
  /// Files that could not be used, with the reason.
  public private(set) var problems: [MachOError] = []

  /// An empty index.
  public init() {}

  /// The index of the files and folders at `paths`.
  public init(paths: [String]) {
    for path in paths { add(path: path, named: true, depth: 0) }
  }

  /// The image with `uuid` (any case).
  public func image(uuid: String) -> MachOImage? { images[uuid.uppercased()] }

  /// Whether nothing was found.
  public var isEmpty: Bool { images.isEmpty }

  private mutating func add(path: String, named: Bool, depth: Int) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      problems.append(MachOError(path: path, offset: nil, reason: "no such file or folder"))
      return
    }
    if !isDirectory.boolValue {
      add(file: path, required: named)
      return
    }
    // Deeper than any real tree of symbols: a folder linking to its parent.
    guard depth < 32 else {
      problems.append(MachOError(path: path, offset: nil, reason: "folders nested over 32 deep (a link loop?)"))
      return
    }
    if path.hasSuffix(".dSYM") || path.hasSuffix(".dSYM/") {
      addBundle(path)
      return
    }
    let entries: [String]
    do {
      entries = try FileManager.default.contentsOfDirectory(atPath: path).sorted {
        $0.utf8.lexicographicallyPrecedes($1.utf8)
      }
    } catch {
      problems.append(
        MachOError(path: path, offset: nil, reason: "cannot list the folder (\(error.localizedDescription))"))
      return
    }
    for entry in entries where !entry.hasPrefix(".") {
      add(path: (path as NSString).appendingPathComponent(entry), named: false, depth: depth + 1)
    }
  }

  /// A `.dSYM` bundle: each file in `Contents/Resources/DWARF` must be Mach-O.
  private mutating func addBundle(_ bundle: String) {
    let dwarf = (bundle as NSString).appendingPathComponent("Contents/Resources/DWARF")
    guard let files = try? FileManager.default.contentsOfDirectory(atPath: dwarf), !files.isEmpty else {
      problems.append(
        MachOError(path: bundle, offset: nil, reason: "a dSYM bundle without Contents/Resources/DWARF files"))
      return
    }
    for file in files.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) where !file.hasPrefix(".") {
      add(file: (dwarf as NSString).appendingPathComponent(file), required: true)
    }
  }

  /// One file: read when it is Mach-O; a problem when it is not and `required`.
  private mutating func add(file path: String, required: Bool) {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      problems.append(MachOError(path: path, offset: nil, reason: "cannot be opened"))
      return
    }
    defer { try? handle.close() }
    let size = (try? handle.seekToEnd()) ?? 0
    let reader = MachOReader(path: path, size: size) { (offset, count) throws(MachOError) in
      do {
        try handle.seek(toOffset: offset)
        return [UInt8](try handle.read(upToCount: count) ?? Data())
      } catch {
        throw MachOError(path: path, offset: offset, reason: "cannot be read (\(error.localizedDescription))")
      }
    }
    do throws(MachOError) {
      let magic = try reader.read(at: 0, count: 4)
      guard MachOReader.isMachO(magic: magic) else {
        if required {
          problems.append(MachOError(path: path, offset: 0, reason: "not a Mach-O file, nor a dSYM"))
        }
        return
      }
      for image in try reader.images() { add(image) }
    } catch {
      problems.append(error)
    }
  }

  /// Adds an image, preferring DWARF to a binary, then the first path.
  public mutating func add(_ image: MachOImage) {
    if let known = images[image.uuid], known.isDebugInfo || !image.isDebugInfo { return }
    images[image.uuid] = image
  }
}
