/// One architecture's image in a Mach-O file (an executable, a framework, or a dSYM's DWARF file):
/// what is needed to look an address of its binary up.
public struct MachOImage: Sendable, Hashable {
  /// The file.
  public var path: String
  /// The `LC_UUID`, uppercase with dashes as MetricKit writes `binaryUUID`.
  public var uuid: String
  /// The architecture's name (`arm64`, `arm64e`, `x86_64`…), as `llvm-symbolizer` takes it.
  public var architecture: String
  /// The `__TEXT` segment's address: frames' offsets count from it.
  public var textVMAddress: UInt64
  /// Whether the image holds DWARF only (`MH_DSYM`, a dSYM's file), rather than code.
  public var isDebugInfo: Bool

  /// Creates an image.
  public init(path: String, uuid: String, architecture: String, textVMAddress: UInt64, isDebugInfo: Bool) {
    self.path = path
    self.uuid = uuid
    self.architecture = architecture
    self.textVMAddress = textVMAddress
    self.isDebugInfo = isDebugInfo
  }
}
