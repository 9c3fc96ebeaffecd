/// A 64-bit checksum of bytes taken eight at a time: what a cache file's header holds for each of its
/// sections, so that a file damaged since it was written is told apart from the one written. Not a
/// cryptographic hash (nobody is assumed to forge cache files: their keys are SHA-256), but several
/// times faster than FNV-1a's byte at a time over the tens of megabytes a run reads back.
enum WordChecksum {
  /// The checksum of `bytes`.
  static func of(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.withUnsafeBytes { raw in
      let count = raw.count
      var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)
      var i = 0
      // Each word mixed in by a multiply and a rotation: a changed byte changes every later state.
      while i + 8 <= count {
        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        h = (h ^ word) &* 0xFF51_AFD7_ED55_8CCD
        h = (h << 29) | (h >> 35)
        i += 8
      }
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while i < count {
        tail |= UInt64(raw[i]) << shift
        shift += 8
        i += 1
      }
      h = (h ^ tail) &* 0xC4CE_B9FE_1A85_EC53
      return h ^ (h >> 33)
    }
  }

  /// The checksum of all of `bytes`.
  static func of(_ bytes: [UInt8]) -> UInt64 { of(bytes[...]) }
}
