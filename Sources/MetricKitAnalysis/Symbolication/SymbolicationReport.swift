/// What a run's symbolication did: the frames it resolved, the binaries it had no symbols for, the
/// symbol files no frame used, and anything that went wrong. Shown under `diagnostics`, `compare`
/// and `report`, and in their JSON.
public struct SymbolicationReport: Sendable, Hashable {
  /// A symbol file and the frames it resolved.
  public struct SymbolFile: Sendable, Hashable {
    /// The image.
    public var image: MachOImage
    /// Frames looked up in it.
    public var frames = 0
  }

  /// A binary seen in frames without symbols.
  public struct MissingBinary: Sendable, Hashable {
    /// The binary's UUID.
    public var uuid: String
    /// Its name, when a frame gave it.
    public var name: String?
    /// Its frames.
    public var frames = 0
    /// Whether its frames ran in the app's own images (below the shared region): a dSYM the team
    /// should have. Others are Apple's libraries.
    public var isAppImage = false
  }

  /// Frames given a function.
  public var symbolicatedFrames = 0
  /// Frames of binaries with symbols whose address resolved to nothing.
  public var unresolvedFrames = 0
  /// Frames without a `binaryUUID`.
  public var framesWithoutUUID = 0
  /// The symbol files by UUID.
  public var available: [String: SymbolFile] = [:]
  /// Binaries without symbols, by UUID.
  public var missing: [String: MissingBinary] = [:]
  /// Symbol files that could not be read.
  public var problems: [String] = []
  /// Why no `llvm-symbolizer` ran, when none was found.
  public var symbolizerMissing: String?
  /// Why the symbolizer stopped, when it failed.
  public var symbolizerFailure: String?

  /// Symbol files no frame was looked up in (a universal file counts as used when one of its
  /// architectures was): one image each.
  public var unused: [MachOImage] {
    var used = Set<String>()
    for file in available.values where file.frames > 0 { used.insert(file.image.path) }
    var byPath: [String: MachOImage] = [:]
    for file in available.values where !used.contains(file.image.path) {
      if let known = byPath[file.image.path], known.architecture < file.image.architecture { continue }
      byPath[file.image.path] = file.image
    }
    return byPath.values.sorted { $0.path < $1.path }
  }

  /// Binaries of the app's own images without symbols, most frames first.
  public var missingAppBinaries: [MissingBinary] {
    missing.values.filter(\.isAppImage).sorted { a, b in a.frames != b.frames ? a.frames > b.frames : a.uuid < b.uuid }
  }

  /// Frames of Apple's libraries, which have no dSYM to give.
  public var systemFrames: Int {
    var n = 0
    for m in missing.values where !m.isAppImage { n += m.frames }
    return n
  }

  /// Counts a frame of a binary without symbols.
  mutating func countMissing(_ frame: CallStackTree.Frame, uuid: String) {
    var entry = missing[uuid] ?? MissingBinary(uuid: uuid, name: frame.binaryName)
    entry.frames += 1
    if entry.name == nil { entry.name = frame.binaryName }
    if frame.isAppImage(appBinaries: []) { entry.isAppImage = true }
    missing[uuid] = entry
  }

  /// The lines a command prints under its output (none when nothing was asked and nothing is amiss).
  public var notes: [String] {
    var lines: [String] = []
    if let symbolizerMissing { lines.append(symbolizerMissing) }
    if let symbolizerFailure { lines.append("symbolication stopped: \(symbolizerFailure)") }
    for p in problems { lines.append("symbols not read: \(p)") }
    if available.isEmpty && problems.isEmpty { return lines }
    var summary = "symbolicated \(symbolicatedFrames) frames"
    if unresolvedFrames > 0 {
      summary += "; \(unresolvedFrames) frames of binaries with symbols resolved to no function"
    }
    lines.append(summary)
    for m in missingAppBinaries {
      lines.append("\(m.name ?? "(unnamed binary)") \(m.uuid): no symbols, \(m.frames) frames")
    }
    for image in unused {
      lines.append("unused symbols: \(image.path) (\(image.uuid), \(image.architecture)): no frame has this UUID")
    }
    return lines
  }
}
