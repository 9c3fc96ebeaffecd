/// Reads the images of a Mach-O file, thin or universal (fat, 32- or 64-bit offsets), 32- or 64-bit,
/// either byte order: each architecture's UUID and `__TEXT` address, from the headers and load
/// commands only. Every count, size and offset is checked against the file before it is used, so a
/// truncated or hostile file gives a ``MachOError`` naming the byte, never a read out of bounds.
public struct MachOReader {
  /// Reads `count` bytes at `offset`; fewer (or none) at the end of the file.
  public typealias ReadBytes = (_ offset: UInt64, _ count: Int) throws(MachOError) -> [UInt8]

  /// The file's name in errors.
  public let path: String
  /// The file's size.
  public let size: UInt64
  private let read: ReadBytes

  /// The most architectures a universal file may list (Apple's tools write a handful).
  public static let maximumArchitectures = 64
  /// The most load commands read (real binaries have under 100).
  public static let maximumLoadCommands = 10_000
  /// The most bytes of load commands read.
  public static let maximumLoadCommandBytes = 16 << 20

  /// A reader of the file `path` of `size` bytes, read through `read`.
  public init(path: String, size: UInt64, read: @escaping ReadBytes) {
    self.path = path
    self.size = size
    self.read = read
  }

  /// A reader of bytes in memory.
  public init(path: String, bytes: [UInt8]) {
    self.init(path: path, size: UInt64(bytes.count)) { offset, count in
      guard offset < UInt64(bytes.count) else { return [] }
      let start = Int(offset)
      return Array(bytes[start..<min(bytes.count, start + count)])
    }
  }

  /// Up to `count` bytes at `offset`.
  public func read(at offset: UInt64, count: Int) throws(MachOError) -> [UInt8] { try read(offset, count) }

  /// Whether `magic` (a file's first four bytes) starts a Mach-O or universal file.
  public static func isMachO(magic: [UInt8]) -> Bool {
    guard magic.count >= 4 else { return false }
    return Magic(magic) != nil
  }

  private enum Magic {
    case fat32, fat64
    case thin32(littleEndian: Bool)
    case thin64(littleEndian: Bool)

    init?(_ b: [UInt8]) {
      switch (b[0], b[1], b[2], b[3]) {
      case (0xCA, 0xFE, 0xBA, 0xBE): self = .fat32
      case (0xCA, 0xFE, 0xBA, 0xBF): self = .fat64
      case (0xCE, 0xFA, 0xED, 0xFE): self = .thin32(littleEndian: true)
      case (0xCF, 0xFA, 0xED, 0xFE): self = .thin64(littleEndian: true)
      case (0xFE, 0xED, 0xFA, 0xCE): self = .thin32(littleEndian: false)
      case (0xFE, 0xED, 0xFA, 0xCF): self = .thin64(littleEndian: false)
      default: return nil
      }
    }
  }

  /// The file's images, one per architecture.
  public func images() throws(MachOError) -> [MachOImage] {
    let head = try bytes(at: 0, count: 8, what: "the magic number")
    switch Magic(head) {
    case .fat32: return try universal(is64: false, head)
    case .fat64: return try universal(is64: true, head)
    case .thin32, .thin64:
      return [try image(at: 0, size: size)]
    case nil:
      throw fail(0, "not a Mach-O file (magic \(hex(head.prefix(4))))")
    }
  }

  private func universal(is64: Bool, _ head: [UInt8]) throws(MachOError) -> [MachOImage] {
    let count = Int(UInt32(bigEndian: head, at: 4))
    guard count >= 1, count <= Self.maximumArchitectures else {
      throw fail(4, "a universal file listing \(count) architectures (1 to \(Self.maximumArchitectures) expected)")
    }
    let entrySize = is64 ? 32 : 20
    let table = try bytes(at: 8, count: count * entrySize, what: "the architecture table")
    let tableEnd = UInt64(8 + count * entrySize)
    var images: [MachOImage] = []
    for i in 0..<count {
      let at = i * entrySize
      let offset = is64 ? UInt64(bigEndian: table, at: at + 8) : UInt64(UInt32(bigEndian: table, at: at + 8))
      let length = is64 ? UInt64(bigEndian: table, at: at + 16) : UInt64(UInt32(bigEndian: table, at: at + 12))
      let (end, overflow) = offset.addingReportingOverflow(length)
      guard offset >= tableEnd, !overflow, end <= size else {
        throw fail(
          UInt64(8 + at),
          "architecture \(i)'s slice (offset \(offset), \(length) bytes) lies outside the file's \(size) bytes")
      }
      let magic = try bytes(at: offset, count: 4, what: "architecture \(i)'s magic number")
      switch Magic(magic) {
      case .fat32?, .fat64?: throw fail(offset, "a universal file inside another")
      default: break
      }
      images.append(try image(at: offset, size: length))
    }
    return images
  }

