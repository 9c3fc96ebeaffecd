import Foundation

/// The images of `.dSYM` bundles, bare DWARF files and Mach-O binaries, found by UUID: the symbols a
/// run can look frames up in.
///
/// Folders are walked, and each file that starts as Mach-O is read. A file named outright that is not
/// Mach-O, a file of a dSYM's `Contents/Resources/DWARF` that is not, and a dSYM without such files are
/// ``problems`` entries; so is a corrupt header. None of them stops the others.
/// When two files hold one UUID, a dSYM's DWARF is preferred to a binary (it has lines), then the
/// first path in byte order.
public struct SymbolIndex: Sendable {
  /// The images by UUID.
  public private(set) var images: [String: MachOImage] = [:]
  /// Files that could not be used, with the reason.
  public private(set) var problems: [MachOError] = []

  /// An empty index.
  public init() {}

  /// The index of the files and folders at `paths`, walked as payload folders are (sorted, links
  /// followed once, hidden entries passed over), every file looked at.
  public init(paths: [String]) {
    let discovery = InputDiscovery(fileSuffixes: nil).discover(paths)
    for (path, failure) in discovery.failures {
      problems.append(MachOError(path: path.description, offset: nil, reason: failure.reason))
    }
    var bundles = Set(paths.compactMap(Self.bundle(of:)))
    var bundlesWithDWARF = Set<String>()
    for file in discovery.files {
      let path = file.description
      let bundle = Self.bundle(of: path)
      if let bundle { bundles.insert(bundle) }
      // A dSYM's DWARF file must be Mach-O, as must a file named outright; others in folders may be
      // anything (Info.plist, relocation maps, sources).
      let isDWARF = bundle.map { path.hasPrefix($0 + "/" + Self.dwarfFolder + "/") } ?? false
      if isDWARF, let bundle { bundlesWithDWARF.insert(bundle) }
      add(file: path, required: isDWARF || paths.contains(path))
    }
    for bundle in bundles.subtracting(bundlesWithDWARF).sorted() {
      problems.append(
        MachOError(path: bundle, offset: nil, reason: "a dSYM bundle without \(Self.dwarfFolder) files"))
    }
  }

  /// Where a dSYM bundle keeps its DWARF files.
  static let dwarfFolder = "Contents/Resources/DWARF"

  /// The `.dSYM` bundle `path` is or lies in.
  private static func bundle(of path: String) -> String? {
    let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
    if trimmed.hasSuffix(".dSYM") { return trimmed }
    return trimmed.range(of: ".dSYM/", options: .backwards).map { String(trimmed[..<$0.lowerBound]) + ".dSYM" }
  }

  /// The image with `uuid` (any case).
  public func image(uuid: String) -> MachOImage? { images[uuid.uppercased()] }

  /// Whether nothing was found.
  public var isEmpty: Bool { images.isEmpty }

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
