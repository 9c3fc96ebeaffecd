import Testing

@testable import MetricKitAnalysis

/// Mach-O headers written byte by byte here, read back; and every way of cutting or forging them.
@Suite("Mach-O reader")
struct MachOReaderTests {
  static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
  static func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
  static func be32(_ v: UInt32) -> [UInt8] { le32(v).reversed() }
  static let uuid: [UInt8] = [
    0x70, 0xB8, 0x9F, 0x27, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC,
  ]

  /// A thin 64-bit image: LC_SEGMENT_64 `__PAGEZERO`, `__TEXT` at `vmaddr`, then LC_UUID.
  static func thin(
    cpuType: UInt32 = 0x0100_000C, subtype: UInt32 = 0, fileType: UInt32 = 0xA, vmaddr: UInt64, uuid: [UInt8] = uuid
  )
    -> [UInt8]
  {
    func segment(_ name: String, _ address: UInt64) -> [UInt8] {
      var name = Array(name.utf8)
      name += [UInt8](repeating: 0, count: 16 - name.count)
      return le32(0x19) + le32(72) + name + le64(address) + [UInt8](repeating: 0, count: 72 - 32)
    }
    let commands = segment("__PAGEZERO", 0) + segment("__TEXT", vmaddr) + le32(0x1B) + le32(24) + uuid
    return le32(0xFEED_FACF) + le32(cpuType) + le32(subtype) + le32(fileType) + le32(3) + le32(UInt32(commands.count))
      + le32(0) + le32(0) + commands
  }

  @Test func aThinImageGivesItsUUIDArchitectureAndTextAddress() throws {
    let images = try MachOReader(path: "App", bytes: Self.thin(vmaddr: 0x1_0000_0000)).images()
    #expect(
      images == [
        MachOImage(
          path: "App", uuid: "70B89F27-1122-3344-5566-778899AABBCC", architecture: "arm64",
          textVMAddress: 0x1_0000_0000, isDebugInfo: true)
      ])
  }

  @Test func aUniversalFileGivesEachSlice() throws {
    let arm = Self.thin(vmaddr: 0)
    var other = Self.uuid
    other[0] = 0x01
    let x86 = Self.thin(cpuType: 0x0100_0007, subtype: 3, fileType: 6, vmaddr: 0x1000, uuid: other)
    // Slices at 4096 and 8192, as lipo aligns them.
    var file = Self.be32(0xCAFE_BABE) + Self.be32(2)
    file += Self.be32(0x0100_000C) + Self.be32(0) + Self.be32(4096) + Self.be32(UInt32(arm.count)) + Self.be32(12)
    file += Self.be32(0x0100_0007) + Self.be32(3) + Self.be32(8192) + Self.be32(UInt32(x86.count)) + Self.be32(12)
    file += [UInt8](repeating: 0, count: 4096 - file.count) + arm
    file += [UInt8](repeating: 0, count: 8192 - file.count) + x86
    let images = try MachOReader(path: "Kit", bytes: file).images()
    #expect(images.map(\.architecture) == ["arm64", "x86_64"])
    #expect(images.map(\.uuid) == ["70B89F27-1122-3344-5566-778899AABBCC", "01B89F27-1122-3344-5566-778899AABBCC"])
    #expect(images.map(\.textVMAddress) == [0, 0x1000])
    #expect(images.map(\.isDebugInfo) == [true, false])
  }

  @Test func everyTruncationIsAnErrorNamingTheFile() {
    let file = Self.thin(vmaddr: 0x1_0000_0000)
    for length in 0..<file.count {
      #expect(throws: MachOError.self) { try MachOReader(path: "cut", bytes: Array(file.prefix(length))).images() }
    }
  }

  @Test func forgedCountsAndSizesAreRefusedAtTheirByte() {
    func error(_ bytes: [UInt8]) -> MachOError? {
      do {
        _ = try MachOReader(path: "forged", bytes: bytes).images()
        return nil
      } catch { return error }
    }
    var file = Self.thin(vmaddr: 0)
    file.replaceSubrange(16..<20, with: Self.le32(0xFFFF_FFFF))  // ncmds
    #expect(error(file)?.offset == 16)
    file = Self.thin(vmaddr: 0)
    file.replaceSubrange(36..<40, with: Self.le32(0))  // the first command's size
    #expect(
      error(file)?.description == "forged: at byte 36: load command 0 is 0 bytes, outside the commands' 168 bytes")
    file = Self.thin(vmaddr: 0)
    file.replaceSubrange((file.count - 24)..<(file.count - 20), with: Self.le32(0x2))  // no LC_UUID left
    #expect(error(file)?.reason == "no LC_UUID: the image cannot be matched to frames")
    // A slice past the end, a slice inside the table, a universal file inside another, no slices.
    let slice = Self.thin(vmaddr: 0)
    let head = Self.be32(0xCAFE_BABE) + Self.be32(1) + Self.be32(0x0100_000C) + Self.be32(0)
    #expect(error(head + Self.be32(28) + Self.be32(UInt32(slice.count) + 1) + Self.be32(0) + slice)?.offset == 8)
    #expect(error(head + Self.be32(0) + Self.be32(28) + Self.be32(0) + slice)?.offset == 8)
    let nested = Self.be32(0xCAFE_BABE) + Self.be32(1) + [UInt8](repeating: 0, count: 20)
    #expect(
      error(head + Self.be32(28) + Self.be32(UInt32(nested.count)) + Self.be32(0) + nested)?.reason
        == "a universal file inside another")
    #expect(error(Self.be32(0xCAFE_BABE) + Self.be32(0))?.offset == 4)
    #expect(error(Array("#!/bin/sh\n".utf8))?.reason == "not a Mach-O file (magic 0x23212f62)")
  }

  @Test func architectureNamesAreLLVMs() {
    #expect(MachOReader.architectureName(cpuType: 0x0100_000C, subtype: 0x8000_0002) == "arm64e")
    #expect(MachOReader.architectureName(cpuType: 12, subtype: 11) == "armv7s")
    #expect(MachOReader.architectureName(cpuType: 0x0200_000C, subtype: 1) == "arm64_32")
  }
}