  /// The thin image of `size` bytes at `base`.
  private func image(at base: UInt64, size: UInt64) throws(MachOError) -> MachOImage {
    let magic = try bytes(at: base, count: 4, what: "the Mach-O header")
    let (is64, little): (Bool, Bool)
    switch Magic(magic) {
    case .thin32(let le)?: (is64, little) = (false, le)
    case .thin64(let le)?: (is64, little) = (true, le)
    default: throw fail(base, "not a Mach-O image (magic \(hex(magic)))")
    }
    let headerSize = is64 ? 32 : 28
    guard UInt64(headerSize) <= size else { throw fail(base, "a Mach-O header cut short (\(size) bytes)") }
    let header = try bytes(at: base, count: headerSize, what: "the Mach-O header")
    func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
      little ? UInt32(littleEndian: b, at: at) : UInt32(bigEndian: b, at: at)
    }
    func u64(_ b: [UInt8], _ at: Int) -> UInt64 {
      little ? UInt64(littleEndian: b, at: at) : UInt64(bigEndian: b, at: at)
    }
    let cpuType = u32(header, 4)
    let cpuSubtype = u32(header, 8)
    let fileType = u32(header, 12)
    let commandCount = Int(u32(header, 16))
    let commandBytes = Int(u32(header, 20))
    guard commandCount <= Self.maximumLoadCommands, commandBytes <= Self.maximumLoadCommandBytes,
      commandCount * 8 <= commandBytes, UInt64(headerSize + commandBytes) <= size
    else {
      throw fail(
        base + 16,
        "\(commandCount) load commands in \(commandBytes) bytes do not fit the image's \(size) bytes")
    }
    let commands = try bytes(at: base + UInt64(headerSize), count: commandBytes, what: "the load commands")
    var uuid: String?
    var textAddress: UInt64?
    var at = 0
    for n in 0..<commandCount {
      guard at + 8 <= commands.count else {
        throw fail(base + UInt64(headerSize + at), "load command \(n) starts past the commands' \(commandBytes) bytes")
      }
      let command = u32(commands, at)
      let commandSize = Int(u32(commands, at + 4))
      guard commandSize >= 8, at + commandSize <= commands.count else {
        throw fail(
          base + UInt64(headerSize + at + 4),
          "load command \(n) is \(commandSize) bytes, outside the commands' \(commandBytes) bytes")
      }
      switch command {
      case 0x1B:  // LC_UUID
        guard commandSize >= 24 else {
          throw fail(base + UInt64(headerSize + at), "an LC_UUID of \(commandSize) bytes")
        }
        uuid = Self.uuidText(commands[(at + 8)..<(at + 24)])
      case 0x19 where is64, 0x01 where !is64:  // LC_SEGMENT_64, LC_SEGMENT
        guard commandSize >= (is64 ? 72 : 56) else {
          throw fail(base + UInt64(headerSize + at), "a segment command of \(commandSize) bytes")
        }
        let name = commands[(at + 8)..<(at + 24)].prefix { $0 != 0 }
        if textAddress == nil, name.elementsEqual("__TEXT".utf8) {
          textAddress = is64 ? u64(commands, at + 24) : UInt64(u32(commands, at + 24))
        }
      default:
        break
      }
      at += commandSize
    }
    guard let uuid else { throw fail(base, "no LC_UUID: the image cannot be matched to frames") }
    return MachOImage(
      path: path, uuid: uuid, architecture: Self.architectureName(cpuType: cpuType, subtype: cpuSubtype),
      textVMAddress: textAddress ?? 0, isDebugInfo: fileType == 0xA)
  }

  /// The name `llvm-symbolizer` and `lipo` use for a CPU type and subtype.
  static func architectureName(cpuType: UInt32, subtype: UInt32) -> String {
    let sub = subtype & 0x00FF_FFFF
    switch cpuType {
    case 0x0100_000C: return sub == 2 ? "arm64e" : "arm64"
    case 0x0200_000C: return "arm64_32"
    case 0x0100_0007: return sub == 8 ? "x86_64h" : "x86_64"
    case 7: return "i386"
    case 12:
      switch sub {
      case 9: return "armv7"
      case 11: return "armv7s"
      case 12: return "armv7k"
      default: return "arm"
      }
    default: return "cputype-\(cpuType)"
    }
  }

  /// `8-4-4-4-12` uppercase hex, as MetricKit writes UUIDs.
  static func uuidText(_ bytes: ArraySlice<UInt8>) -> String {
    let hex = bytes.map { b in String(b >> 4, radix: 16, uppercase: true) + String(b & 15, radix: 16, uppercase: true) }
    return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
  }

  private func bytes(at offset: UInt64, count: Int, what: String) throws(MachOError) -> [UInt8] {
    let got = try read(offset, count)
    guard got.count == count else {
      throw fail(offset, "the file ends within \(what) (\(count) bytes wanted, \(got.count) there)")
    }
    return got
  }

  private func fail(_ offset: UInt64, _ reason: String) -> MachOError {
    MachOError(path: path, offset: offset, reason: reason)
  }

  private func hex<C: Collection<UInt8>>(_ bytes: C) -> String {
    "0x" + bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
  }
}

extension FixedWidthInteger {
  fileprivate init(bigEndian bytes: [UInt8], at offset: Int) {
    var value: Self = 0
    for i in 0..<(Self.bitWidth / 8) { value = value << 8 | Self(bytes[offset + i]) }
    self = value
  }

  fileprivate init(littleEndian bytes: [UInt8], at offset: Int) {
    var value: Self = 0
    for i in (0..<(Self.bitWidth / 8)).reversed() { value = value << 8 | Self(bytes[offset + i]) }
    self = value
  }
}
