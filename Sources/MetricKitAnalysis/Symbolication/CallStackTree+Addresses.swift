extension CallStackTree.Frame {
  /// Where the dyld shared region starts on arm64 (and below x86_64's): Apple's libraries load at or
  /// above it, the app's executable and its own frameworks below.
  public static let sharedRegionStart: UInt64 = 0x1_8000_0000

  /// Whether `offsetIntoBinaryTextSegment` holds the image's load address rather than an offset, as
  /// in some reports of iOS 14 and 15 and macOS 12: it is an address (4 GiB or more, where 64-bit
  /// images load) no more than 512 MiB below the frame's address. A real offset is under the
  /// binary's size, far below 4 GiB.
  public var offsetIsLoadAddress: Bool {
    guard let address, offsetIntoBinaryTextSegment >= 0x1_0000_0000, offsetIntoBinaryTextSegment <= address else {
      return false
    }
    return address - offsetIntoBinaryTextSegment < 512 << 20
  }

  /// The instruction's offset from the binary's `__TEXT` segment, with the load-address quirk undone.
  public var imageOffset: UInt64 {
    offsetIsLoadAddress ? (address ?? 0) - offsetIntoBinaryTextSegment : offsetIntoBinaryTextSegment
  }

  /// Whether the frame is in one of the app's own images: its binary is named in `appBinaries`, or it
  /// ran below the shared region. Nil when neither tells (no such name, no address).
  public func isAppImage(appBinaries: Set<String>) -> Bool {
    if let binaryName, appBinaries.contains(binaryName) { return true }
    guard let address else { return false }
    return address < Self.sharedRegionStart
  }
}
