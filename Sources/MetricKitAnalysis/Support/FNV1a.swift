/// FNV-1a, 64 bits: the one hash of bytes the library uses where a hash reaches output or a lookup
/// (diagnostic signatures, the report's series styles, Datadog tag suffixes, the unit table). The same
/// on every run and machine, unlike `Hasher`.
enum FNV1a {
  /// The hash of `bytes`.
  @inline(__always)
  static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return h
  }
}