/// The address arithmetic of frames, and the Swift names people read.
@Suite("Frame addresses and names")
struct FrameAddressTests {
  static func frame(offset: UInt64, address: UInt64?) -> CallStackTree.Frame {
    CallStackTree.Frame(
      binaryUUID: "U", binaryName: "MyApp", offsetIntoBinaryTextSegment: offset, address: address, sampleCount: 1,
      subFrames: [], depth: 0)
  }

  @Test func anOffsetFieldHoldingTheLoadAddressIsUndone() {
    // From a public iOS 14.0.1 report: libswiftCore.dylib's load address in the offset field.
    let quirk = Self.frame(offset: 6_859_616_256, address: 6_859_816_880)
    #expect(quirk.offsetIsLoadAddress && quirk.imageOffset == 200_624)
    #expect(quirk.label == "MyApp+0x30fb0")
    // A real offset, far below its address (iOS 17), and one of Xcode's simulated payloads.
    #expect(!Self.frame(offset: 45_260, address: 8_034_627_788).offsetIsLoadAddress)
    #expect(!Self.frame(offset: 123, address: 74_565).offsetIsLoadAddress)
    #expect(!Self.frame(offset: 0x1_0000_0000, address: nil).offsetIsLoadAddress)
    // More than 512 MiB below the address: not this image's load address.
    #expect(!Self.frame(offset: 0x1_0000_0000, address: 0x1_0000_0000 + (512 << 20)).offsetIsLoadAddress)
  }

  @Test func theAppsImagesLieBelowTheSharedRegion() {
    #expect(Self.frame(offset: 0x8a10, address: 0x1_0238_8a10).isAppImage(appBinaries: []))
    #expect(!Self.frame(offset: 0x1c40, address: 0x1_9A00_1c40).isAppImage(appBinaries: []))
    #expect(Self.frame(offset: 0x1c40, address: 0x1_9A00_1c40).isAppImage(appBinaries: ["MyApp"]))
    #expect(!Self.frame(offset: 0x1c40, address: nil).isAppImage(appBinaries: []))
  }

  @Test func swiftNamesAreDemangledAndShortened() {
    #expect(
      SwiftDemangler.demangled("$s4Feed0A14ViewControllerV6reloadSiyF")
        == "Feed.FeedViewController.reload() -> Swift.Int")
    #expect(SwiftDemangler.demangled("_$e4Feed05startA0yS2iF") == "Feed.startFeed(Swift.Int) -> Swift.Int")
    #expect(SwiftDemangler.demangled("reload_feed") == nil)
    #expect(SwiftDemangler.shortName("Feed.FeedViewController.reload() -> Swift.Int") == "FeedViewController.reload()")
    #expect(SwiftDemangler.shortName("Feed.startFeed(Swift.Int) -> Swift.Int") == "startFeed(Int)")
    #expect(
      SwiftDemangler.shortName("closure #1 (Swift.Int) -> () in MyApp.Feed.load(completion: (Swift.Int) -> ()) -> ()")
        == "closure #1 (Int) -> () in Feed.load(completion: (Int) -> ())")
    #expect(SwiftDemangler.shortName("(extension in MyApp):UIKit.UIView.pin() -> ()") == "UIView.pin()")
    #expect(
      SwiftDemangler.shortName("std::vector<int>::push_back(int const&)") == "std::vector<int>::push_back(int const&)")
    #expect(
      FrameSymbol(function: "$s4Feed0A14ViewControllerV6reloadSiyF").shortFunction == "FeedViewController.reload()")
  }
}
